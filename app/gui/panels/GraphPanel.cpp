#include "panels/GraphPanel.h"

#include "document/Exporter.h"
#include "document/GraphLayouter.h"
#include "models/GraphModels.h"
#include "views/GraphScene.h"
#include "views/GraphView.h"
#include "views/Theme.h"
#include "viz/CollapseChains.h"
#include "viz/Dot.h"
#include "viz/GraphExport.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace bs::gui {

GraphPanel::GraphPanel(viz::GraphKind kind, QWidget* parent)
    : QWidget(parent), m_kind(kind), m_scene(new GraphScene(this)),
      m_view(new GraphView(m_scene, this)), m_layouter(new GraphLayouter(this)),
      m_caption(new QLabel(this)) {
    setObjectName(QStringLiteral("graphPanel_") + QString::fromLatin1(viz::graphKindName(kind)));
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setWordWrap(true);
    theme::useCaptionInk(m_caption);
    auto button = [this](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        return b;
    };
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 2, 2);
    bar->addWidget(m_caption, 1);
    if (kind == viz::GraphKind::StageDag) {
        m_collapseButton = button(tr("Collapse"),
                                  tr("Draw each long chain of stages as one node "
                                     "again (click one to expand it)"),
                                  [this] { collapseChains(); });
        bar->addWidget(m_collapseButton);
    }
    bar->addWidget(button(tr("Fit"), tr("Show the whole graph at a readable size"),
                          [this] { m_view->fitGraph(); }));
    bar->addWidget(button(tr("+"), tr("Zoom in"), [this] { m_view->zoomIn(); }));
    bar->addWidget(button(tr("−"), tr("Zoom out"), [this] { m_view->zoomOut(); }));
    bar->addWidget(button(tr("Export…"), tr("Save this graph as DOT, SVG or PNG"),
                          [this] { Q_EMIT exportRequested(); }));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_layouter, &GraphLayouter::laidOut, this, &GraphPanel::onLaidOut);
    connect(m_layouter, &GraphLayouter::failed, this, &GraphPanel::onLayoutFailed);
    connect(m_scene, &GraphScene::contextMenuRequested, this, &GraphPanel::contextMenuRequested);
    connect(m_scene, &GraphScene::objectActivated, this, [this](const viz::ObjectRef& ref) {
        if (!m_analysis)
            return;
        const ObjectNames names = objectNamesOf(*m_analysis, ref);
        if (!names.stage.isEmpty())
            Q_EMIT objectChosen(names.stage, names.iterVar);
    });
    connect(m_scene, &GraphScene::chainActivated, this, &GraphPanel::expandChain);
    connect(m_scene, &GraphScene::dragFeedback, this, &GraphPanel::dragFeedback);
    connect(m_scene, &GraphScene::dropped, this,
            [this](const viz::ObjectRef& source, const DropSite& site) {
                if (const std::optional<GraphDrop> drop = dropOf(source, site))
                    Q_EMIT dropRequested(*drop);
            });
    showMessage(tr("No analysis yet."));
}

void GraphPanel::setDropHandler(DropHandler handler) {
    m_dropHandler = std::move(handler);
    if (!m_dropHandler) {
        m_scene->setDropJudge(nullptr);
        return;
    }
    m_scene->setDropJudge([this](const viz::ObjectRef& source, const DropSite& site) {
        const std::optional<GraphDrop> drop = dropOf(source, site);
        if (!drop)
            return DropVerdict{QString(), tr("the graph is being redrawn")};
        return m_dropHandler(*drop);
    });
}

std::optional<GraphDrop> GraphPanel::dropOf(const viz::ObjectRef& source,
                                            const DropSite& site) const {
    if (!m_analysis || m_waiting)
        return std::nullopt;
    const ObjectNames from = objectNamesOf(*m_analysis, source);
    GraphDrop drop;
    drop.stage = from.stage;
    drop.iterVar = from.iterVar;
    drop.root = site.root;
    if (!site.root) {
        const ObjectNames to = objectNamesOf(*m_analysis, site.ref);
        drop.targetStage = to.stage;
        drop.targetIterVar = to.iterVar;
    }
    return drop;
}

void GraphPanel::setAnalysis(std::shared_ptr<const Analysis> analysis) {
    m_analysis = std::move(analysis);
    rebuild();
}

void GraphPanel::showSelection(const QString& stage, const QString& iterVar) {
    const QString before = graphStage();
    m_stage = stage;
    m_iterVar = iterVar;
    // The other graphs are about the selected stage; the DAG changes only to show a stage that
    // a collapsed chain of the model last built hides (also before its layout has arrived).
    const bool changed = graphStage() != before;
    if (changed &&
        (m_kind != viz::GraphKind::StageDag || m_hiddenNodes.count(stageNodeId(graphStage()))))
        rebuild();
    applySelection();
}

void GraphPanel::showStepFocus(std::optional<StepFocus> focus) {
    const QString before = graphStage();
    m_focus = std::move(focus);
    if (graphStage() != before)
        rebuild();
    applySelection();
}

void GraphPanel::showChanges(const ChangedObjects& changed) {
    if (changed == m_changed)
        return;
    m_changed = changed;
    applySelection();
}

bool GraphPanel::hasStepFocus() const {
    return m_focus && m_analysis && m_focus->isOf(m_analysis.get());
}

QString GraphPanel::graphStage() const {
    const bool followsStep = m_kind == viz::GraphKind::IterVarRelations && hasStepFocus() &&
                             !m_focus->relationStage.isEmpty();
    return followsStep ? m_focus->relationStage : m_stage;
}

void GraphPanel::applySelection() {
    m_scene->setSelectedObject(m_analysis ? objectRefOf(*m_analysis, m_stage, m_iterVar)
                                          : viz::ObjectRef{});
    const std::shared_ptr<const LaidOutGraph>& graph = m_scene->graph();
    StepMarks marks =
        graph && hasStepFocus() ? stepMarksOf(*m_analysis, *m_focus, graph->graph) : StepMarks();
    const bool marksChanged =
        marks.nodes != m_scene->stepMarks().nodes || marks.edges != m_scene->stepMarks().edges;
    m_scene->setStepMarks(std::move(marks));
    m_scene->setChangeMarks(graph && m_analysis && !m_changed.isEmpty()
                                ? changeMarksOf(*m_analysis, m_changed, graph->graph)
                                : StepMarks());
    updateCaption();
    if (marksChanged)
        m_view->followStep();
    else
        m_view->revealSelection();
}

void GraphPanel::updateCaption() {
    const std::shared_ptr<const LaidOutGraph>& graph = m_scene->graph();
    if (m_waiting || !graph)
        return;
    QString caption = QString::fromStdString(graph->graph.name);
    if (hasStepFocus())
        caption += tr("   · step %1, %2")
                       .arg(m_focus->step)
                       .arg(QString::fromLatin1(stepPhaseName(m_focus->phase)));
    if (!m_scene->changeMarks().isEmpty())
        caption += tr("   · dotted: changed in Compare");
    m_caption->setText(caption);
}

void GraphPanel::rebuild() {
    if (!m_analysis) {
        showMessage(tr("No analysis yet."));
        return;
    }
    QString message;
    std::optional<viz::Graph> graph = buildGraphOf(*m_analysis, m_kind, graphStage(), &message);
    if (!graph) {
        showMessage(message);
        return;
    }
    if (m_kind == viz::GraphKind::StageDag)
        graph = collapsedDag(*graph);
    std::string dot = viz::toDot(*graph);
    if (dot == m_requestedDot && m_scene->graph()) {
        applySelection();
        return;
    }
    m_requestedDot = std::move(dot);
    m_waiting = true;
    m_caption->setText(QString::fromStdString(graph->name) + tr("  (laying out…)"));
    m_layouter->request(std::move(*graph));
}

std::string GraphPanel::stageNodeId(const QString& stage) const {
    if (!m_analysis || stage.isEmpty())
        return std::string();
    const int index = objectRefOf(*m_analysis, stage, QString()).stage;
    return index < 0 ? std::string() : "stage" + std::to_string(index);
}

viz::Graph GraphPanel::collapsedDag(const viz::Graph& graph) {
    viz::ChainOptions options;
    options.expanded = m_expandedChains;
    viz::Graph collapsed = viz::collapseChains(graph, options);
    // What the user looks at is never inside a collapsed chain: its chain opens for good.
    for (const QString& stage : {m_stage, hasStepFocus() ? m_focus->stage : QString()}) {
        const viz::GraphNode* chain = viz::chainHolding(collapsed, stageNodeId(stage));
        if (!chain)
            continue;
        m_expandedChains.insert(chain->id);
        options.expanded = m_expandedChains;
        collapsed = viz::collapseChains(graph, options);
    }
    m_hiddenNodes.clear();
    for (const viz::GraphNode& node : collapsed.nodes)
        for (std::string& member : viz::chainMembers(node))
            m_hiddenNodes.insert(std::move(member));
    if (m_collapseButton)
        m_collapseButton->setEnabled(!m_expandedChains.empty());
    return collapsed;
}

void GraphPanel::expandChain(const QString& id) {
    m_expandedChains.insert(id.toStdString());
    rebuild();
}

void GraphPanel::collapseChains() {
    m_expandedChains.clear();
    rebuild();
}

void GraphPanel::onLaidOut(std::shared_ptr<const LaidOutGraph> graph) {
    m_waiting = false;
    m_scene->setGraph(std::move(graph));
    applySelection();
    Q_EMIT graphShown();
}

void GraphPanel::onLayoutFailed(const QString& message) {
    m_waiting = false;
    showMessage(tr("Cannot lay out the graph: %1").arg(message));
    Q_EMIT graphShown();
}

void GraphPanel::showMessage(const QString& message) {
    if (m_collapseButton)
        m_collapseButton->setEnabled(false);
    m_requestedDot.clear();
    m_waiting = false;
    m_scene->setGraph(nullptr);
    m_caption->setText(message);
}

std::shared_ptr<const LaidOutGraph> GraphPanel::shownGraph() const { return m_scene->graph(); }

QString GraphPanel::caption() const { return m_caption->text(); }

bool GraphPanel::exportTo(const QString& path, QString* errorMessage) const {
    const std::shared_ptr<const LaidOutGraph>& graph = m_scene->graph();
    if (!graph) {
        *errorMessage = tr("there is no %1 to export: %2").arg(graphKindTitle(m_kind), caption());
        return false;
    }
    const QString suffix = path.section(QLatin1Char('.'), -1).toLower();
    if (suffix != QLatin1String("dot") && suffix != QLatin1String("svg"))
        return exportScene(*m_scene, path, errorMessage);
    // DOT and SVG come from the engine, exactly as `boundscope graph` writes them.
    try {
        viz::writeGraph(graph->graph,
                        suffix == QLatin1String("dot") ? viz::GraphFormat::Dot
                                                       : viz::GraphFormat::Svg,
                        path.toStdString());
        return true;
    } catch (const UserError& e) {
        *errorMessage = QString::fromStdString(e.diagnostic().message);
    } catch (const std::exception& e) {
        *errorMessage = QString::fromStdString(e.what());
    }
    return false;
}

} // namespace bs::gui
