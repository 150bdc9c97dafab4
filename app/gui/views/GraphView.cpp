#include "views/GraphView.h"

#include "views/GraphItems.h"
#include "views/GraphScene.h"

#include <QKeyEvent>
#include <QWheelEvent>

#include <cmath>

namespace bs::gui {

namespace {
constexpr qreal kMinZoom = 0.1;
constexpr qreal kMaxZoom = 4.0;
constexpr qreal kMaxFitZoom = 1.25;
/// Room around what the current step touches when the view follows it (scene points).
constexpr qreal kStepMargin = 36;
/// The zoom up to which the view closes in on what the current step touches.
constexpr qreal kStepZoom = 1.0;
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

void GraphView::keyPressEvent(QKeyEvent* event) {
    const int key = event->key();
    const bool arrow =
        key == Qt::Key_Left || key == Qt::Key_Right || key == Qt::Key_Up || key == Qt::Key_Down;
    if (arrow && event->modifiers() == Qt::NoModifier) {
        const viz::ObjectRef next = m_scene->neighbourObject(key);
        if (next.stage >= 0) {
            m_scene->objectClicked(next);
            revealSelection();
            event->accept();
            return;
        }
    }
    QGraphicsView::keyPressEvent(event);
}

void GraphView::fitGraph() {
    m_fit = Fit::Whole;
    applyFit();
}

void GraphView::fitLegibly() {
    m_fit = Fit::Legible;
    applyFit();
}

void GraphView::followStep() {
    if (m_fit == Fit::Legible)
        applyFit();
    else
        revealSelection();
}

void GraphView::applyFit() {
    const QRectF rect = m_scene->sceneRect();
    if (rect.isEmpty())
        return;
    fitInView(rect, Qt::KeepAspectRatio);
    // Small graphs are not blown up beyond a comfortable reading size.
    const qreal legible = legibleZoom();
    const qreal largest = std::max(kMaxFitZoom, legible);
    if (zoom() > largest)
        setTransform(QTransform::fromScale(largest, largest));
    QRectF marked = m_scene->markedRect();
    if (marked.isEmpty())
        marked = m_scene->problemRect();
    const qreal stepZoom = std::max(kStepZoom, legible);
    if (m_fit == Fit::Legible && !marked.isEmpty() && zoom() < stepZoom) {
        // A graph drawn smaller than its natural size follows the current step, or shows what
        // failed: what is marked, with some of its neighbourhood, up to the natural size.
        const QRectF around = marked.adjusted(-kStepMargin, -kStepMargin, kStepMargin, kStepMargin);
        const qreal fit =
            std::min(viewport()->width() / around.width(), viewport()->height() / around.height());
        const qreal target = std::max(std::min(stepZoom, fit), legible);
        if (target > zoom())
            setTransform(QTransform::fromScale(target, target));
        centerOn(marked.center());
        return;
    }
    if (zoom() >= legible) {
        centerOn(rect.center());
        return;
    }
    // Too big to read whole: readable, scrolled to the selection, else to the graph's top
    // (centring on the top edge scrolls as far up as the scene allows).
    setTransform(QTransform::fromScale(legible, legible));
    const QRectF selection = m_scene->focusRect();
    centerOn(selection.isEmpty() ? QPointF(rect.center().x(), rect.top()) : selection.center());
}

void GraphView::onGraphChanged() {
    if (m_fit != Fit::None)
        applyFit();
    else
        revealSelection();
}

void GraphView::revealSelection() {
    const QRectF selection = m_scene->focusRect();
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
