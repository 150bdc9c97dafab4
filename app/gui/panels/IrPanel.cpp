#include "panels/IrPanel.h"

#include "ir/Printer.h"
#include "models/GraphModels.h"
#include "views/Highlighters.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QVBoxLayout>

namespace bs::gui {

namespace {

const LowerPass kPasses[] = {LowerPass::ScheduleOps, LowerPass::Flatten, LowerPass::Simplify,
                             LowerPass::Cse, LowerPass::Final};

const QColor kBlockTint(0xff, 0xf8, 0xe1);
const QColor kStageLine(0xff, 0xe7, 0xa8);
const QColor kLoopLine(0xff, 0xcc, 0x8a);

} // namespace

QString loweredIrText(const Analysis& analysis, LowerPass pass) {
    if (!analysis.lowered)
        return QString();
    const Stmt& stmt = analysis.lowered->func.after(pass);
    return stmt.defined() ? QString::fromStdString(toString(stmt)) : QString();
}

IrPanel::IrPanel(QWidget* parent)
    : QWidget(parent), m_passes(new QComboBox(this)), m_text(new QPlainTextEdit(this)) {
    for (LowerPass pass : kPasses)
        m_passes->addItem(QString::fromLatin1(lowerPassName(pass)), int(pass));
    m_passes->setCurrentIndex(m_passes->findData(int(LowerPass::Final)));
    m_passes->setToolTip(tr("Show the IR after this lowering pass"));
    connect(m_passes, &QComboBox::currentIndexChanged, this, &IrPanel::refresh);

    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(codeFont());
    m_text->setFrameShape(QFrame::NoFrame);
    m_text->setToolTip(tr("Click a line to select the stage it belongs to"));
    new IrHighlighter(m_text->document());
    connect(m_text, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        if (!m_updating)
            chooseLine(m_text->textCursor().blockNumber());
    });

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    bar->addWidget(new QLabel(tr("After pass"), this));
    bar->addWidget(m_passes);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_text, 1);
}

LowerPass IrPanel::pass() const {
    return LowerPass(m_passes->currentData().toInt());
}

void IrPanel::setPass(LowerPass pass) {
    m_passes->setCurrentIndex(m_passes->findData(int(pass)));
}

void IrPanel::setAnalysis(const std::shared_ptr<const Analysis>& analysis) {
    m_analysis = analysis;
    refresh();
}

void IrPanel::showSelection(const QString& stage, const QString& iterVar) {
    m_stage = stage;
    m_iterVar = iterVar;
    highlightSelection(true);
}

QString IrPanel::text() const {
    return m_text->toPlainText();
}

bool IrPanel::chooseLine(int line) {
    if (line < 0 || line >= m_lines.size() || m_lines[line].stage.isEmpty() || !m_analysis)
        return false;
    const IrLine& info = m_lines[line];
    Q_EMIT lineChosen(info.stage, iterVarOfLoop(*m_analysis, info.stage, info.loopVar));
    return true;
}

void IrPanel::refresh() {
    // Keep the reader's place across re-analyses of the same script.
    const int scroll = m_text->verticalScrollBar()->value();
    m_updating = true;
    m_text->setPlainText(m_analysis ? loweredIrText(*m_analysis, pass()) : QString());
    m_updating = false;
    m_lines = irLines(m_text->toPlainText());
    m_text->verticalScrollBar()->setValue(scroll);
    highlightSelection(false);
}

void IrPanel::highlightSelection(bool scroll) {
    QList<QTextEdit::ExtraSelection> selections;
    m_highlighted.clear();
    int firstLine = -1;
    int firstLoop = -1;
    QTextBlock block = m_text->document()->begin();
    for (int n = 0; n < m_lines.size() && block.isValid(); ++n, block = block.next()) {
        const IrLine& line = m_lines[n];
        if (m_stage.isEmpty() || line.stage != m_stage)
            continue;
        const bool loop = !m_iterVar.isEmpty() && !line.loopVar.isEmpty() && m_analysis &&
                          iterVarOfLoop(*m_analysis, m_stage, line.loopVar) == m_iterVar;
        QTextEdit::ExtraSelection s;
        s.format.setBackground(loop ? kLoopLine : line.namesStage ? kStageLine : kBlockTint);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(block);
        selections << s;
        m_highlighted << n;
        firstLine = firstLine < 0 ? n : firstLine;
        firstLoop = firstLoop < 0 && loop ? n : firstLoop;
    }
    m_text->setExtraSelections(selections);
    const int target = firstLoop >= 0 ? firstLoop : firstLine;
    if (!scroll || target < 0)
        return;
    // A QPlainTextEdit scrolls by lines: show the target without moving the reader's cursor.
    QScrollBar* bar = m_text->verticalScrollBar();
    const int visible = m_text->viewport()->height() / qMax(1, m_text->fontMetrics().lineSpacing());
    if (target < bar->value() || target >= bar->value() + visible - 1)
        bar->setValue(qMax(0, target - 3));
}

} // namespace bs::gui
