#include "views/GraphView.h"

#include "views/GraphScene.h"

#include <QWheelEvent>

#include <cmath>

namespace bs::gui {

namespace {
constexpr qreal kMinZoom = 0.1;
constexpr qreal kMaxZoom = 4.0;
constexpr qreal kMaxFitZoom = 1.25;
} // namespace

GraphView::GraphView(GraphScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), m_scene(scene) {
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setFrameShape(QFrame::NoFrame);
    connect(scene, &GraphScene::graphChanged, this, &GraphView::onGraphChanged);
}

void GraphView::fitGraph() {
    m_fit = Fit::Whole;
    applyFit();
}

void GraphView::fitLegibly() {
    m_fit = Fit::Legible;
    applyFit();
}

void GraphView::applyFit() {
    const QRectF rect = m_scene->sceneRect();
    if (rect.isEmpty())
        return;
    fitInView(rect, Qt::KeepAspectRatio);
    // Small graphs are not blown up beyond a comfortable reading size.
    if (zoom() > kMaxFitZoom)
        setTransform(QTransform::fromScale(kMaxFitZoom, kMaxFitZoom));
    if (m_fit == Fit::Whole || zoom() >= kMinLegibleZoom) {
        centerOn(rect.center());
        return;
    }
    // Too big to read whole: readable, scrolled to the selection, else to the graph's top
    // (centring on the top edge scrolls as far up as the scene allows).
    setTransform(QTransform::fromScale(kMinLegibleZoom, kMinLegibleZoom));
    const QRectF selection = m_scene->selectionRect();
    centerOn(selection.isEmpty() ? QPointF(rect.center().x(), rect.top()) : selection.center());
}

void GraphView::onGraphChanged() {
    if (m_fit != Fit::None)
        applyFit();
    else
        revealSelection();
}

void GraphView::revealSelection() {
    const QRectF selection = m_scene->selectionRect();
    if (selection.isEmpty())
        return;
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    if (!visible.contains(selection))
        centerOn(selection.center());
}

void GraphView::zoomBy(qreal factor) {
    const qreal target = qBound(kMinZoom, zoom() * factor, kMaxZoom);
    m_fit = Fit::None;
    scale(target / zoom(), target / zoom());
}

void GraphView::wheelEvent(QWheelEvent* event) {
    const int steps = event->angleDelta().y() / 120;
    if (steps == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(1.15, steps));
    event->accept();
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (m_fit != Fit::None)
        applyFit();
}

} // namespace bs::gui
