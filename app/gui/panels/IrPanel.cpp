#include "panels/IrPanel.h"

#include "ir/Printer.h"
#include "models/GraphModels.h"
#include "models/StageQueries.h"
#include "models/StepOutline.h"
#include "models/StepText.h"
#include "views/Highlighters.h"
#include "views/IrView.h"
#include "views/Theme.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTextBlock>
#include <QVBoxLayout>

#include <algorithm>

namespace bs::gui {

namespace {

const LowerPass kPasses[] = {LowerPass::ScheduleOps, LowerPass::Flatten, LowerPass::Simplify,
                             LowerPass::Cse, LowerPass::Final};

/// The selector's key of the n-th user pass (the built-in passes' keys are their LowerPass).
constexpr int kUserPassKey = 1000;

/// The built-in pass after which the user passes of `phase` run, as the pipeline orders them:
/// phase 0 after schedule_ops, 1 after simplify, 2 and 3 after cse (before final).
LowerPass builtInBefore(int phase) {
    return phase <= 0 ? LowerPass::ScheduleOps : phase == 1 ? LowerPass::Simplify : LowerPass::Cse;
}

/// The selector's entries for `analysis`, in pipeline order: (label, key).
QList<QPair<QString, int>> passEntries(const Analysis* analysis) {
    std::vector<UserPass> users;
    if (analysis && analysis->lowered)
        users = analysis->program.userPasses;
    // Lowering runs them by phase (phases above 3 with 3), in the order given within one:
    // the order of LoweredFunc::afterUserPasses.
    std::stable_sort(users.begin(), users.end(), [](const UserPass& a, const UserPass& b) {
        return std::min(a.phase, 3) < std::min(b.phase, 3);
    });
    QList<QPair<QString, int>> entries;
    for (LowerPass pass : kPasses) {
        entries.append({QString::fromLatin1(lowerPassName(pass)), int(pass)});
        for (size_t i = 0; i < users.size(); ++i) {
            if (builtInBefore(users[i].phase) == pass)
                entries.append({QObject::tr("%1 (user pass, phase %2)")
                                    .arg(QString::fromStdString(users[i].name))
                                    .arg(users[i].phase),
                                kUserPassKey + int(i)});
        }
    }
    return entries;
}

/// The statement the selector's entry `key` shows; null when there is none.
const Stmt* statementAfter(const Analysis& analysis, int key) {
    if (!analysis.lowered)
        return nullptr;
    const LoweredFunc& func = analysis.lowered->func;
    if (key < kUserPassKey)
        return &func.after(LowerPass(key));
    const size_t index = size_t(key - kUserPassKey);
    return index < func.afterUserPasses.size() ? &func.afterUserPasses[index].second : nullptr;
}

const QColor kBlockTint(0xff, 0xf8, 0xe1);
const QColor kStageLine(0xff, 0xe7, 0xa8);
const QColor kLoopLine(0xff, 0xcc, 0x8a);
const QColor kStepLine(0xc9, 0xdd, 0xf8);
const QColor kDerivedLine(0xe6, 0xef, 0xfb);

/// The statement after `pass` printed with the step of each line (-1 where none), as
/// loweredIrText prints it.
QString printedWithSteps(const Analysis& analysis, int key, QList<int>* lineSteps) {
    const Stmt* stmt = statementAfter(analysis, key);
    if (!stmt || !stmt->defined())
        return QString();
    std::vector<StepMark> marks;
    const QString text = QString::fromStdString(printWithSteps(*stmt, &marks));
    lineSteps->fill(-1, text.count(QLatin1Char('\n')) + 1);
    for (const StepMark& mark : marks) {
        if (mark.line >= 0 && mark.line < lineSteps->size())
            (*lineSteps)[mark.line] = mark.stepId;
    }
    return text;
}

} // namespace

QString loweredIrText(const Analysis& analysis, LowerPass pass) {
    const Stmt* stmt = statementAfter(analysis, int(pass));
    return stmt && stmt->defined() ? QString::fromStdString(toString(*stmt)) : QString();
}

IrPanel::IrPanel(QWidget* parent)
    : QWidget(parent), m_passes(new QComboBox(this)), m_text(new IrView(this)) {
    updatePassEntries();
    m_passes->setCurrentIndex(m_passes->findData(int(LowerPass::Final)));
    m_passes->setToolTip(tr("Show the IR after this lowering pass (the passes the script adds "
                            "with tir.add_lower_pass are listed where they run)"));
    connect(m_passes, &QComboBox::currentIndexChanged, this, &IrPanel::refresh);

    m_text->setFont(codeFont());
    m_text->setFrameShape(QFrame::NoFrame);
    m_text->setToolTip(tr("Click a line to select the stage it belongs to; hover a number of a "
                          "marked line to see where it came from, click it to step there"));
    m_text->setDerivation([this](int step) {
        const BoundSteps* steps = m_analysis ? stepsOf(*m_analysis) : nullptr;
        if (!steps)
            return QString();
        return derivationHtml(*steps, step) +
               tr("<p style=\"color:%1\">Click the number to step there.</p>")
                   .arg(theme::captionInk().name());
    });
    new IrHighlighter(m_text->document());
    connect(theme::notifier(), &theme::Notifier::changed, this,
            [this] { highlightSelection(false); });
    connect(m_text, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        if (!m_updating)
            chooseLine(m_text->textCursor().blockNumber());
    });
    connect(m_text, &IrView::stepClicked, this, &IrPanel::stepChosen);

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
    const int key = m_passes->currentData().toInt();
    return key < kUserPassKey ? LowerPass(key) : LowerPass::Final;
}

void IrPanel::setPass(LowerPass pass) { m_passes->setCurrentIndex(m_passes->findData(int(pass))); }

QString IrPanel::passName() const {
    const int key = m_passes->currentData().toInt();
    if (key < kUserPassKey)
        return QString::fromLatin1(lowerPassName(LowerPass(key)));
    const size_t index = size_t(key - kUserPassKey);
    if (!m_analysis || !m_analysis->lowered ||
        index >= m_analysis->lowered->func.afterUserPasses.size())
        return QString();
    return QString::fromStdString(m_analysis->lowered->func.afterUserPasses[index].first);
}

QString IrPanel::loweredText() const {
    const Stmt* stmt =
        m_analysis ? statementAfter(*m_analysis, m_passes->currentData().toInt()) : nullptr;
    return stmt && stmt->defined() ? QString::fromStdString(toString(*stmt)) : QString();
}

void IrPanel::updatePassEntries() {
    const QList<QPair<QString, int>> entries = passEntries(m_analysis.get());
    bool same = entries.size() == m_passes->count();
    for (int i = 0; same && i < entries.size(); ++i)
        same = m_passes->itemText(i) == entries[i].first;
    if (same)
        return;
    // The same entry stays chosen when it is still there (by its label: a user pass keeps its
    // name across edits); otherwise final.
    const QString chosen = m_passes->currentText();
    const QSignalBlocker blocker(m_passes);
    m_passes->clear();
    for (const auto& [label, key] : entries)
        m_passes->addItem(label, key);
    const int again = m_passes->findText(chosen);
    m_passes->setCurrentIndex(again >= 0 ? again : m_passes->findData(int(LowerPass::Final)));
}

void IrPanel::setAnalysis(const std::shared_ptr<const Analysis>& analysis) {
    m_analysis = analysis;
    updatePassEntries();
    refresh();
}

void IrPanel::showSelection(const QString& stage, const QString& iterVar) {
    m_stage = stage;
    m_iterVar = iterVar;
    highlightSelection(true);
}

void IrPanel::showStep(int id, const QSet<int>& derived) {
    m_step = id;
    m_derived = derived;
    m_text->setCurrentStep(id);
    highlightSelection(true);
}

QList<int> IrPanel::stepLines() const {
    QList<int> lines;
    for (int line = 0; m_step >= 0 && line < m_lines.size(); ++line) {
        if (m_text->stepOfLine(line) == m_step)
            lines << line;
    }
    return lines;
}

int IrPanel::stepOfLine(int line) const { return m_text->stepOfLine(line); }

QString IrPanel::text() const { return m_text->toPlainText(); }

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
    QList<int> lineSteps;
    m_updating = true;
    m_text->setPlainText(
        m_analysis ? printedWithSteps(*m_analysis, m_passes->currentData().toInt(), &lineSteps)
                   : QString());
    const QString failure = m_analysis ? failureNote(*m_analysis) : QString();
    m_text->setPlaceholderText(failure.isEmpty() ? QString()
                                                 : failure + tr(": nothing was lowered."));
    m_updating = false;
    m_text->setLineSteps(lineSteps);
    m_lines = irLines(m_text->toPlainText());
    m_text->verticalScrollBar()->setValue(scroll);
    highlightSelection(false);
}

QColor IrPanel::lineTint(const IrLine& line, int step) const {
    if (m_step >= 0 && step == m_step)
        return kStepLine;
    if (step >= 0 && m_derived.contains(step))
        return kDerivedLine;
    if (m_stage.isEmpty() || line.stage != m_stage)
        return QColor();
    const bool loop = !m_iterVar.isEmpty() && !line.loopVar.isEmpty() && m_analysis &&
                      iterVarOfLoop(*m_analysis, m_stage, line.loopVar) == m_iterVar;
    return loop ? kLoopLine : line.namesStage ? kStageLine : kBlockTint;
}

void IrPanel::highlightSelection(bool scroll) {
    QList<QTextEdit::ExtraSelection> selections;
    m_highlighted.clear();
    int firstLine = -1;
    int firstFocus = -1; // the first line of the current step, else of the selected loop
    QTextBlock block = m_text->document()->begin();
    for (int n = 0; n < m_lines.size() && block.isValid(); ++n, block = block.next()) {
        const int step = m_text->stepOfLine(n);
        const QColor tint = lineTint(m_lines[n], step);
        if (!tint.isValid())
            continue;
        QTextEdit::ExtraSelection s;
        s.format.setBackground(theme::tint(tint));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(block);
        selections << s;
        m_highlighted << n;
        firstLine = firstLine < 0 ? n : firstLine;
        const bool focus = tint == kStepLine || (m_step < 0 && tint == kLoopLine);
        firstFocus = firstFocus < 0 && focus ? n : firstFocus;
    }
    m_text->setExtraSelections(selections);
    const int target = firstFocus >= 0 ? firstFocus : firstLine;
    if (!scroll || target < 0)
        return;
    // A QPlainTextEdit scrolls by lines: show the target without moving the reader's cursor.
    QScrollBar* bar = m_text->verticalScrollBar();
    const int visible = m_text->viewport()->height() / qMax(1, m_text->fontMetrics().lineSpacing());
    if (target < bar->value() || target >= bar->value() + visible - 1)
        bar->setValue(qMax(0, target - 3));
}

} // namespace bs::gui
