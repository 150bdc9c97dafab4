#include "views/IrView.h"

#include "models/IrLines.h"
#include "views/TextGutter.h"
#include "views/Theme.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace bs::gui {

namespace {
const QColor kGutterBackground(0xf7, 0xf7, 0xf7);
const QColor kStepDot(0xa8, 0xb8, 0xcc);
const QColor kCurrentStepMark(0x1e, 0x6b, 0xc8);
constexpr int kGutterWidth = 10;
} // namespace

IrView::IrView(QWidget* parent)
    : QPlainTextEdit(parent), m_gutter(new TextGutter(
                                  this, [this] { return gutterWidth(); },
                                  [this](QPaintEvent* event) { paintGutter(event); })) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int IrView::gutterWidth() const { return kGutterWidth; }

void IrView::setLineSteps(QList<int> steps) {
    m_lineSteps = std::move(steps);
    m_gutter->update();
}

void IrView::setCurrentStep(int id) {
    if (id == m_currentStep)
        return;
    m_currentStep = id;
    m_gutter->update();
}

int IrView::lineAt(const QPoint& pos) const { return cursorForPosition(pos).blockNumber(); }

int IrView::stepOfNumberAt(const QPoint& pos) const {
    const QTextCursor cursor = cursorForPosition(pos);
    const int step = stepOfLine(cursor.blockNumber());
    if (step < 0)
        return -1;
    // cursorForPosition rounds to the nearest gap: the character under `pos` is the one before
    // it when `pos` lies left of the gap.
    int column = cursor.positionInBlock();
    if (pos.x() < cursorRect(cursor).center().x())
        --column;
    const QPair<int, int> span = numberSpanAt(cursor.block().text(), column);
    return span.first >= 0 && column >= span.first && column < span.second ? step : -1;
}

QString IrView::toolTipAt(const QPoint& pos) const {
    const int step = stepOfNumberAt(pos);
    return step >= 0 && m_derivation ? m_derivation(step) : QString();
}

QPoint IrView::pointAt(int line, int column) const {
    QTextCursor cursor(document()->findBlockByNumber(line));
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, column);
    const QRect left = cursorRect(cursor);
    cursor.movePosition(QTextCursor::Right);
    const QRect right = cursorRect(cursor);
    return QPoint((left.center().x() + right.center().x()) / 2, left.center().y());
}

bool IrView::viewportEvent(QEvent* event) {
    if (event->type() != QEvent::ToolTip)
        return QPlainTextEdit::viewportEvent(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString tip = toolTipAt(help->pos());
    if (!tip.isEmpty())
        QToolTip::showText(help->globalPos(), tip, viewport());
    else if (!toolTip().isEmpty())
        QToolTip::showText(help->globalPos(), toolTip(), viewport());
    else
        QToolTip::hideText();
    return true;
}

void IrView::mouseMoveEvent(QMouseEvent* event) {
    QPlainTextEdit::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return;
    const bool onNumber = stepOfNumberAt(event->position().toPoint()) >= 0;
    viewport()->setCursor(onNumber ? Qt::PointingHandCursor : Qt::IBeamCursor);
}

void IrView::mouseReleaseEvent(QMouseEvent* event) {
    QPlainTextEdit::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || textCursor().hasSelection())
        return;
    const QPoint pos = event->position().toPoint();
    int step = stepOfNumberAt(pos);
    if (step < 0 && event->modifiers().testFlag(Qt::ControlModifier))
        step = stepOfLine(lineAt(pos));
    if (step >= 0)
        Q_EMIT stepClicked(step);
}

void IrView::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    m_gutter->place();
}

void IrView::paintGutter(QPaintEvent* event) {
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), theme::tint(kGutterBackground));
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    QTextBlock block = firstVisibleBlock();
    qreal top = blockBoundingGeometry(block).translated(contentOffset()).top();
    while (block.isValid() && top <= event->rect().bottom()) {
        const qreal height = blockBoundingRect(block).height();
        const int step = stepOfLine(block.blockNumber());
        if (step >= 0 && step == m_currentStep) {
            painter.setBrush(theme::ink(kCurrentStepMark));
            painter.drawRoundedRect(QRectF(2, top + 1, 5, height - 2), 2, 2);
        } else if (step >= 0) {
            painter.setBrush(theme::ink(kStepDot));
            painter.drawEllipse(QPointF(4.5, top + height / 2), 2, 2);
        }
        top += height;
        block = block.next();
    }
}

} // namespace bs::gui
