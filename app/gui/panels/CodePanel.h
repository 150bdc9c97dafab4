/// \file
/// The generated code of the current schedule (issue 7: "generated code (LLVM IR or CUDA C),
/// with highlighting"): CUDA C for a schedule bound to GPU threads, LLVM IR for a CPU schedule
/// when the engine was built with LLVM, from engine/run (RunKernel.h). Code is generated only
/// while the panel is visible, so hidden, it costs nothing on each edit; and on a worker thread
/// (LLVM takes a noticeable time on a big kernel), the previous code staying until it arrives.
#pragma once

#include "analysis/Analysis.h"

#include "document/JobRunner.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPlainTextEdit;

namespace bs::gui {

struct GeneratedCode {
    QString language; ///< `CUDA C` or `LLVM IR`; empty when there is no code
    QString suffix;   ///< the file extension for export: `cu` or `ll`
    QString text;
    QString message; ///< why there is no code, when there is none
};

/// Generates the code of `analysis` (never throws: the engine's message becomes `message`).
GeneratedCode generateCode(const Analysis& analysis);

class CodePanel : public QWidget {
    Q_OBJECT
public:
    explicit CodePanel(QWidget* parent = nullptr);
    ~CodePanel() override;

    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    /// The code of the latest analysis (generated now, on this thread, when the panel does not
    /// show it yet: for export).
    const GeneratedCode& code();
    /// Whether the code shown is the latest analysis's.
    bool isCurrent() const { return !m_stale; }

Q_SIGNALS:
    /// The code of the latest analysis is shown.
    void codeShown();

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// Generates the latest analysis's code on a worker thread.
    void regenerateLater();
    void display(GeneratedCode code);

    std::shared_ptr<const Analysis> m_analysis;
    bool m_stale = true;
    JobRunner m_jobs;
    GeneratedCode m_code;
    QLabel* m_caption;
    QPlainTextEdit* m_text;
};

} // namespace bs::gui
