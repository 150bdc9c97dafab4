#include "document/ScriptDocument.h"

#include "document/Exporter.h"
#include "support/ScriptFile.h"

#include "analysis/TcSource.h"

#include <QFile>
#include <QFileInfo>
#include <QPlainTextDocumentLayout>
#include <QSaveFile>
#include <QTextDocument>

namespace bs::gui {

ScriptDocument::ScriptDocument(QObject* parent)
    : QObject(parent), m_text(new QTextDocument(this)), m_selection(new StageSelection(this)),
      m_runner(new AnalysisRunner(this)), m_scriptName(QStringLiteral("untitled.py")) {
    // A QPlainTextEdit only shows documents with the plain-text layout.
    m_text->setDocumentLayout(new QPlainTextDocumentLayout(m_text));
    m_typingPause.setSingleShot(true);
    m_typingPause.setInterval(kReanalyseDelayMs);
    connect(&m_typingPause, &QTimer::timeout, this, &ScriptDocument::reanalyse);
    connect(m_text, &QTextDocument::contentsChanged, this, [this] { m_typingPause.start(); });
    connect(m_text, &QTextDocument::modificationChanged, this,
            &ScriptDocument::modificationChanged);
    connect(m_runner, &AnalysisRunner::finished, this, &ScriptDocument::onFinished);
    connect(m_runner, &AnalysisRunner::busyChanged, this, &ScriptDocument::busyChanged);
}

bool ScriptDocument::openFile(const QString& path, QString* errorMessage) {
    // A device (/dev/zero) or a pipe would never finish reading: refused, as the CLI does.
    std::string reason;
    const std::optional<std::string> source = readScriptFile(path.toStdString(), reason);
    if (!source) {
        *errorMessage = tr("cannot open '%1': %2").arg(path, QString::fromStdString(reason));
        return false;
    }
    const QString text = QString::fromUtf8(source->data(), qsizetype(source->size()));
    QFileInfo info(path);
    m_filePath = info.absoluteFilePath();
    m_scriptName = info.fileName();
    replaceText(text);
    Q_EMIT fileChanged();
    reanalyse();
    return true;
}

bool ScriptDocument::openExample(const QString& path, QString* errorMessage) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *errorMessage = tr("cannot open example '%1': %2").arg(path, file.errorString());
        return false;
    }
    setUntitled(QString::fromUtf8(file.readAll()), QFileInfo(path).fileName());
    return true;
}

void ScriptDocument::setUntitled(const QString& text, const QString& scriptName) {
    m_filePath.clear();
    m_scriptName = scriptName;
    replaceText(text);
    Q_EMIT fileChanged();
    reanalyse();
}

void ScriptDocument::recover(const QString& text, const QString& filePath,
                             const QString& scriptName) {
    m_filePath = filePath.isEmpty() ? QString() : QFileInfo(filePath).absoluteFilePath();
    m_scriptName = scriptName.isEmpty() ? QStringLiteral("untitled.py") : scriptName;
    replaceText(text);
    m_text->setModified(true);
    Q_EMIT fileChanged();
    reanalyse();
}

bool ScriptDocument::saveAs(const QString& path, QString* errorMessage) {
    if (const QString reason = notAFileToWrite(path); !reason.isEmpty()) {
        *errorMessage = tr("cannot save '%1': %2").arg(path, reason);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *errorMessage = tr("cannot save '%1': %2").arg(path, file.errorString());
        return false;
    }
    file.write(m_text->toPlainText().toUtf8());
    if (!file.commit()) {
        *errorMessage = tr("cannot save '%1': %2").arg(path, file.errorString());
        return false;
    }
    QFileInfo info(path);
    const bool wasTc = isTcSource();
    m_filePath = info.absoluteFilePath();
    m_scriptName = info.fileName();
    m_text->setModified(false);
    Q_EMIT fileChanged();
    // Saved as the other language (`.py` <-> `.tc`): the same text now means another program.
    if (wasTc != isTcSource()) {
        m_program = Program();
        reanalyse();
    }
    return true;
}

bool ScriptDocument::isModified() const { return m_text->isModified(); }

bool ScriptDocument::isTcSource() const { return isTcFileName(m_scriptName.toStdString()); }

void ScriptDocument::setRules(BoundRules rules) {
    if (rules == m_options.rules)
        return;
    m_options.rules = rules;
    reanalyse();
}

void ScriptDocument::setKeepTrivialLoops(bool keep) {
    if (keep == m_options.keepTrivialLoops)
        return;
    m_options.keepTrivialLoops = keep;
    reanalyse();
}

void ScriptDocument::analyseProgram(const Program& program) {
    m_typingPause.stop();
    m_program = program;
    m_programSource = m_text->toPlainText();
    startAnalysis(program);
}

void ScriptDocument::reanalyse() {
    m_typingPause.stop();
    // Only the text decides what the script defines: while it is unchanged, its program is
    // re-analysed (a rules change) without running Python again.
    if (m_program.defined() && m_programSource == m_text->toPlainText()) {
        startAnalysis(m_program);
        return;
    }
    startAnalysis(std::nullopt);
}

void ScriptDocument::stop() {
    m_typingPause.stop();
    m_runner->stop();
}

void ScriptDocument::replaceText(const QString& text) {
    m_typingPause.stop();
    // Another script: a stage of the previous one that happens to share a name is not the
    // stage to show (the new analysis selects its default).
    m_selection->clear();
    // Nothing of the previous script may show under the new one's name, even when the new one
    // fails before it builds a program: the views say it is being analysed until it has been,
    // and a rules change has no old program to re-analyse.
    m_program = Program();
    m_programSource.clear();
    m_problem.reset();
    m_analysis = std::make_shared<const Analysis>(
        failedAnalysis(Program(), m_options,
                       Diagnostic{tr("Analysing %1…").arg(m_scriptName).toStdString(),
                                  SourceLocation{}, Severity::Note}));
    m_analysisIsCurrent = false;
    m_awaitingFirstAnalysis = true;
    Q_EMIT analysisChanged();
    Q_EMIT problemChanged();
    m_text->setPlainText(text);
    m_text->clearUndoRedoStacks();
    m_text->setModified(false);
    Q_EMIT textReplaced();
    // The setPlainText above restarted the typing pause; the caller analyses at once instead.
    m_typingPause.stop();
}

void ScriptDocument::startAnalysis(std::optional<Program> program) {
    AnalysisRequest request;
    m_requestSource = m_text->toPlainText();
    request.source = m_requestSource.toStdString();
    request.fileName = m_scriptName.toStdString();
    request.options = m_options;
    request.program = std::move(program);
    m_runner->start(std::move(request));
}

void ScriptDocument::onFinished(const AnalysisOutcome& outcome) {
    if (outcome.ranScript) {
        m_program = outcome.program;
        m_programSource = m_requestSource;
        m_output = QString::fromStdString(outcome.output);
    }
    m_lastRunMs = outcome.elapsedMs;
    m_problem = outcome.ok() ? std::nullopt : outcome.error;
    // A failed run that built a program shows it, with what failed marked; one that built
    // none (a syntax error) leaves the last program in the views.
    m_analysisIsCurrent = outcome.analysis != nullptr;
    if (outcome.analysis) {
        m_analysis = outcome.analysis;
        Q_EMIT analysisChanged();
    } else if (m_awaitingFirstAnalysis) {
        // The script's first run built nothing: the views show its failure, not an older
        // script's program.
        m_analysis = std::make_shared<const Analysis>(failedAnalysis(
            Program(), m_options,
            outcome.error.value_or(Diagnostic{"the script built no program", SourceLocation{}})));
        m_analysisIsCurrent = true;
        Q_EMIT analysisChanged();
    }
    m_awaitingFirstAnalysis = false;
    Q_EMIT problemChanged();
    Q_EMIT analysisFinished();
}

} // namespace bs::gui
