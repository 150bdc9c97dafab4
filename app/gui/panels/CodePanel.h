/// \file
/// The generated code of the current schedule (issue 7: "generated code (LLVM IR or CUDA C),
/// with highlighting"): CUDA C for a schedule bound to GPU threads, LLVM IR for a CPU schedule
/// when the engine was built with LLVM, from engine/run (RunKernel.h). Code is generated only
/// while the panel is visible, so hidden, it costs nothing on each edit.
#pragma once

#include "analysis/Analysis.h"

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

    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    /// The code shown (generating it now if the panel was hidden since the last analysis).
    const GeneratedCode& code();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void regenerate();

    std::shared_ptr<const Analysis> m_analysis;
    bool m_stale = true;
    GeneratedCode m_code;
    QLabel* m_caption;
    QPlainTextEdit* m_text;
};

} // namespace bs::gui
