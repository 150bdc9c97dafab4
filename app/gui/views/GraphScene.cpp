#include "views/GraphScene.h"

#include "views/GraphItems.h"
#include "views/Theme.h"

#include <QApplication>
#include <QCursor>
#include <QGraphicsLineItem>
#include <QGraphicsView>
#include <QPen>
#include <QSet>

#include <cmath>

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
    // The nodes keep their own light fills (the graph's styles, as exported); the paper under
    // them and the edges follow the palette.
    auto paper = [this] { setBackgroundBrush(QApplication::palette().color(QPalette::Base)); };
    paper();
    connect(theme::notifier(), &theme::Notifier::changed, this, paper);
}

void GraphScene::setGraph(std::shared_ptr<const LaidOutGraph> graph) {
    cancelDrag();
    clear();
    m_nodes.clear();
    m_edges.clear();
    m_stepMarks = StepMarks();
    m_changeMarks = StepMarks();
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
    m_graphRect =
        QRectF(0, 0, layout.width, layout.height).adjusted(-kMargin, -kMargin, kMargin, kMargin);
    setSceneRect(m_graphRect);
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

viz::ObjectRef GraphScene::neighbourObject(int key) const {
    if (!m_graph)
        return {};
    const QStringList selected = selectedNodeIds();
    const GraphNodeItem* from = selected.isEmpty() ? nullptr : m_nodes.value(selected.front());
    const GraphNodeItem* best = nullptr;
    qreal bestScore = 0;
    for (const viz::GraphNode& node : m_graph->graph.nodes) {
        const GraphNodeItem* item = m_nodes.value(QString::fromStdString(node.id));
        if (!item || node.ref.stage < 0 || item == from)
            continue;
        const QPointF at = item->sceneBoundingRect().center();
        qreal score = at.y() * 4 + at.x(); // no selection: the top-left node
        if (from) {
            const QPointF d = at - from->sceneBoundingRect().center();
            const bool horizontal = key == Qt::Key_Left || key == Qt::Key_Right;
            const qreal along = key == Qt::Key_Left    ? -d.x()
                                : key == Qt::Key_Right ? d.x()
                                : key == Qt::Key_Up    ? -d.y()
                                                       : d.y();
            const qreal across = std::abs(horizontal ? d.y() : d.x());
            if (along <= 1)
                continue;
            score = along + 2 * across; // nearest, and straightest in that direction
        }
        if (!best || score < bestScore) {
            best = item;
            bestScore = score;
        }
    }
    return best ? best->node().ref : viz::ObjectRef();
}

QRectF GraphScene::selectionRect() const {
    QRectF rect;
    for (const QString& id : selectedNodeIds())
        rect |= m_nodes.value(id)->sceneBoundingRect();
    return rect;
}

void GraphScene::setStepMarks(StepMarks marks) {
    m_stepMarks = std::move(marks);
    applyStepMarks();
}

void GraphScene::setChangeMarks(StepMarks marks) {
    m_changeMarks = std::move(marks);
    for (auto it = m_nodes.begin(); it != m_nodes.end(); ++it)
        it.value()->setChangeMark(m_changeMarks.nodes.contains(it.key()),
                                  m_changeMarks.rows.value(it.key()));
}

/// Which side of a marked edge its value goes: away from the hub the step's edges meet at (a
/// relation node), so the values of edges that converge on it do not cover each other.
int GraphScene::labelSide(const GraphEdgeItem* edge, const QHash<QString, int>& degree) const {
    const QString from = QString::fromStdString(edge->edge().from);
    const QString to = QString::fromStdString(edge->edge().to);
    const bool hubIsFrom = degree.value(from) > degree.value(to);
    const GraphNodeItem* hub = m_nodes.value(hubIsFrom ? from : to);
    const GraphNodeItem* other = m_nodes.value(hubIsFrom ? to : from);
    if (!hub || !other)
        return 0;
    const qreal dx =
        other->sceneBoundingRect().center().x() - hub->sceneBoundingRect().center().x();
    return std::abs(dx) < 8 ? 0 : dx < 0 ? -1 : 1;
}

void GraphScene::applyStepMarks() {
    for (auto it = m_nodes.begin(); it != m_nodes.end(); ++it)
        it.value()->setStepMark(m_stepMarks.nodes.contains(it.key()),
                                m_stepMarks.rows.value(it.key()),
                                m_stepMarks.nodeLabels.value(it.key()));
    QHash<QString, int> degree; // marked edges per node
    for (GraphEdgeItem* edge : std::as_const(m_edges)) {
        if (m_stepMarks.edges.contains(QString::fromStdString(edge->edge().id))) {
            ++degree[QString::fromStdString(edge->edge().from)];
            ++degree[QString::fromStdString(edge->edge().to)];
        }
    }
    for (GraphEdgeItem* edge : std::as_const(m_edges)) {
        const QString id = QString::fromStdString(edge->edge().id);
        edge->setStepMark(m_stepMarks.edges.contains(id), m_stepMarks.edgeLabels.value(id),
                          labelSide(edge, degree));
    }
    // The values may reach beyond the graph: keep them inside the scrollable area.
    if (m_graph)
        setSceneRect(m_graphRect | markedRect().adjusted(-kMargin, -kMargin, kMargin, kMargin));
}

QStringList GraphScene::markedNodeIds() const {
    QStringList ids;
    if (!m_graph)
        return ids;
    for (const viz::GraphNode& node : m_graph->graph.nodes) {
        const QString id = QString::fromStdString(node.id);
        if (m_stepMarks.nodes.contains(id) && m_nodes.contains(id))
            ids << id;
    }
    return ids;
}

QList<GraphEdgeItem*> GraphScene::markedEdges() const {
    QList<GraphEdgeItem*> edges;
    for (GraphEdgeItem* edge : m_edges) {
        if (edge->isStepMarked())
            edges << edge;
    }
    return edges;
}

QRectF GraphScene::markedRect() const {
    QRectF rect;
    for (const QString& id : markedNodeIds())
        rect |= m_nodes.value(id)->sceneBoundingRect();
    for (GraphEdgeItem* edge : markedEdges())
        rect |= edge->sceneBoundingRect();
    return rect;
}

QRectF GraphScene::problemRect() const {
    QRectF rect;
    for (const GraphNodeItem* node : m_nodes) {
        if (node->node().problem)
            rect |= node->sceneBoundingRect();
    }
    for (const GraphEdgeItem* edge : m_edges) {
        if (edge->edge().problem)
            rect |= edge->sceneBoundingRect();
    }
    return rect;
}

QRectF GraphScene::focusRect() const {
    const QRectF marked = markedRect();
    return marked.isEmpty() ? selectionRect() : marked;
}

void GraphScene::objectClicked(const viz::ObjectRef& ref) {
    if (ref.stage >= 0)
        Q_EMIT objectActivated(ref);
}

DropSite GraphScene::siteAt(const QPointF& scenePos) const {
    for (QGraphicsItem* item : items(scenePos)) {
        auto* node = dynamic_cast<GraphNodeItem*>(item);
        if (!node)
            continue;
        DropSite site;
        site.root = node->node().kind == viz::GraphNodeKind::Root;
        if (!site.root)
            site.ref = node->objectAt(node->mapFromScene(scenePos));
        return site;
    }
    return {};
}

bool GraphScene::beginDrag(const viz::ObjectRef& source, const QPointF& scenePos) {
    if (!m_dropJudge || source.stage < 0)
        return false;
    stopDrag(); // a drag whose end was never seen
    m_dragSource = source;
    m_dragOrigin = scenePos;
    m_dragLine = addLine(QLineF(scenePos, scenePos),
                         QPen(GraphPalette::accent(), 1.6, Qt::DashLine, Qt::RoundCap));
    m_dragLine->setZValue(10);
    dragTo(scenePos);
    return true;
}

DropVerdict GraphScene::judgeDrop(const QPointF& scenePos) const {
    const DropSite site = siteAt(scenePos);
    return site.isEmpty() ? DropVerdict() : m_dropJudge(m_dragSource, site);
}

void GraphScene::dragTo(const QPointF& scenePos) {
    if (!isDragging())
        return;
    m_dragLine->setLine(QLineF(m_dragOrigin, scenePos));
    const DropVerdict verdict = judgeDrop(scenePos);
    const Qt::CursorShape shape = !verdict.action.isEmpty()    ? Qt::DragMoveCursor
                                  : !verdict.refusal.isEmpty() ? Qt::ForbiddenCursor
                                                               : Qt::ClosedHandCursor;
    for (QGraphicsView* view : views())
        view->viewport()->setCursor(shape);
    Q_EMIT dragFeedback(!verdict.action.isEmpty() ? tr("Drop to %1").arg(verdict.action)
                        : verdict.refusal.isEmpty()
                            ? QString()
                            : tr("Cannot drop here: %1").arg(verdict.refusal));
}

void GraphScene::endDrag(const QPointF& scenePos) {
    if (!isDragging())
        return;
    const DropVerdict verdict = judgeDrop(scenePos);
    const viz::ObjectRef source = m_dragSource;
    const DropSite site = siteAt(scenePos);
    stopDrag();
    Q_EMIT dragFeedback(
        verdict.refusal.isEmpty() ? QString() : tr("Cannot drop here: %1").arg(verdict.refusal));
    if (!verdict.action.isEmpty())
        Q_EMIT dropped(source, site);
}

void GraphScene::cancelDrag() {
    if (!isDragging())
        return;
    stopDrag();
    Q_EMIT dragFeedback(QString());
}

void GraphScene::stopDrag() {
    if (!isDragging())
        return;
    delete m_dragLine;
    m_dragLine = nullptr;
    for (QGraphicsView* view : views())
        view->viewport()->setCursor(view->dragMode() == QGraphicsView::ScrollHandDrag
                                        ? Qt::OpenHandCursor
                                        : Qt::ArrowCursor);
}

} // namespace bs::gui
