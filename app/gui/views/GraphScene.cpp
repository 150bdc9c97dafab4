#include "views/GraphScene.h"

#include "views/GraphItems.h"

#include <QSet>

namespace bs::gui {

namespace {
constexpr qreal kMargin = 12;
} // namespace

bool nodeShowsSelection(const viz::GraphNode& node, const viz::ObjectRef& selected) {
    if (selected.stage < 0 || node.ref.stage != selected.stage)
        return false;
    switch (node.kind) {
    case viz::GraphNodeKind::Stage:
        return selected.iterVar < 0 || node.ref.iterVar < 0;
    case viz::GraphNodeKind::IterVar:
        return node.ref.iterVar == selected.iterVar;
    default:
        return false;
    }
}

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
    setBackgroundBrush(Qt::white);
}

void GraphScene::setGraph(std::shared_ptr<const LaidOutGraph> graph) {
    clear();
    m_nodes.clear();
    m_edges.clear();
    m_graph = std::move(graph);
    if (!m_graph) {
        setSceneRect(QRectF());
        Q_EMIT graphChanged();
        return;
    }
    const viz::Graph& model = m_graph->graph;
    const viz::GraphLayout& layout = m_graph->layout;
    for (size_t c = 0; c < model.clusters.size() && c < layout.clusters.size(); ++c)
        addItem(new GraphClusterItem(model.clusters[c], layout.clusters[c].box));
    // layout() returns one entry per model node and edge, in model order.
    for (size_t n = 0; n < model.nodes.size() && n < layout.nodes.size(); ++n) {
        auto* item = new GraphNodeItem(model.nodes[n], layout.nodes[n].box);
        addItem(item);
        m_nodes.insert(QString::fromStdString(model.nodes[n].id), item);
    }
    for (size_t e = 0; e < model.edges.size() && e < layout.edges.size(); ++e) {
        auto* item = new GraphEdgeItem(model.edges[e], layout.edges[e]);
        addItem(item);
        m_edges << item;
    }
    setSceneRect(
        QRectF(0, 0, layout.width, layout.height).adjusted(-kMargin, -kMargin, kMargin, kMargin));
    applySelection();
    Q_EMIT graphChanged();
}

void GraphScene::setSelectedObject(const viz::ObjectRef& ref) {
    m_selected = ref;
    applySelection();
}

void GraphScene::applySelection() {
    QSet<QString> selectedIds;
    for (auto it = m_nodes.begin(); it != m_nodes.end(); ++it) {
        const bool selected = nodeShowsSelection(it.value()->node(), m_selected);
        // Rows name IterVars: only an IterVar selection marks one.
        it.value()->setSelection(selected, m_selected.iterVar >= 0 ? m_selected : viz::ObjectRef{});
        if (selected)
            selectedIds.insert(it.key());
    }
    for (GraphEdgeItem* edge : std::as_const(m_edges))
        edge->setAccented(selectedIds.contains(QString::fromStdString(edge->edge().from)) ||
                          selectedIds.contains(QString::fromStdString(edge->edge().to)));
}

QStringList GraphScene::selectedNodeIds() const {
    QStringList ids;
    if (!m_graph)
        return ids;
    for (const viz::GraphNode& node : m_graph->graph.nodes) {
        if (nodeShowsSelection(node, m_selected))
            ids << QString::fromStdString(node.id);
    }
    return ids;
}

QRectF GraphScene::selectionRect() const {
    QRectF rect;
    for (const QString& id : selectedNodeIds())
        rect |= m_nodes.value(id)->sceneBoundingRect();
    return rect;
}

void GraphScene::objectClicked(const viz::ObjectRef& ref) {
    if (ref.stage >= 0)
        Q_EMIT objectActivated(ref);
}

} // namespace bs::gui
