/// \file
/// The open script and everything the views show about it (STYLE.md: "document/ holds the
/// QObject that owns the engine Analysis"). It owns the script's text (a QTextDocument the
/// editor displays), its file, the shared selection and the last good Analysis. Every edit
/// re-analyses after a short pause, off the GUI thread; a failing edit keeps the last good
/// Analysis for the views and reports the problem beside it (issue 7, item 5).
#pragma once

#include "document/AnalysisRunner.h"
#include "document/StageSelection.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>

class QTextDocument;

namespace bs::gui {

class ScriptDocument : public QObject {
    Q_OBJECT
public:
    /// The pause after the last keystroke before the script runs again.
    static constexpr int kReanalyseDelayMs = 400;

    explicit ScriptDocument(QObject* parent = nullptr);

    QTextDocument* textDocument() const { return m_text; }
    StageSelection* selection() const { return m_selection; }

    /// Reads `path` (UTF-8) and analyses it; false with `errorMessage` set when it cannot.
    bool openFile(const QString& path, QString* errorMessage);
    /// Opens an example as a new, unsaved script named after it, so saving never overwrites the
    /// examples shipped with the app.
    bool openExample(const QString& path, QString* errorMessage);
    /// Replaces the text by `text`, untitled, shown as `scriptName`, and analyses it.
    void setUntitled(const QString& text, const QString& scriptName);
    /// Replaces the text by the unsaved `text` of `filePath` (empty: untitled) recovered from
    /// an autosave; the document is marked modified, and analysed.
    void recover(const QString& text, const QString& filePath, const QString& scriptName);
    /// Writes the text to `path` atomically (QSaveFile: the old file stays intact until the new
    /// one is complete), then makes `path` the document's file.
    bool saveAs(const QString& path, QString* errorMessage);

    /// The file the script is saved in; empty when untitled.
    const QString& filePath() const { return m_filePath; }
    /// The name shown in the title and used for the script's diagnostics (`default.py`).
    const QString& scriptName() const { return m_scriptName; }
    bool isModified() const;
    /// Whether the text is a Tensor Comprehensions definition (the script name ends in `.tc`):
    /// it is analysed as its default schedule, no Python runs.
    bool isTcSource() const;

    BoundRules rules() const { return m_options.rules; }
    /// Re-analyses under `rules` (without running an unchanged script again).
    void setRules(BoundRules rules);
    bool keepTrivialLoops() const { return m_options.keepTrivialLoops; }
    void setKeepTrivialLoops(bool keep);

    /// Analyses a program built in C++ as if the current text had defined it (for tests and
    /// for programs that do not come from a script).
    void analyseProgram(const Program& program);
    /// Runs the script and analyses it now, without waiting for the typing pause.
    void reanalyse();
    /// Interrupts a running script (the Stop action).
    void stop();
    bool isBusy() const { return m_runner->isBusy(); }

    /// What the views show: the latest Analysis, or, when the latest run failed, the program
    /// it built up to the failing line (nothing lowered, its `error` set); the last one that
    /// built a program when the latest built none (a syntax error) and the script was analysed
    /// before. A newly loaded script (a file, an example) shows no program until its first run
    /// ends: an Analysis whose `error` is a Note saying so, then its own failure when that run
    /// built nothing. Null before the first script.
    const std::shared_ptr<const Analysis>& analysis() const { return m_analysis; }
    /// Whether the views show a program from the latest run (false: an older one, stale).
    bool analysisIsCurrent() const { return m_analysisIsCurrent; }
    /// The problem of the latest run, if it failed.
    const std::optional<Diagnostic>& problem() const { return m_problem; }
    /// What the latest script run wrote to stdout and stderr.
    const QString& scriptOutput() const { return m_output; }
    /// How long the latest run took, script included.
    qint64 lastRunMs() const { return m_lastRunMs; }
    /// Whether a program from the current text is known (false until a script defined one).
    bool hasProgram() const { return m_program.defined(); }

Q_SIGNALS:
    /// A new Analysis replaced the previous one (it may be of a failed program).
    void analysisChanged();
    /// The problem was set, changed or cleared.
    void problemChanged();
    /// Every run ends with this, good or bad (after analysisChanged / problemChanged).
    void analysisFinished();
    void busyChanged(bool busy);
    /// The file path or the script name changed.
    void fileChanged();
    void modificationChanged(bool modified);
    /// The whole text was replaced (a file opened or reloaded): its undo history is gone.
    void textReplaced();

private:
    void replaceText(const QString& text);
    void startAnalysis(std::optional<Program> program);
    void onFinished(const AnalysisOutcome& outcome);

    QTextDocument* m_text;
    StageSelection* m_selection;
    AnalysisRunner* m_runner;
    QTimer m_typingPause;
    QString m_filePath;
    QString m_scriptName;
    AnalysisOptions m_options;

    /// The program the text in `m_programSource` defined: a rules change re-analyses it
    /// instead of running the script again.
    Program m_program;
    QString m_programSource;
    QString m_requestSource; ///< the text of the request in flight

    std::shared_ptr<const Analysis> m_analysis;
    bool m_analysisIsCurrent = false;
    /// A new script was loaded and has not been analysed yet (m_analysis says so).
    bool m_awaitingFirstAnalysis = false;
    std::optional<Diagnostic> m_problem;
    QString m_output;
    qint64 m_lastRunMs = 0;
};

} // namespace bs::gui
