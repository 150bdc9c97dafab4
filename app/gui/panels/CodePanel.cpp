#include "panels/CodePanel.h"

#include "models/StageQueries.h"
#include "views/Highlighters.h"

#if BOUNDSCOPE_GUI_WITH_RUN
#include "run/RunKernel.h"
#endif

#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace bs::gui {

GeneratedCode generateCode(const Analysis& analysis) {
    GeneratedCode code;
    if (!analysis.lowered) {
        code.message = analysis.error ? failureNote(analysis) + QStringLiteral(": no code.")
                                      : QStringLiteral("no lowered function yet");
        return code;
    }
#if BOUNDSCOPE_GUI_WITH_RUN
    const bool gpu = usesGpuThreads(analysis.lowered->func);
    if (!gpu && !runHasLlvm()) {
        code.message = QStringLiteral(
            "This schedule binds no loop to a GPU thread, so it has no CUDA kernel, and this "
            "build has no LLVM code generator for the CPU (configure with "
            "-DBOUNDSCOPE_WITH_LLVM=ON).");
        return code;
    }
    code.language = gpu ? QStringLiteral("CUDA C") : QStringLiteral("LLVM IR");
    code.suffix = gpu ? QStringLiteral("cu") : QStringLiteral("ll");
    // The code generators report what they cannot express (a type, a storage scope) as user
    // errors; nothing may escape into a Qt slot.
    try {
        code.text = QString::fromStdString(gpu ? printKernelCudaSource(*analysis.lowered)
                                               : printKernelLlvmIr(*analysis.lowered));
    } catch (const std::exception& e) {
        code.message = QStringLiteral("No %1: %2").arg(code.language, QString::fromUtf8(e.what()));
        code.language.clear();
    }
#else
    code.message = QStringLiteral("this build has no code generation (engine/run)");
#endif
    return code;
}

CodePanel::CodePanel(QWidget* parent)
    : QWidget(parent), m_caption(new QLabel(this)), m_text(new QPlainTextEdit(this)) {
    m_jobs.setBackground(true); // read after the graphs: they go first on few cores
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(codeFont());
    m_text->setFrameShape(QFrame::NoFrame);
    new CodeHighlighter(m_text->document());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* captionRow = new QVBoxLayout;
    captionRow->setContentsMargins(6, 4, 6, 0);
    captionRow->addWidget(m_caption);
    layout->addLayout(captionRow);
    layout->addWidget(m_text, 1);
}

CodePanel::~CodePanel() = default;

void CodePanel::setAnalysis(std::shared_ptr<const Analysis> analysis) {
    m_analysis = std::move(analysis);
    m_stale = true;
    m_jobs.discard();
    if (isVisible())
        regenerateLater();
}

const GeneratedCode& CodePanel::code() {
    if (m_stale) {
        m_jobs.discard(); // a job's result would only repeat this one
        display(m_analysis ? generateCode(*m_analysis)
                           : GeneratedCode{{}, {}, {}, tr("No analysis yet.")});
    }
    return m_code;
}

void CodePanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_stale)
        regenerateLater();
}

void CodePanel::regenerateLater() {
    if (!m_analysis) {
        display(GeneratedCode{{}, {}, {}, tr("No analysis yet.")});
        return;
    }
    // The Analysis the job holds is immutable and shared; generateCode never throws.
    m_jobs.start<GeneratedCode>([analysis = m_analysis] { return generateCode(*analysis); },
                                [this](JobOutcome<GeneratedCode> outcome) {
                                    if (outcome.value && m_stale)
                                        display(std::move(*outcome.value));
                                });
}

void CodePanel::display(GeneratedCode code) {
    m_stale = false;
    m_code = std::move(code);
    m_caption->setText(m_code.language.isEmpty()
                           ? m_code.message
                           : tr("%1 of the lowered function").arg(m_code.language));
    // Without code the message is the content: full colour, not a grey caption.
    m_caption->setForegroundRole(m_code.language.isEmpty() ? QPalette::WindowText
                                                           : QPalette::PlaceholderText);
    m_text->setPlainText(m_code.text);
    Q_EMIT codeShown();
}

} // namespace bs::gui
