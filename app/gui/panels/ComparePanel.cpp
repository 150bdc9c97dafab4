#include "panels/ComparePanel.h"

#include "document/AnalysisRunner.h"
#include "ir/Printer.h"
#include "models/StringTableModel.h"
#include "panels/TableViews.h"
#include "views/Highlighters.h"
#include "views/HintTableView.h"
#include "views/Theme.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QVBoxLayout>

namespace bs::gui {

namespace {

/// The allocations of `analysis` for a diff; nullopt when they cannot be reported.
std::optional<AllocReport> reportOf(const Analysis& analysis) {
    try {
        return allocationsToCompare(analysis);
    } catch (const UserError&) {
        return std::nullopt;
    }
}

/// Tints on white (views/Theme.h adapts them): changed, only on the left, only on the right.
const QColor kChangedTint(0xff, 0xf1, 0xc2);
const QColor kOnlyLeftTint(0xfc, 0xdc, 0xdc);
const QColor kOnlyRightTint(0xd8, 0xf3, 0xdc);

/// Fills `view` with one side of the aligned IR, a blank line where the side has none, and
/// tints every line that differs.
void showSide(QPlainTextEdit* view, const std::vector<LinePair>& pairs, bool left) {
    QStringList lines;
    for (const LinePair& pair : pairs)
        lines << QString::fromStdString(left ? pair.a : pair.b);
    view->setPlainText(lines.join(QLatin1Char('\n')));
    QList<QTextEdit::ExtraSelection> tints;
    QTextBlock block = view->document()->begin();
    for (const LinePair& pair : pairs) {
        QColor tint;
        if (pair.mark == DiffMark::Changed)
            tint = kChangedTint;
        else if (pair.mark == DiffMark::OnlyA)
            tint = left ? kOnlyLeftTint : QColor();
        else if (pair.mark == DiffMark::OnlyB)
            tint = left ? QColor() : kOnlyRightTint;
        if (tint.isValid()) {
            QTextEdit::ExtraSelection selection;
            selection.format.setBackground(theme::tint(tint));
            selection.format.setProperty(QTextFormat::FullWidthSelection, true);
            selection.cursor = QTextCursor(block);
            tints << selection;
        }
        block = block.next();
    }
    view->setExtraSelections(tints);
}

QString optionalText(const std::optional<std::string>& text) {
    return text ? QString::fromStdString(*text) : QStringLiteral("—");
}

QString allocationText(const std::optional<std::string>& text, std::optional<int64_t> needed) {
    QString out = optionalText(text);
    if (text && needed)
        out += QStringLiteral(" (needed %1)").arg(*needed);
    return out;
}

} // namespace

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent), m_mode(new QComboBox(this)), m_rulesLeft(new QComboBox(this)),
      m_rulesRight(new QComboBox(this)), m_back(new QComboBox(this)),
      m_backRight(new QComboBox(this)), m_summary(new QLabel(this)),
      m_left(new QPlainTextEdit(this)), m_right(new QPlainTextEdit(this)),
      m_changes(new StringTableModel({tr("What"), tr("Left"), tr("Right")}, this)) {
    m_mode->addItem(tr("Two rule sets"), int(Mode::Rules));
    m_mode->addItem(tr("Earlier in the history"), int(Mode::PreviousAnalysis));
    m_mode->addItem(tr("Another file"), int(Mode::OtherFile));
    m_chooseFile = new QPushButton(tr("Choose File…"), this);
    m_chooseFile->setToolTip(tr("The script to compare the current one with (on the right)"));
    m_fileLabel = new QLabel(this);
    connect(m_chooseFile, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Compare With"), m_otherPath,
                                                          tr("Scripts (*.py *.tc);;All files (*)"));
        if (!path.isEmpty())
            setOtherFile(path);
    });
    m_back->setToolTip(tr("The point of the script's history on the left"));
    m_backRight->setToolTip(tr("The point of the script's history on the right"));
    m_mode->setToolTip(tr("Compare the script under two rule sets, two points of its history, "
                          "or the script with another file"));
    for (QComboBox* rules : {m_rulesLeft, m_rulesRight})
        for (BoundRules r :
             {BoundRules::Tvm05, BoundRules::Tvm, BoundRules::Tight, BoundRules::Compact})
            rules->addItem(QString::fromLatin1(boundRulesName(r)), int(r));
    setRules(BoundRules::Tvm05, BoundRules::Tvm);
    m_summary->setWordWrap(true);
    for (QPlainTextEdit* view : {m_left, m_right}) {
        view->setReadOnly(true);
        view->setLineWrapMode(QPlainTextEdit::NoWrap);
        view->setFont(codeFont());
        new IrHighlighter(view->document());
    }
    // The two columns scroll together: their lines are aligned.
    connect(m_left->verticalScrollBar(), &QScrollBar::valueChanged, m_right->verticalScrollBar(),
            &QScrollBar::setValue);
    connect(m_right->verticalScrollBar(), &QScrollBar::valueChanged, m_left->verticalScrollBar(),
            &QScrollBar::setValue);
    m_changesView = createTableView(m_changes, this);
    m_changesView->setEmptyText(tr("The bounds and the allocations are the same on both sides."));
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_mode);
    controls->addWidget(m_rulesLeft);
    auto* rulesAgainst = new QLabel(tr("against"), this);
    controls->addWidget(rulesAgainst);
    controls->addWidget(m_rulesRight);
    controls->addWidget(m_back);
    m_backAgainst = new QLabel(tr("against"), this);
    controls->addWidget(m_backAgainst);
    controls->addWidget(m_backRight);
    controls->addWidget(m_chooseFile);
    controls->addWidget(m_fileLabel);
    controls->addStretch(1);
    auto* columns = new QSplitter(Qt::Horizontal, this);
    columns->addWidget(m_left);
    columns->addWidget(m_right);
    auto* rows = new QSplitter(Qt::Vertical, this);
    rows->addWidget(columns);
    rows->addWidget(m_changesView);
    rows->setStretchFactor(0, 3);
    rows->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_summary);
    layout->addWidget(rows, 1);
    const auto changed = [this, rulesAgainst] {
        const bool rulesMode = mode() == Mode::Rules;
        rulesAgainst->setVisible(rulesMode);
        m_rulesLeft->setVisible(rulesMode);
        m_rulesRight->setVisible(rulesMode);
        m_backRight->setVisible(mode() == Mode::PreviousAnalysis);
        m_back->setVisible(mode() == Mode::PreviousAnalysis);
        m_backAgainst->setVisible(mode() == Mode::PreviousAnalysis);
        m_chooseFile->setVisible(mode() == Mode::OtherFile);
        m_fileLabel->setVisible(mode() == Mode::OtherFile);
        m_stale = true;
        if (isVisible())
            recompute();
    };
    connect(m_mode, &QComboBox::currentIndexChanged, this, changed);
    connect(m_rulesLeft, &QComboBox::currentIndexChanged, this, changed);
    connect(m_rulesRight, &QComboBox::currentIndexChanged, this, changed);
    connect(m_back, &QComboBox::activated, this, changed);
    connect(m_backRight, &QComboBox::activated, this, changed);
    changed();
    updateBackChoices();
    clear(tr("No analysis yet."));
}

void ComparePanel::setAnalysis(std::shared_ptr<const Analysis> analysis) {
    // A re-analysis of the same program (another rule set) is not a change of the script.
    if (m_analysis && m_analysis->lowered && analysis &&
        !analysis->program.schedule.same_as(m_analysis->program.schedule)) {
        m_history.insert(m_history.begin(), m_analysis);
        if (m_history.size() > size_t(kHistory))
            m_history.pop_back();
        updateBackChoices();
    }
    m_analysis = std::move(analysis);
    m_stale = true;
    if (isVisible())
        recompute();
}

namespace {

/// The name of a point of the history: 0 is now.
QString pointName(int back) {
    return back == 0   ? ComparePanel::tr("now")
           : back == 1 ? ComparePanel::tr("before the latest change")
                       : ComparePanel::tr("%1 changes back").arg(back);
}

} // namespace

void ComparePanel::updateBackChoices() {
    const int chosen = std::max(1, m_back->currentData().toInt());
    const int chosenRight = std::max(0, m_backRight->currentData().toInt());
    m_back->clear();
    m_backRight->clear();
    m_backRight->addItem(pointName(0), 0);
    for (int back = 1; back <= int(m_history.size()); ++back) {
        m_back->addItem(pointName(back), back);
        m_backRight->addItem(pointName(back), back);
    }
    if (m_history.empty())
        m_back->addItem(tr("no earlier analysis yet"), 0);
    m_back->setCurrentIndex(std::max(0, m_back->findData(std::min(chosen, int(m_history.size())))));
    m_backRight->setCurrentIndex(
        std::max(0, m_backRight->findData(std::min(chosenRight, int(m_history.size())))));
}

void ComparePanel::clearHistory() {
    m_history.clear();
    m_analysis.reset(); // the next analysis is of the new text, not a change of this one
    updateBackChoices();
    m_stale = true;
}

void ComparePanel::setChangesBack(int changes) {
    const int index = m_back->findData(changes);
    if (index < 0 || index == m_back->currentIndex())
        return;
    m_back->setCurrentIndex(index);
    m_stale = true;
    if (isVisible())
        recompute();
}

void ComparePanel::setRightChangesBack(int changes) {
    const int index = m_backRight->findData(changes);
    if (index < 0 || index == m_backRight->currentIndex())
        return;
    m_backRight->setCurrentIndex(index);
    m_stale = true;
    if (isVisible())
        recompute();
}

bool ComparePanel::setOtherFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_otherPath.clear();
        m_otherSource.clear();
        m_fileLabel->clear();
        clear(tr("Cannot compare with %1: %2").arg(path, file.errorString()));
        return false;
    }
    m_otherPath = path;
    m_otherSource = file.readAll().toStdString();
    m_fileLabel->setText(QFileInfo(path).fileName());
    m_fileLabel->setToolTip(path);
    m_stale = true;
    if (isVisible())
        recompute();
    return true;
}

void ComparePanel::compareWithOther(const AnalysisOutcome& outcome) {
    if (mode() != Mode::OtherFile || !m_analysis)
        return;
    const std::string name = QFileInfo(m_otherPath).fileName().toStdString();
    if (!outcome.analysis || !outcome.analysis->lowered) {
        const std::string why = outcome.error ? outcome.error->toString()
                                : outcome.analysis && outcome.analysis->error
                                    ? outcome.analysis->error->message
                                    : std::string("it defines no schedule");
        clear(tr("Cannot compare with %1: %2")
                  .arg(QString::fromStdString(name), QString::fromStdString(why)));
        Q_EMIT diffShown();
        return;
    }
    m_jobs.start<AnalysisDiff>(
        [current = m_analysis, other = outcome.analysis, name] {
            const auto reportA = reportOf(*current);
            const auto reportB = reportOf(*other);
            return diffAnalyses(*current, *other, "this script", name,
                                reportA ? &*reportA : nullptr, reportB ? &*reportB : nullptr);
        },
        [this](JobOutcome<AnalysisDiff> diff) { display(std::move(diff)); });
}

void ComparePanel::setMode(Mode mode) { m_mode->setCurrentIndex(m_mode->findData(int(mode))); }

ComparePanel::Mode ComparePanel::mode() const { return Mode(m_mode->currentData().toInt()); }

void ComparePanel::setRules(BoundRules left, BoundRules right) {
    m_rulesLeft->setCurrentIndex(m_rulesLeft->findData(int(left)));
    m_rulesRight->setCurrentIndex(m_rulesRight->findData(int(right)));
}

void ComparePanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_stale)
        recompute();
}

void ComparePanel::setInSight(bool inSight) {
    if (inSight == m_inSight)
        return;
    m_inSight = inSight;
    // The graphs mark changes only while the diff is in sight.
    Q_EMIT changesFound(inSight && m_diff ? changedObjectsOf(*m_diff) : ChangedObjects());
}

void ComparePanel::clear(const QString& summary) {
    m_jobs.discard();
    if (m_diff && m_inSight)
        Q_EMIT changesFound({});
    m_diff.reset();
    m_summary->setText(summary);
    m_left->clear();
    m_right->clear();
    m_changes->setRows({});
}

void ComparePanel::recompute() {
    m_stale = false;
    if (!m_analysis || !m_analysis->lowered)
        return clear(tr("Nothing to compare: the script has no lowered program."));
    std::shared_ptr<const Analysis> current = m_analysis;
    if (mode() == Mode::OtherFile) {
        if (m_otherPath.isEmpty())
            return clear(tr("Choose a file to compare the current script with: it appears on "
                            "the right, under the current rules."));
        clear(tr("Running %1…").arg(QFileInfo(m_otherPath).fileName()));
        if (!m_otherRunner) {
            m_otherRunner = new AnalysisRunner(this);
            connect(m_otherRunner, &AnalysisRunner::finished, this,
                    &ComparePanel::compareWithOther);
        }
        AnalysisRequest request;
        request.source = m_otherSource;
        request.fileName = m_otherPath.toStdString();
        request.options = current->options;
        m_otherRunner->start(std::move(request));
        return;
    }
    if (mode() == Mode::PreviousAnalysis) {
        if (m_history.empty())
            return clear(tr("Nothing to compare yet: change the script (type, or make a schedule "
                            "edit), and the analysis before the change appears on the left."));
        const int back = std::clamp(m_back->currentData().toInt(), 1, int(m_history.size()));
        const int backRight =
            std::clamp(m_backRight->currentData().toInt(), 0, int(m_history.size()));
        if (back == backRight)
            return clear(tr("Both sides are the same point of the history (%1): choose another "
                            "for one of them.")
                             .arg(pointName(back)));
        const std::string label = pointName(back).toStdString();
        const std::string labelRight = pointName(backRight).toStdString();
        clear(tr("Comparing %1 with %2…")
                  .arg(QString::fromStdString(label), QString::fromStdString(labelRight)));
        m_jobs.start<AnalysisDiff>(
            [before = m_history[size_t(back - 1)],
             after = backRight == 0 ? current : m_history[size_t(backRight - 1)], current, label,
             labelRight] {
                // Both points under the current rules: only the script's changes show.
                const auto underCurrentRules = [&current](std::shared_ptr<const Analysis> point,
                                                          const std::string& name) {
                    if (point->options.rules != current->options.rules)
                        point = std::make_shared<const Analysis>(
                            analyze(point->program, current->options));
                    if (!point->lowered)
                        throw UserError("the script " + name + " does not lower under " +
                                        std::string(boundRulesName(current->options.rules)));
                    return point;
                };
                const std::shared_ptr<const Analysis> a = underCurrentRules(before, label);
                const std::shared_ptr<const Analysis> b = underCurrentRules(after, labelRight);
                const auto reportA = reportOf(*a);
                const auto reportB = reportOf(*b);
                return diffAnalyses(*a, *b, label, labelRight, reportA ? &*reportA : nullptr,
                                    reportB ? &*reportB : nullptr);
            },
            [this](JobOutcome<AnalysisDiff> outcome) { display(std::move(outcome)); });
        return;
    }
    const BoundRules left = BoundRules(m_rulesLeft->currentData().toInt());
    const BoundRules right = BoundRules(m_rulesRight->currentData().toInt());
    clear(tr("Analysing under %1 and %2…")
              .arg(QString::fromLatin1(boundRulesName(left)),
                   QString::fromLatin1(boundRulesName(right))));
    m_jobs.start<AnalysisDiff>(
        [current, left, right] {
            // The side under the current rules is the current analysis.
            const auto under = [&current](BoundRules rules) {
                return rules == current->options.rules
                           ? current
                           : std::make_shared<const Analysis>(analyze(
                                 current->program,
                                 AnalysisOptions{rules, current->options.keepTrivialLoops}));
            };
            const std::shared_ptr<const Analysis> a = under(left);
            const std::shared_ptr<const Analysis> b = under(right);
            if (!a->lowered || !b->lowered)
                throw UserError((a->lowered ? b : a)->error ? (a->lowered ? b : a)->error->message
                                                            : std::string("it does not lower"));
            // One program: one report covers both rule sets.
            const auto report = reportOf(*a);
            return diffAnalyses(*a, *b, boundRulesName(left), boundRulesName(right),
                                report ? &*report : nullptr, report ? &*report : nullptr);
        },
        [this](JobOutcome<AnalysisDiff> outcome) { display(std::move(outcome)); });
}

void ComparePanel::display(JobOutcome<AnalysisDiff> outcome) {
    if (!outcome.value) {
        clear(tr("Cannot compare: %1").arg(outcome.error));
        Q_EMIT diffShown();
        return;
    }
    m_diff = std::make_shared<const AnalysisDiff>(std::move(*outcome.value));
    const AnalysisDiff& diff = *m_diff;
    showSide(m_left, diff.ir, true);
    showSide(m_right, diff.ir, false);
    int differ = 0;
    for (const LinePair& pair : diff.ir)
        differ += pair.mark != DiffMark::Same;
    QList<TableRow> rows;
    for (const BoundsPair& pair : diff.bounds) {
        if (!pair.changed())
            continue;
        TableRow row;
        row.cells = {QString::fromStdString(pair.stage + "." + pair.name + " (" + pair.role + ")"),
                     optionalText(pair.a), optionalText(pair.b)};
        row.stage = QString::fromStdString(pair.stage);
        rows << row;
    }
    for (const AllocationPair& pair : diff.allocations) {
        if (!pair.changed())
            continue;
        TableRow row;
        row.cells = {tr("allocate %1").arg(QString::fromStdString(pair.buffer)),
                     allocationText(pair.a, pair.neededA), allocationText(pair.b, pair.neededB)};
        row.stage = QString::fromStdString(pair.buffer);
        rows << row;
    }
    m_changes->setRows(rows);
    m_summary->setText(
        tr("Left: %1. Right: %2. Lowered IR: %3 of %4 lines differ; %5 bounds "
           "and allocations differ.")
            .arg(QString::fromStdString(diff.labelA), QString::fromStdString(diff.labelB))
            .arg(differ)
            .arg(diff.ir.size())
            .arg(rows.size()));
    if (m_inSight)
        Q_EMIT changesFound(changedObjectsOf(diff));
    Q_EMIT diffShown();
}

QString ComparePanel::summaryText() const { return m_summary->text(); }

} // namespace bs::gui
