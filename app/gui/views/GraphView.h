/// \file
/// The view of a GraphScene: zoom with the wheel (around the cursor), pan by dragging the
/// background, fit the graph (automatically on new graphs and resizes until the user zooms),
/// and scroll the selection (or what the current step touches) into view. A fit never makes
/// the text smaller than the app's own (legibleZoom()): a graph too big for the view is shown
/// at that zoom around the selection, with scroll bars. Zoomed out further by hand, the nodes
/// show their names only, still at the app's text size (GraphNodeItem::drawsNameOnly). The
/// arrow keys move the selection from node to node.
#pragma once

#include <QGraphicsView>

namespace bs::gui {

class GraphScene;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(GraphScene* scene, QWidget* parent = nullptr);

    GraphScene* graphScene() const { return m_scene; }
    /// The Fit button: the whole graph when its text stays legible (legibleZoom() at least,
    /// never enlarged beyond 125% or that zoom), else that zoom centred on the selection (or
    /// the top of the graph); resumes fitting automatically.
    void fitGraph();
    /// The automatic fit: as fitGraph(), but what the current step touches when it marks
    /// something (followStep) comes first; resumes fitting automatically.
    void fitLegibly();
    /// After the current step changed: while fitting automatically, shows what the step
    /// touches at a legible zoom (the automatic fit follows the step); else reveals it.
    void followStep();
    void zoomIn() { zoomBy(1.25); }
    void zoomOut() { zoomBy(1 / 1.25); }
    /// Centres the nodes the current step touches, else the selected ones, if they are outside
    /// the visible area (GraphScene::focusRect).
    void revealSelection();
    qreal zoom() const { return transform().m11(); }

protected:
    void wheelEvent(QWheelEvent* event) override;
    /// The arrow keys move the selection to the nearest node that way.
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    enum class Fit { Legible, Whole, None };

    void zoomBy(qreal factor);
    void onGraphChanged();
    void applyFit();

    GraphScene* m_scene;
    /// How to fit on resize and on new graphs (None once the user zooms by hand).
    Fit m_fit = Fit::Legible;
};

} // namespace bs::gui
