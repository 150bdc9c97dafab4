/// \file
/// The QGraphicsItems of a laid-out viz::Graph (UI_ANCHORS.md section 7, option 1: read
/// Graphviz's geometry, draw real items): a node is its table label (bold title, rows of cells
/// with their fills) fitted into the box Graphviz reserved for it; an edge is Graphviz's
/// Bézier spline with its arrow head and label; a cluster is a labelled frame. Items hover,
/// show their fields as a tooltip, and report clicks to their GraphScene.
#pragma once

#include "viz/Layout.h"

#include <QGraphicsItem>
#include <QGraphicsPathItem>
#include <QSet>

namespace bs::gui {

class GraphScene;

/// The pixel size of the app's own text: what the graphs' text is never smaller than after
/// Fit (issue 17, item 7).
qreal legibleTextPixels();
/// The zoom at which the nodes' text is as big as the app's text.
qreal legibleZoom();

/// The colours every graph view shares: the selection accent, the viz highlight (attach
/// paths), what the Step-through's current step touches, what failed, what the Compare dock
/// finds changed, and the text.
struct GraphPalette {
    static QColor accent();
    static QColor highlight();
    static QColor highlightFill();
    static QColor step();
    static QColor stepFill();
    /// What a failed schedule's error is about (viz::markProblem).
    static QColor problem();
    static QColor problemFill();
    /// What differs between the two sides of the Compare dock.
    static QColor changed();
    static QColor changedFill();
    static QColor ink();
};

class GraphNodeItem : public QGraphicsItem {
public:
    GraphNodeItem(const viz::GraphNode& node, const viz::Box& box);

    const viz::GraphNode& node() const { return m_node; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// Marks the node (whole border) and the rows showing `ref` as selected.
    void setSelection(bool nodeSelected, const viz::ObjectRef& rowRef);
    bool isNodeSelected() const { return m_selected; }
    /// Marks the node (`marked`) and its `rows` as touched by the current step, with `label`
    /// (a value it sets) written under it.
    void setStepMark(bool marked, const QSet<int>& rows, const QString& label);
    bool isStepMarked() const { return m_stepMarked; }
    const QString& stepLabel() const { return m_stepLabel; }
    /// Marks the node (`marked`: a dotted border around it) and its `rows` as changed between
    /// the two sides of the Compare dock.
    void setChangeMark(bool marked, const QSet<int>& rows);
    bool isChangeMarked() const { return m_changeMarked; }
    const QSet<int>& changedRows() const { return m_changedRows; }
    /// The object shown at item position `pos`: the row's when it names one, else the node's.
    viz::ObjectRef objectAt(const QPointF& pos) const;
    /// Whether the node is drawn as its name only at level of detail `lod` (the view's zoom):
    /// below legibleZoom() (give or take rounding) its table would be too small to read, so
    /// its name is drawn at the app's text size instead.
    static bool drawsNameOnly(qreal lod) { return lod < 0.99 * legibleZoom(); }
    /// The name drawn at that level of detail: the title's first line.
    QString shortName() const;

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    /// Past the drag distance, a press becomes a drag (GraphScene::beginDrag) when the scene
    /// allows one: the object pressed is dragged onto another node or row.
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    /// Losing the mouse in a drag (a popup, another window) ends it without a drop.
    bool sceneEvent(QEvent* event) override;
    /// Selects what is under the pointer and asks for the schedule edits of it.
    void contextMenuEvent(QGraphicsSceneContextMenuEvent* event) override;

private:
    struct Cell {
        QRectF rect;
        const viz::LabelCell* cell;
    };
    /// Lays the title and rows out as a table in the node's box (`m_rowRects`, `m_cells`,
    /// `m_scale`): natural sizes from the fonts, shrunk to fit, stretched to fill.
    void layoutTable();
    void paintPlain(QPainter* painter);
    /// The node's name only, at the app's text size on screen (`lod`: the view's zoom).
    void paintNameOnly(QPainter* painter, qreal lod);
    void paintTable(QPainter* painter);
    void paintStepMark(QPainter* painter);
    int rowAt(const QPointF& pos) const;
    QRectF stepLabelRect() const;

    viz::GraphNode m_node;
    QRectF m_box;
    qreal m_scale = 1;
    QRectF m_titleRect;       ///< in table coordinates (before m_scale)
    QList<QRectF> m_rowRects; ///< per row, in table coordinates
    QList<QList<Cell>> m_cells;
    bool m_selected = false;
    viz::ObjectRef m_rowRef;
    int m_hoverRow = -2;     ///< -1: the title, -2: none
    bool m_dragging = false; ///< the press became a drag
    bool m_stepMarked = false;
    QSet<int> m_stepRows;
    QString m_stepLabel;
    bool m_changeMarked = false;
    QSet<int> m_changedRows;
};

class GraphEdgeItem : public QGraphicsPathItem {
public:
    GraphEdgeItem(const viz::GraphEdge& edge, const viz::EdgeLayout& layout);

    const viz::GraphEdge& edge() const { return m_edge; }
    /// Draws the edge in the accent colour (it touches the selected node).
    void setAccented(bool accented);
    /// Draws the edge in the step colour (the current step passes along it) with `label`, the
    /// value travelling along it, beside its middle: extending to the left (`side` < 0), to the
    /// right (> 0) or centred on it (0).
    void setStepMark(bool marked, const QString& label, int side = 0);
    bool isStepMarked() const { return m_stepMarked; }
    const QString& stepLabel() const { return m_stepLabel; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QPen currentPen() const;
    QRectF stepLabelRect() const;

    viz::GraphEdge m_edge;
    QList<QPolygonF> m_arrows;
    QPointF m_labelCenter;
    bool m_hasLabel = false;
    bool m_accented = false;
    bool m_stepMarked = false;
    QString m_stepLabel;
    int m_stepLabelSide = 0;
};

/// `text` broken into lines of about `width` characters at its top-level ", " (a long IntSet
/// `[floordiv(o, 8), floordiv(o, 8) + 1]` becomes two lines), for a label beside a node or edge.
QString wrapValue(const QString& text, int width = 32);

/// A cluster's frame and label, behind everything.
class GraphClusterItem : public QGraphicsItem {
public:
    GraphClusterItem(const viz::GraphCluster& cluster, const viz::Box& box);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString m_label;
    QRectF m_box;
};

} // namespace bs::gui
