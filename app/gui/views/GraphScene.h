/// \file
/// One laid-out graph of engine/viz (the stage DAG, the IterVar relations of a stage, the
/// attach tree or the consumer requests of a stage) as interactive QGraphicsItems in Graphviz's
/// coordinates (points, y down). The scene knows schedule objects only by viz::ObjectRef
/// (positions in the schedule the graph was built from); the GraphPanel translates them to and
/// from the shared selection's names.
#pragma once

#include "document/GraphLayouter.h"
#include "models/StepFocus.h"

#include <QGraphicsScene>
#include <QHash>
#include <QString>

#include <functional>

#include <memory>

namespace bs::gui {

class GraphEdgeItem;
class GraphNodeItem;

/// Where a drag in a graph ends: the object of the node or row under the pointer, or the
/// attach tree's ROOT.
struct DropSite {
    viz::ObjectRef ref;
    bool root = false;

    bool isEmpty() const { return !root && ref.stage < 0; }
};

/// A drag in a graph in the names of the shared selection: `stage` (and its loop `iterVar`
/// when a row or IterVar node was dragged) dropped on `targetStage` (and its loop
/// `targetIterVar`), or on the attach tree's ROOT.
struct GraphDrop {
    QString stage;
    QString iterVar;
    QString targetStage;
    QString targetIterVar;
    bool root = false;

    bool operator==(const GraphDrop&) const = default;
};

/// What a drop would do (`action`, e.g. "compute_at B at C.i") or why it cannot (`refusal`);
/// both empty when the drop means nothing there.
struct DropVerdict {
    QString action;
    QString refusal;
};

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);

    /// Replaces the drawing by `graph` (null: an empty scene); the selection is re-applied.
    void setGraph(std::shared_ptr<const LaidOutGraph> graph);
    /// The graph shown, or null.
    const std::shared_ptr<const LaidOutGraph>& graph() const { return m_graph; }

    /// Selects the nodes and rows showing `ref`: a stage node when `ref` names its stage, an
    /// IterVar node or row when it names that IterVar. Emits nothing.
    void setSelectedObject(const viz::ObjectRef& ref);
    const viz::ObjectRef& selectedObject() const { return m_selected; }

    /// The node item with model id `id`, or null.
    GraphNodeItem* nodeItem(const QString& id) const { return m_nodes.value(id); }
    /// The ids of the nodes drawn as selected, in model order.
    QStringList selectedNodeIds() const;
    /// The object of the nearest node from the selected one in the direction of the arrow key
    /// `key` (Qt::Key_Left, ...); with no selection, the first node. An empty ref when there
    /// is none that way.
    viz::ObjectRef neighbourObject(int key) const;
    /// The bounding rectangle of the selected nodes (empty when none).
    QRectF selectionRect() const;

    /// Draws what the Step-through's current step touches (nodes, rows, edges and the values
    /// beside them) in the step colours; cleared by setGraph. Emits nothing.
    void setStepMarks(StepMarks marks);
    const StepMarks& stepMarks() const { return m_stepMarks; }
    /// Draws what differs between the two sides of the Compare dock (nodes and rows; edges and
    /// labels are not used); cleared by setGraph. Emits nothing.
    void setChangeMarks(StepMarks marks);
    const StepMarks& changeMarks() const { return m_changeMarks; }
    /// The ids of the nodes drawn as touched by the current step, in model order.
    QStringList markedNodeIds() const;
    /// The edge items drawn as touched by the current step.
    QList<GraphEdgeItem*> markedEdges() const;
    /// The bounding rectangle of the nodes and edges (with their values) the current step
    /// marks; empty when it marks none.
    QRectF markedRect() const;
    /// The bounding rectangle of what a failed schedule's error is about (viz::markProblem);
    /// empty when the graph marks no problem.
    QRectF problemRect() const;
    /// What the view should keep in sight: the step's nodes when it marks some, else the
    /// selection (empty when neither).
    QRectF focusRect() const;

    /// Called by a node item when the user clicks it.
    void objectClicked(const viz::ObjectRef& ref);

    /// Judges drags: null (the default) means nodes cannot be dragged. The panel that knows the
    /// schedule sets one (GraphPanel::setDropJudge).
    using DropJudge = std::function<DropVerdict(const viz::ObjectRef& source, const DropSite&)>;
    void setDropJudge(DropJudge judge) { m_dropJudge = std::move(judge); }
    /// Called by a node item when the pointer pressed on `source` moved far enough: starts a
    /// drag when drags are judged here; false when not (the press stays a click).
    bool beginDrag(const viz::ObjectRef& source, const QPointF& scenePos);
    /// The drag in progress reached `scenePos`: the line follows, the verdict is shown.
    void dragTo(const QPointF& scenePos);
    /// The drag ends at `scenePos`: `dropped` when its verdict is an action.
    void endDrag(const QPointF& scenePos);
    /// The drag ends without a drop (the node lost the mouse: a popup, another window).
    void cancelDrag();
    bool isDragging() const { return m_dragLine != nullptr; }
    /// The node or row at `scenePos` (topmost node item), or an empty site.
    DropSite siteAt(const QPointF& scenePos) const;

Q_SIGNALS:
    /// The user clicked a node (or a row of one) showing `ref`.
    void objectActivated(const bs::viz::ObjectRef& ref);
    /// The user clicked the node `id` of a collapsed chain (viz/CollapseChains.h).
    void chainActivated(const QString& id);
    /// setGraph replaced the drawing.
    void graphChanged();
    /// The user asked for the context menu of the node just activated, at `screenPos`.
    void contextMenuRequested(const QPoint& screenPos);
    /// While dragging: what dropping here would do, or why not (empty: nothing).
    void dragFeedback(const QString& text);
    /// The user dropped `source` on `site`, whose verdict is an action.
    void dropped(const bs::viz::ObjectRef& source, const bs::gui::DropSite& site);

private:
    void applySelection();
    void applyStepMarks();
    int labelSide(const GraphEdgeItem* edge, const QHash<QString, int>& degree) const;

    /// Shows the verdict of the site under the pointer: the cursor and the feedback text.
    DropVerdict judgeDrop(const QPointF& scenePos) const;
    void stopDrag();

    std::shared_ptr<const LaidOutGraph> m_graph;
    DropJudge m_dropJudge;
    viz::ObjectRef m_dragSource;
    QPointF m_dragOrigin;
    QGraphicsLineItem* m_dragLine = nullptr; ///< from the dragged node to the pointer
    viz::ObjectRef m_selected;
    StepMarks m_stepMarks;
    StepMarks m_changeMarks;
    QRectF m_graphRect; ///< the graph's own area, margins included
    QHash<QString, GraphNodeItem*> m_nodes;
    QList<GraphEdgeItem*> m_edges;
};

/// Whether a node showing `node` is the selection `selected` (see setSelectedObject).
bool nodeShowsSelection(const viz::GraphNode& node, const viz::ObjectRef& selected);

} // namespace bs::gui
