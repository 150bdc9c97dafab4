#include "panels/InspectorPanel.h"

#include "models/StageQueries.h"
#include "models/StringTableModel.h"
#include "models/TraceRows.h"
#include "panels/TableViews.h"
#include "views/Theme.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace bs::gui {

namespace {

QLabel* valueLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

/// `table` under a one-line rich-text title.
QWidget* titledTable(const QString& title, QWidget* table) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(new QLabel(title, box));
    layout->addWidget(table, 1);
    return box;
}

} // namespace

InspectorPanel::InspectorPanel(QWidget* parent) : QWidget(parent) {
    for (int i = 0; i < 5; ++i) {
        m_models << nullptr;
        m_views << nullptr;
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(createSummary());

    // Phase 3 and phase 4 are what a stage's bounds come from: always visible. The phase-1
    // and phase-2 sets that explain them share a tab widget.
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    HintTableView* requests = addTable(Table::Requests, requestHeaders());
    // Room for a header and two requests with their two-line reasons.
    requests->setMinimumHeight(requests->horizontalHeader()->sizeHint().height() +
                               5 * requests->verticalHeader()->defaultSectionSize());
    split->addWidget(titledTable(tr("<b>Requests of each consumer</b> (phase 3: the region "
                                    "read per output axis, and why)"),
                                 requests));
    split->addWidget(titledTable(tr("<b>Union and final range</b> (phase 4, per root axis)"),
                                 addTable(Table::Union, unionHeaders())));
    m_tabs = new QTabWidget(split);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(addTable(Table::LeafSets, leafSetHeaders()), tr("Leaf sets (phase 1)"));
    m_tabs->addTab(addTable(Table::Relax, relaxHeaders()), tr("Relaxed attach loops"));
    m_tabs->addTab(addTable(Table::RootSets, rootSetHeaders()), tr("Root sets (phase 2)"));
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    layout->addWidget(split, 1);
    refresh();
}

QWidget* InspectorPanel::createSummary() {
    auto* box = new QWidget(this);
    auto* form = new QFormLayout(box);
    form->setContentsMargins(0, 0, 0, 0);
    form->setLabelAlignment(Qt::AlignRight);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    auto* stageRow = new QWidget(box);
    auto* stageLayout = new QHBoxLayout(stageRow);
    stageLayout->setContentsMargins(0, 0, 0, 0);
    m_stageList = new QComboBox(stageRow);
    m_stageList->setMinimumContentsLength(12);
    m_stageList->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_kind = new QLabel(stageRow);
    stageLayout->addWidget(m_stageList);
    stageLayout->addWidget(m_kind, 1);
    connect(m_stageList, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (m_updating || name == m_stage)
            return;
        showStage(name);
        Q_EMIT stageChosen(name);
    });

    m_visit = valueLabel(box);
    m_attach = valueLabel(box);
    m_attachPath = valueLabel(box);
    m_scope = valueLabel(box);
    form->addRow(tr("Stage"), stageRow);
    form->addRow(tr("Visit order"), m_visit);
    form->addRow(tr("Attach point"), m_attach);
    form->addRow(tr("Attach path"), m_attachPath);
    form->addRow(tr("Scope"), m_scope);
    return box;
}

HintTableView* InspectorPanel::addTable(Table table, const QStringList& headers) {
    auto* model = new StringTableModel(headers, this);
    m_models[int(table)] = model;
    HintTableView* view = createTableView(model, this);
    m_views[int(table)] = view;
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setToolTip(QString());
    connect(view, &QTableView::clicked, this,
            [this](const QModelIndex& index) { onRowActivated(index, false); });
    // Double-clicking a consumer's row follows it to that stage.
    connect(view, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { onRowActivated(index, true); });
    return view;
}

StringTableModel* InspectorPanel::model(Table table) const { return m_models[int(table)]; }

void InspectorPanel::setAnalysis(std::shared_ptr<const Analysis> analysis) {
    m_analysis = std::move(analysis);
    m_updating = true;
    m_stageList->clear();
    if (m_analysis)
        m_stageList->addItems(stageNames(*m_analysis));
    m_updating = false;
    refresh();
}

void InspectorPanel::showStage(const QString& name) {
    m_stage = name;
    refresh();
}

void InspectorPanel::refresh() {
    m_updating = true;
    m_stageList->setCurrentIndex(m_stageList->findText(m_stage));
    m_updating = false;
    const StageTrace* trace = m_analysis ? findStageTrace(*m_analysis, m_stage) : nullptr;
    const StageSummary summary = m_analysis ? summarizeStage(*m_analysis, m_stage) : StageSummary{};
    // Without a stage, the place of its kind tells the user how to choose one.
    m_kind->setText(summary.found ? QStringLiteral("<i>%1</i>").arg(summary.kind)
                                  : tr("<span style='color:%1'>select a stage here, in the "
                                       "Stage DAG or in the Bounds table</span>")
                                        .arg(theme::captionInk().name()));
    // A schedule that fails leaves the inferred fields empty: they say why rather than nothing.
    const bool failed = m_analysis && m_analysis->error && !m_analysis->lowered;
    const QString notInferred =
        failed && summary.found
            ? tr("<span style='color:%1'>not inferred: the schedule fails</span>")
                  .arg(theme::captionInk().name())
            : QString();
    m_visit->setText(trace ? tr("%1 of %2 (InferBound visits outputs first)")
                                 .arg(summary.visitIndex + 1)
                                 .arg(summary.visitCount)
                           : notInferred);
    m_attach->setText(summary.attachPoint);
    m_attachPath->setText(trace ? summary.attachPath + tr("   (innermost first)") : notInferred);
    m_scope->setText(summary.scope.isEmpty() ? notInferred : summary.scope);
    auto rows = [&](auto build) { return trace ? build(*trace) : QList<TableRow>(); };
    const Analysis* a = m_analysis.get();
    model(Table::Requests)->setRows(rows([&](const StageTrace& t) { return requestRows(*a, t); }));
    model(Table::Union)->setRows(rows([&](const StageTrace& t) { return unionRows(t); }));
    model(Table::Relax)->setRows(rows([&](const StageTrace& t) { return relaxRows(*a, t); }));
    model(Table::LeafSets)->setRows(rows([&](const StageTrace& t) { return leafSetRows(*a, t); }));
    model(Table::RootSets)->setRows(rows([&](const StageTrace& t) { return rootSetRows(*a, t); }));
    setEmptyHints(summary);
}

void InspectorPanel::setEmptyHints(const StageSummary& summary) {
    QString why;
    if (!m_analysis)
        why = tr("No analysis yet.");
    else if (!m_analysis->lowered && m_analysis->error)
        why = failureNote(*m_analysis) + tr("; InferBound did not finish.");
    else if (!summary.found)
        why = tr("Select a stage to see how InferBound derived its bounds.");
    else if (summary.kind == QLatin1String("output"))
        why = tr("None: %1 is an output stage, so no stage consumes it and nothing requests a "
                 "region of it; its range is its own domain (the union table).")
                  .arg(m_stage);
    else if (summary.kind == QLatin1String("placeholder"))
        why = tr("None: %1 is a placeholder (an input): its shape is given, InferBound does "
                 "not bound it.")
                  .arg(m_stage);
    else if (summary.kind == QLatin1String("inlined") ||
             summary.attachPoint.startsWith(QLatin1String("inline")))
        why = tr("None: %1 is inlined into its consumers, so it has no loops or buffer of its "
                 "own to bound.")
                  .arg(m_stage);
    for (Table table : {Table::Requests, Table::LeafSets, Table::RootSets})
        view(table)->setEmptyText(why.isEmpty() ? tr("None for %1.").arg(m_stage) : why);
    if (summary.kind == QLatin1String("extern"))
        why = tr("None: %1 is an extern stage. Its body is opaque and has no loops to bound: "
                 "its outputs are realized whole, and it requests each of its inputs whole.")
                  .arg(m_stage);
    view(Table::Relax)
        ->setEmptyText(why.isEmpty()
                           ? tr("No loop of a consumer was relaxed for %1: each is at or outside "
                                "the attach point, or bound to a thread that %1's scope keeps "
                                "private.")
                                 .arg(m_stage)
                           : why);
    view(Table::Union)->setEmptyText(summary.found ? why : QString());
}

QString InspectorPanel::summaryText() const {
    return QStringList{m_visit->text(), m_attach->text(), m_attachPath->text(), m_scope->text()}
        .join(QLatin1Char('\n'));
}

void InspectorPanel::onRowActivated(const QModelIndex& index, bool jumpToStage) {
    const QString stage = index.data(StringTableModel::StageRole).toString();
    const QString iterVar = index.data(StringTableModel::IterVarRole).toString();
    if (stage.isEmpty())
        return;
    if (jumpToStage) {
        showStage(stage);
        Q_EMIT stageChosen(stage);
        return;
    }
    // A single click stays on this stage: rows about a consumer's loops would otherwise swap
    // the inspector to the consumer under the user's hand.
    if (stage == m_stage && !iterVar.isEmpty())
        Q_EMIT iterVarChosen(stage, iterVar);
}

} // namespace bs::gui
