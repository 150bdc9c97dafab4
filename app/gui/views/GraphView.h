/// \file
/// The view of a GraphScene: zoom with the wheel (around the cursor), pan by dragging the
/// background, fit the whole graph (automatically on new graphs and resizes until the user
/// zooms), and scroll the selection into view.
#pragma once

#include <QGraphicsView>

namespace bs::gui {

class GraphScene;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(GraphScene* scene, QWidget* parent = nullptr);

    GraphScene* graphScene() const { return m_scene; }
    /// Shows the whole graph, never enlarged beyond 125%; resumes fitting automatically.
    void fitGraph();
    void zoomIn() { zoomBy(1.25); }
    void zoomOut() { zoomBy(1 / 1.25); }
    /// Centres the selected nodes if they are outside the visible area.
    void revealSelection();
    qreal zoom() const { return transform().m11(); }

protected:
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void zoomBy(qreal factor);
    void onGraphChanged();

    GraphScene* m_scene;
    /// Fit on resize and on new graphs until the user zooms by hand.
    bool m_autoFit = true;
};

} // namespace bs::gui
