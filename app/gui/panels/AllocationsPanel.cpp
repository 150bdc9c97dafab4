#include "panels/AllocationsPanel.h"

#include "models/EngineText.h"
#include "models/StageQueries.h"
#include "panels/TableViews.h"

#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace bs::gui {

namespace {

QString countText(const std::optional<int64_t>& count) {
    return count ? QString::number(*count) : QStringLiteral("?");
}

/// `vx, vy`.
std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

/// `8`, or `8*` when the size changes from one attach iteration to the next (the maximum);
/// `2x3` for 2 elements per virtual thread, one copy for each of 3 (as `boundscope alloc`).
QString allocationCell(const BufferReport& buffer, BoundRules rules, QString* toolTip) {
    const RuleAllocation* a = buffer.allocation(rules);
    if (!a)
        return QStringLiteral("—");
    *toolTip = QStringLiteral("%1: realize %2 = %3 elements")
                   .arg(QString::fromLatin1(boundRulesName(rules)), qstr(a->region), qstr(a->size));
    if (a->computed)
        *toolTip += QStringLiteral("; %1 computed in all").arg(*a->computed);
    if (a->varies)
        *toolTip += QStringLiteral("; varies between iterations, the maximum is shown");
    if (a->copies != 1)
        *toolTip +=
            QStringLiteral("; one copy for each of %1 virtual threads (%2): %3 allocated")
                .arg(countText(a->copies), qstr(joined(a->virtualThreads)), countText(a->total()));
    return qstr(a->text());
}

/// The virtual-thread copies of the tvm allocation, which the needed and touched counts go with.
const RuleAllocation* tvmCopies(const BufferReport& buffer) {
    const RuleAllocation* tvm = buffer.allocation(BoundRules::Tvm);
    return tvm && tvm->copies != 1 ? tvm : nullptr;
}

/// The line above the table: how many buffers, and why a column shows `?`.
QString summaryText(const AllocReport& report) {
    QString text = QObject::tr("%n realized buffer(s); elements per attach iteration", nullptr,
                               int(report.buffers.size()));
    if (!report.tightAvailable)
        text += QObject::tr(" (tight rules unavailable: built without ISL)");
    const bool untouched = std::any_of(report.buffers.begin(), report.buffers.end(),
                                       [](const BufferReport& b) { return !b.touchedPeak; });
    if (report.touchedSampleFactor > 0)
        text += QObject::tr(". Touched (~) comes from a sample: the program computes more than "
                            "the interpreter's budget, so it ran about 1 in %L1 of its iterations "
                            "(its outer loops thinned), and measured the buffers allocated inside "
                            "them")
                    .arg(qlonglong(std::llround(report.touchedSampleFactor)));
    else if (untouched && !report.touchedFailure.empty())
        text += QObject::tr(". Touched is ?: the interpreter stopped (tvm rules): %1")
                    .arg(QString::fromStdString(report.touchedFailure));
    else if (untouched)
        text += QObject::tr(". Touched is ? where the interpreter did not run the program: it "
                            "runs only programs whose sizes are all known, and whose work, "
                            "sampled if need be, fits its budget");
    return text;
}

} // namespace

QStringList allocationHeaders() {
    return {QStringLiteral("Buffer"), QStringLiteral("Scope"),   QStringLiteral("tvm-0.5"),
            QStringLiteral("tvm"),    QStringLiteral("tight"),   QStringLiteral("compact"),
            QStringLiteral("Needed"), QStringLiteral("Touched"), QStringLiteral("Waste"),
            QStringLiteral("Causes")};
}

QList<TableRow> allocationRows(const AllocReport& report) {
    QList<TableRow> rows;
    for (const BufferReport& buffer : report.buffers) {
        TableRow row;
        row.stage = qstr(buffer.stage);
        QString scope = qstr(buffer.scope);
        if (buffer.scopeInferred)
            scope += QStringLiteral(" (inferred)");
        row.cells << row.stage + (buffer.isOutput ? QStringLiteral(" (output)") : QString())
                  << scope;
        row.toolTips << QString() << QString();
        for (BoundRules rules :
             {BoundRules::Tvm05, BoundRules::Tvm, BoundRules::Tight, BoundRules::Compact}) {
            QString tip;
            row.cells << allocationCell(buffer, rules, &tip);
            row.toolTips << tip;
        }
        const RuleAllocation* copies = tvmCopies(buffer);
        row.cells << countText(buffer.needed) +
                         (copies && buffer.needed ? qstr(copies->copiesSuffix()) : QString());
        QString neededTip =
            buffer.perThread ? QStringLiteral("%1 per thread").arg(*buffer.perThread) : QString();
        if (copies)
            neededTip = QStringLiteral("per virtual thread, as the allocation") +
                        (neededTip.isEmpty() ? QString() : QStringLiteral("; ") + neededTip);
        if (buffer.countGivenUp)
            neededTip += (neededTip.isEmpty() ? QString() : QStringLiteral("; ")) +
                         QStringLiteral("a count is missing: counting it exactly took ISL past its "
                                        "work limit");
        row.toolTips << neededTip;
        row.cells << (buffer.touchedSampled ? QStringLiteral("~") : QString()) +
                         countText(buffer.touchedPeak);
        QString touchedTip =
            buffer.touchedTotal
                ? QStringLiteral("%1 touched over the %2")
                      .arg(*buffer.touchedTotal)
                      .arg(buffer.touchedSampled ? QStringLiteral("iterations sampled")
                           : buffer.touchedCounted
                               ? QStringLiteral("whole run, counted from the access sets (the "
                                                "program is too large to run in the interpreter)")
                               : QStringLiteral("whole run"))
                : QStringLiteral("not run in the interpreter");
        if (buffer.touchedTotal && copies)
            touchedTip += QStringLiteral(", of %1 allocated for its %2 virtual threads")
                              .arg(countText(copies->total()), countText(copies->copies));
        row.toolTips << touchedTip;
        const std::optional<double> waste = buffer.wastePercent();
        row.cells << (waste ? QStringLiteral("%1 %").arg(*waste, 0, 'f', 1) : QStringLiteral("?"));
        row.toolTips << QStringLiteral("share of the tvm allocation not needed");
        row.cells << qstr(buffer.causeNames());
        row.toolTips << allocationDetails(buffer);
        rows << row;
    }
    return rows;
}

QString allocationDetails(const BufferReport& buffer) {
    QStringList lines;
    for (const AllocCause& cause : buffer.causes) {
        QStringList rules;
        for (BoundRules r : cause.rules)
            rules << QString::fromLatin1(boundRulesName(r));
        lines << QStringLiteral("%1: %2 (%3)")
                     .arg(QString::fromLatin1(wasteCauseName(cause.kind)), qstr(cause.summary),
                          rules.join(QStringLiteral(", ")));
        if (!cause.detail.empty())
            lines << QStringLiteral("    ") + qstr(cause.detail);
        lines << QStringLiteral("    fix: ") +
                     (cause.hint.empty() ? QStringLiteral("no rectangular realize can avoid it")
                                         : qstr(cause.hint));
    }
    if (lines.isEmpty())
        lines << QStringLiteral("%1 allocates what it needs").arg(qstr(buffer.name));
    return lines.join(QLatin1Char('\n'));
}

AllocationsPanel::AllocationsPanel(QWidget* parent)
    : QWidget(parent), m_model(new StringTableModel(allocationHeaders(), this)),
      m_status(new QLabel(this)), m_details(new QPlainTextEdit(this)) {
    m_jobs.setBackground(true); // read after the graphs: they go first on few cores
    m_view = createTableView(m_model, this);
    m_view->setObjectName(QStringLiteral("allocationsTable"));
    m_status->setWordWrap(true);
    m_details->setReadOnly(true);
    m_details->setFont(m_view->font());
    m_details->setPlaceholderText(tr("Select a buffer to see the causes of its waste"));
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_view);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid())
                    return;
                const QString stage = current.data(StringTableModel::StageRole).toString();
                showDetails(stage);
                if (!m_updating)
                    Q_EMIT stageChosen(stage);
            });
}

AllocationsPanel::~AllocationsPanel() = default;

void AllocationsPanel::clearReport(const QString& status, const QString& emptyText) {
    m_jobs.discard();
    m_computing = false;
    m_schedule = Schedule();
    m_report.reset();
    m_model->setRows({});
    m_status->setText(status);
    m_view->setEmptyText(emptyText);
}

void AllocationsPanel::setAnalysis(const std::shared_ptr<const Analysis>& analysis) {
    if (!analysis || !analysis->program.defined())
        return clearReport(tr("No program"), tr("No program to allocate buffers for yet."));
    if (analysis->error && !analysis->lowered)
        return clearReport(tr("No allocation report: %1").arg(failureNote(*analysis)),
                           tr("No allocation report (see above)."));
    const Program& program = analysis->program;
    // The report covers every rule set, but its waste and its fixes are measured under the
    // rules selected: a rules change needs a new one.
    if (program.schedule.same_as(m_schedule) && analysis->options.rules == m_rules && m_report)
        return;
    m_schedule = program.schedule;
    m_rules = analysis->options.rules;
    m_computing = true;
    m_status->setText(tr("Computing the allocation report…"));
    m_view->setEmptyText(tr("Computing…"));
    const AllocReportOptions options = allocReportOptions(program, m_rules);
    // The interpreter run of a big program stops at its next cancellation point when a newer
    // analysis supersedes it.
    m_jobs.start<std::shared_ptr<const AllocReport>>(
        [schedule = program.schedule, options] {
            return std::make_shared<const AllocReport>(allocReport(schedule, options));
        },
        [this](JobOutcome<std::shared_ptr<const AllocReport>> outcome) {
            onResult(std::move(outcome));
        });
}

void AllocationsPanel::onResult(JobOutcome<std::shared_ptr<const AllocReport>> outcome) {
    m_computing = false;
    m_report = outcome.value ? *outcome.value : nullptr;
    m_updating = true;
    m_model->setRows(m_report ? allocationRows(*m_report) : QList<TableRow>());
    m_updating = false;
    if (!m_report) {
        m_schedule = Schedule(); // retried on the next analysis
        m_status->setText(tr("No allocation report: %1").arg(outcome.error));
        m_view->setEmptyText(tr("No allocation report (see above)."));
    } else {
        m_status->setText(summaryText(*m_report));
        m_view->setEmptyText(tr("The program realizes no buffer."));
    }
    m_details->clear();
    showStage(m_stage);
    Q_EMIT reportReady();
}

void AllocationsPanel::showStage(const QString& stage) {
    m_stage = stage;
    const int row = m_model->findRow(stage);
    m_updating = true;
    if (row < 0)
        m_view->clearSelection();
    else
        m_view->selectRow(row);
    m_updating = false;
    showDetails(stage);
}

void AllocationsPanel::showDetails(const QString& stage) {
    const BufferReport* buffer = m_report ? m_report->find(stage.toStdString()) : nullptr;
    m_details->setPlainText(buffer ? allocationDetails(*buffer) : QString());
}

QString AllocationsPanel::statusText() const { return m_status->text(); }

QString AllocationsPanel::detailsText() const { return m_details->toPlainText(); }

} // namespace bs::gui
