#include "views/GraphItems.h"

#include "views/GraphScene.h"
#include "views/Theme.h"
#include "viz/Dot.h"

#include <QApplication>
#include <QCursor>
#include <QFontInfo>
#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneHoverEvent>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace bs::gui {

namespace {

// The DOT writer's table (viz/Dot.cpp): CELLPADDING 4, 1-point cell borders, Helvetica 10.
constexpr qreal kPadding = 4;
constexpr qreal kFontSize = 10;
constexpr qreal kArrowHalfWidth = 3.6;

QFont cellFont(bool bold) {
    QFont font(QStringLiteral("Helvetica"));
    font.setStyleHint(QFont::SansSerif);
    font.setPixelSize(int(kFontSize));
    font.setBold(bold);
    return font;
}

} // namespace

qreal legibleTextPixels() { return QFontInfo(QApplication::font()).pixelSize(); }

qreal legibleZoom() { return legibleTextPixels() / kFontSize; }

namespace {

QStringList linesOf(const std::string& text) {
    return QString::fromStdString(text).split(QLatin1Char('\n'));
}

/// The size a cell's text needs, padding included.
QSizeF textSize(const std::string& text, bool bold) {
    const QFontMetricsF metrics(cellFont(bold));
    qreal width = 0;
    const QStringList lines = linesOf(text);
    for (const QString& line : lines)
        width = std::max(width, metrics.horizontalAdvance(line));
    return {width + 2 * kPadding, lines.size() * metrics.lineSpacing() + 2 * kPadding};
}

QColor colorOf(const std::string& hex, const QColor& fallback) {
    const QColor color(QString::fromStdString(hex));
    return color.isValid() ? color : fallback;
}

/// `key: value` lines of a node's fields, for its tooltip.
QString fieldsText(const std::vector<viz::Field>& fields) {
    QStringList lines;
    for (const viz::Field& f : fields)
        lines << QStringLiteral("%1: %2").arg(QString::fromStdString(f.key),
                                              QString::fromStdString(f.value));
    return lines.join(QLatin1Char('\n'));
}

bool isMultiLine(const viz::LabelCell& cell) { return cell.text.find('\n') != std::string::npos; }

QFont stepLabelFont() { return cellFont(false); }

QSizeF stepLabelSize(const QString& text) {
    const QFontMetricsF metrics(stepLabelFont());
    qreal width = 0;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString& line : lines)
        width = std::max(width, metrics.horizontalAdvance(line));
    return {width + 8, lines.size() * metrics.lineSpacing() + 4};
}

/// A value the current step sets, boxed in the step colours.
void paintStepLabel(QPainter* painter, const QRectF& rect, const QString& text) {
    painter->setPen(QPen(GraphPalette::step(), 1.2));
    painter->setBrush(QColor(0xee, 0xf5, 0xff));
    painter->drawRoundedRect(rect, 3, 3);
    painter->setFont(stepLabelFont());
    painter->setPen(QColor(0x0d, 0x3c, 0x78));
    painter->drawText(rect, Qt::AlignCenter, text);
}

} // namespace

QString wrapValue(const QString& text, int width) {
    if (text.size() <= width)
        return text;
    // Break after the commas that separate the outermost bracket's elements.
    QStringList parts;
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'(' || c == u'[')
            ++depth;
        else if (c == u')' || c == u']')
            --depth;
        else if (c == u',' && depth == 1 && i + 1 < text.size() && text[i + 1] == u' ') {
            parts << text.mid(start, i + 1 - start);
            start = i + 2;
        }
    }
    parts << text.mid(start);
    return parts.join(QStringLiteral("\n "));
}

QColor GraphPalette::accent() { return QColor(0xe0, 0x7b, 0x00); }
QColor GraphPalette::highlight() { return QColor(0xc0, 0x39, 0x2b); }
QColor GraphPalette::highlightFill() { return QColor(0xf9, 0xe7, 0x9f); }
QColor GraphPalette::step() { return QColor(0x1e, 0x6b, 0xc8); }
QColor GraphPalette::stepFill() { return QColor(0xd4, 0xe4, 0xfa); }
QColor GraphPalette::problem() { return QColor(0xe0, 0x00, 0x1b); }
QColor GraphPalette::problemFill() { return QColor(0xfa, 0xdb, 0xd8); }
QColor GraphPalette::changed() { return QColor(0xa1, 0x1b, 0x8c); }
QColor GraphPalette::changedFill() { return QColor(0xf5, 0xd7, 0xef); }
QColor GraphPalette::ink() { return QColor(0x22, 0x22, 0x22); }

GraphNodeItem::GraphNodeItem(const viz::GraphNode& node, const viz::Box& box)
    : m_node(node), m_box(box.x, box.y, box.width, box.height) {
    setAcceptHoverEvents(true);
    setCursor(Qt::PointingHandCursor);
    setToolTip(fieldsText(node.fields));
    setZValue(1);
    layoutTable();
}

void GraphNodeItem::layoutTable() {
    if (m_node.rows.empty())
        return;
    int columns = 1;
    for (const viz::LabelRow& row : m_node.rows)
        columns = std::max(columns, int(row.cells.size()));
    // Natural column widths from the cells that span one column; a short row's last cell
    // spans the rest (as the DOT writer's COLSPAN does) and widens the last column if needed.
    QList<qreal> widths(columns, 0);
    QList<qreal> heights;
    for (const viz::LabelRow& row : m_node.rows) {
        qreal height = 0;
        for (int c = 0; c < int(row.cells.size()); ++c) {
            const QSizeF size = textSize(row.cells[c].text, row.cells[c].bold);
            height = std::max(height, size.height());
            if (c + 1 < int(row.cells.size()) || int(row.cells.size()) == columns)
                widths[c] = std::max(widths[c], size.width());
        }
        heights << std::max(height, textSize(" ", false).height());
    }
    auto total = [](const QList<qreal>& values) {
        return std::accumulate(values.begin(), values.end(), qreal(0));
    };
    for (const viz::LabelRow& row : m_node.rows) {
        const int last = int(row.cells.size()) - 1;
        if (last < 0 || last + 1 == columns)
            continue;
        const qreal spanned = total(widths.mid(last));
        widths[columns - 1] +=
            std::max<qreal>(0, textSize(row.cells[last].text, false).width() - spanned);
    }
    const QSizeF title = m_node.title.empty() ? QSizeF(0, 0) : textSize(m_node.title, true);
    widths[columns - 1] += std::max<qreal>(0, title.width() - total(widths));
    const qreal naturalWidth = total(widths);
    const qreal naturalHeight = title.height() + total(heights);

    // Shrink to fit Graphviz's box when our fonts are wider than its estimate, then stretch
    // columns and rows evenly to fill it.
    m_scale = std::min({qreal(1), m_box.width() / naturalWidth, m_box.height() / naturalHeight});
    const qreal extraWidth = (m_box.width() / m_scale - naturalWidth) / columns;
    const qreal extraHeight = (m_box.height() / m_scale - naturalHeight) /
                              (m_node.rows.size() + (title.isEmpty() ? 0 : 1));
    for (qreal& w : widths)
        w += extraWidth;
    qreal y = 0;
    if (!title.isEmpty()) {
        m_titleRect = QRectF(0, 0, total(widths), title.height() + extraHeight);
        y = m_titleRect.bottom();
    }
    for (int r = 0; r < int(m_node.rows.size()); ++r) {
        const viz::LabelRow& row = m_node.rows[r];
        const qreal height = heights[r] + extraHeight;
        QList<Cell> cells;
        qreal x = 0;
        for (int c = 0; c < int(row.cells.size()); ++c) {
            const bool spans = c + 1 == int(row.cells.size());
            const qreal width = spans ? total(widths) - x : widths[c];
            cells << Cell{QRectF(x, y, width, height), &row.cells[c]};
            x += width;
        }
        m_rowRects << QRectF(0, y, total(widths), height);
        m_cells << cells;
        y += height;
    }
}

QRectF GraphNodeItem::boundingRect() const {
    const qreal margin = m_node.problem || m_changeMarked ? 6 : 3;
    const QRectF box = m_box.adjusted(-margin, -margin, margin, margin);
    return m_stepLabel.isEmpty() ? box : box | stepLabelRect();
}

QRectF GraphNodeItem::stepLabelRect() const {
    const QSizeF size = stepLabelSize(m_stepLabel);
    return QRectF(QPointF(m_box.center().x() - size.width() / 2, m_box.bottom() + 3), size);
}

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->setRenderHint(QPainter::Antialiasing);
    const qreal lod =
        QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
    if (drawsNameOnly(lod))
        paintNameOnly(painter, lod);
    else if (m_node.rows.empty())
        paintPlain(painter);
    else
        paintTable(painter);
    paintStepMark(painter);
    if (m_changeMarked) { // outside the selection too, dotted where a failure is dashed
        painter->setPen(QPen(GraphPalette::changed(), 2.5, Qt::DotLine));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(m_box.adjusted(-4.5, -4.5, 4.5, 4.5));
    }
    // What failed is drawn outside the selection and the attach-path highlight, so all show.
    if (m_node.problem) {
        painter->setPen(QPen(GraphPalette::problem(), 3, Qt::DashLine));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(m_box.adjusted(-4.5, -4.5, 4.5, 4.5));
    }
    if (!m_selected && !m_node.highlighted)
        return;
    // The selection is drawn around the viz highlight, so a selected stage on a highlighted
    // attach path shows both.
    const qreal inset = m_selected ? -2 : 0;
    painter->setPen(QPen(m_selected ? GraphPalette::accent() : GraphPalette::highlight(), 3));
    painter->setBrush(Qt::NoBrush);
    if (m_node.kind == viz::GraphNodeKind::Root)
        painter->drawEllipse(m_box.adjusted(inset, inset, -inset, -inset));
    else
        painter->drawRect(m_box.adjusted(inset, inset, -inset, -inset));
}

void GraphNodeItem::paintPlain(QPainter* painter) {
    const QColor fill(viz::styleFill(m_node.style));
    painter->setBrush(m_hoverRow == -1 ? fill.darker(106) : fill);
    painter->setPen(QPen(GraphPalette::ink(), 1));
    if (m_node.kind == viz::GraphNodeKind::Root)
        painter->drawEllipse(m_box.adjusted(0.5, 0.5, -0.5, -0.5));
    else
        painter->drawRoundedRect(m_box.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    painter->setFont(cellFont(false));
    painter->setPen(GraphPalette::ink());
    painter->drawText(m_box, Qt::AlignCenter, QString::fromStdString(m_node.title));
}

QString GraphNodeItem::shortName() const {
    return QString::fromStdString(m_node.title.substr(0, m_node.title.find('\n')));
}

void GraphNodeItem::paintNameOnly(QPainter* painter, qreal lod) {
    const QColor fill(viz::styleFill(m_node.style));
    painter->setBrush(fill);
    painter->setPen(QPen(GraphPalette::ink(), 1 / lod));
    if (m_node.kind == viz::GraphNodeKind::Root)
        painter->drawEllipse(m_box);
    else
        painter->drawRoundedRect(m_box, 4, 4);
    // The name as big on screen as the app's text; wider than the box, it is elided.
    QFont font = cellFont(true);
    font.setPixelSize(std::max(1, qRound(legibleTextPixels() / lod)));
    painter->setFont(font);
    painter->setPen(GraphPalette::ink());
    const QString name =
        QFontMetricsF(font).elidedText(shortName(), Qt::ElideRight, m_box.width() - 2 / lod);
    painter->drawText(m_box, Qt::AlignCenter, name);
}

void GraphNodeItem::paintTable(QPainter* painter) {
    painter->save();
    painter->translate(m_box.topLeft());
    painter->scale(m_scale, m_scale);
    const QColor nodeFill(viz::styleFill(m_node.style));
    const QPen grid(QColor(0x55, 0x55, 0x55), 1);
    if (!m_titleRect.isEmpty()) {
        painter->setPen(grid);
        painter->setBrush(m_hoverRow == -1 ? nodeFill.darker(106) : nodeFill);
        painter->drawRect(m_titleRect);
        painter->setFont(cellFont(true));
        painter->setPen(GraphPalette::ink());
        painter->drawText(m_titleRect, Qt::AlignCenter, QString::fromStdString(m_node.title));
    }
    for (int r = 0; r < m_cells.size(); ++r) {
        const viz::LabelRow& row = m_node.rows[r];
        const bool rowSelected = m_rowRef.stage >= 0 && row.ref == m_rowRef;
        for (const Cell& cell : m_cells[r]) {
            QColor fill = colorOf(cell.cell->fill,
                                  row.highlighted ? GraphPalette::highlightFill() : nodeFill);
            if (row.problem)
                fill = GraphPalette::problemFill();
            if (m_changedRows.contains(r))
                fill = GraphPalette::changedFill();
            if (m_stepRows.contains(r))
                fill = GraphPalette::stepFill();
            if (rowSelected)
                fill = QColor(0xff, 0xd8, 0xa8);
            if (r == m_hoverRow)
                fill = fill.darker(106);
            painter->setPen(grid);
            painter->setBrush(fill);
            painter->drawRect(cell.rect);
            painter->setFont(cellFont(cell.cell->bold));
            painter->setPen(GraphPalette::ink());
            const Qt::Alignment align = isMultiLine(*cell.cell) && !cell.cell->bold
                                            ? Qt::AlignLeft | Qt::AlignVCenter
                                            : Qt::AlignCenter;
            painter->drawText(cell.rect.adjusted(kPadding, 0, -kPadding, 0), align,
                              QString::fromStdString(cell.cell->text));
        }
    }
    painter->restore();
}

void GraphNodeItem::paintStepMark(QPainter* painter) {
    if (m_stepMarked) {
        // Inside the node's border, so the selection (drawn around it) still shows.
        painter->setPen(QPen(GraphPalette::step(), 2.5));
        painter->setBrush(Qt::NoBrush);
        const QRectF inner = m_box.adjusted(1.5, 1.5, -1.5, -1.5);
        if (m_node.kind == viz::GraphNodeKind::Root)
            painter->drawEllipse(inner);
        else
            painter->drawRect(inner);
    }
    if (!m_stepLabel.isEmpty())
        paintStepLabel(painter, stepLabelRect(), m_stepLabel);
}

void GraphNodeItem::setStepMark(bool marked, const QSet<int>& rows, const QString& label) {
    const QString wrapped = wrapValue(label);
    if (marked == m_stepMarked && rows == m_stepRows && wrapped == m_stepLabel)
        return;
    if (wrapped != m_stepLabel)
        prepareGeometryChange();
    m_stepMarked = marked;
    m_stepRows = rows;
    m_stepLabel = wrapped;
    update();
}

void GraphNodeItem::setChangeMark(bool marked, const QSet<int>& rows) {
    if (marked == m_changeMarked && rows == m_changedRows)
        return;
    if (marked != m_changeMarked)
        prepareGeometryChange();
    m_changeMarked = marked;
    m_changedRows = rows;
    update();
}

void GraphNodeItem::setSelection(bool nodeSelected, const viz::ObjectRef& rowRef) {
    if (nodeSelected == m_selected && rowRef == m_rowRef)
        return;
    m_selected = nodeSelected;
    m_rowRef = rowRef;
    setZValue(nodeSelected ? 2 : 1);
    update();
}

int GraphNodeItem::rowAt(const QPointF& pos) const {
    if (!m_box.contains(pos))
        return -2;
    const QPointF local = (pos - m_box.topLeft()) / m_scale;
    for (int r = 0; r < m_rowRects.size(); ++r) {
        if (m_rowRects[r].contains(local))
            return r;
    }
    return -1;
}

viz::ObjectRef GraphNodeItem::objectAt(const QPointF& pos) const {
    const int row = rowAt(pos);
    if (row >= 0 && m_node.rows[row].ref.stage >= 0)
        return m_node.rows[row].ref;
    return m_node.ref;
}

void GraphNodeItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event) {
    const int row = rowAt(event->pos());
    if (row != m_hoverRow) {
        m_hoverRow = row;
        update();
    }
}

void GraphNodeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*) {
    m_hoverRow = -2;
    update();
}

void GraphNodeItem::mousePressEvent(QGraphicsSceneMouseEvent* event) {
    // Accepting the press keeps the view from starting a pan on a node.
    m_dragging = false;
    event->setAccepted(event->button() == Qt::LeftButton);
}

void GraphNodeItem::mouseMoveEvent(QGraphicsSceneMouseEvent* event) {
    auto* graphScene = qobject_cast<GraphScene*>(scene());
    if (!graphScene || !(event->buttons() & Qt::LeftButton))
        return;
    if (m_dragging) {
        graphScene->dragTo(event->scenePos());
        return;
    }
    const QPoint moved = event->screenPos() - event->buttonDownScreenPos(Qt::LeftButton);
    if (moved.manhattanLength() < QApplication::startDragDistance())
        return;
    m_dragging = graphScene->beginDrag(objectAt(event->buttonDownPos(Qt::LeftButton)),
                                       event->buttonDownScenePos(Qt::LeftButton));
    if (m_dragging)
        graphScene->dragTo(event->scenePos());
}

void GraphNodeItem::mouseReleaseEvent(QGraphicsSceneMouseEvent* event) {
    auto* graphScene = qobject_cast<GraphScene*>(scene());
    if (!graphScene)
        return;
    if (m_dragging) {
        m_dragging = false;
        graphScene->endDrag(event->scenePos()); // may replace the graph, deleting this item
        return;
    }
    if (!boundingRect().contains(event->pos()))
        return;
    if (m_node.kind == viz::GraphNodeKind::Chain)
        Q_EMIT graphScene->chainActivated(QString::fromStdString(m_node.id));
    else
        graphScene->objectClicked(objectAt(event->pos()));
}

bool GraphNodeItem::sceneEvent(QEvent* event) {
    if (event->type() == QEvent::UngrabMouse && m_dragging) {
        m_dragging = false;
        if (auto* graphScene = qobject_cast<GraphScene*>(scene()))
            graphScene->cancelDrag();
    }
    return QGraphicsItem::sceneEvent(event);
}

void GraphNodeItem::contextMenuEvent(QGraphicsSceneContextMenuEvent* event) {
    if (m_dragging) { // the left button is still down: no menu in the middle of a drag
        event->accept();
        return;
    }
    auto* graphScene = qobject_cast<GraphScene*>(scene());
    const viz::ObjectRef ref = objectAt(event->pos());
    if (!graphScene || ref.stage < 0) {
        event->ignore();
        return;
    }
    graphScene->objectClicked(ref);
    Q_EMIT graphScene->contextMenuRequested(event->screenPos());
    event->accept();
}

namespace {

QPainterPath splinePath(const viz::EdgeSpline& spline) {
    QPainterPath path;
    if (spline.points.empty())
        return path;
    auto at = [](const viz::Point& p) { return QPointF(p.x, p.y); };
    path.moveTo(at(spline.points[0]));
    // Graphviz's splines are p0 followed by (c1, c2, p) triples.
    for (size_t i = 1; i + 2 < spline.points.size(); i += 3)
        path.cubicTo(at(spline.points[i]), at(spline.points[i + 1]), at(spline.points[i + 2]));
    return path;
}

/// A filled arrow head from `from` (where the curve ends) to the tip.
QPolygonF arrowHead(const QPointF& from, const QPointF& tip) {
    const QPointF d = tip - from;
    const qreal length = std::hypot(d.x(), d.y());
    if (length < 0.01)
        return {};
    const QPointF normal(-d.y() / length * kArrowHalfWidth, d.x() / length * kArrowHalfWidth);
    return QPolygonF({tip, from + normal, from - normal});
}

} // namespace

GraphEdgeItem::GraphEdgeItem(const viz::GraphEdge& edge, const viz::EdgeLayout& layout)
    : m_edge(edge) {
    QPainterPath path;
    for (const viz::EdgeSpline& spline : layout.splines) {
        path.addPath(splinePath(spline));
        if (spline.points.empty())
            continue;
        const viz::Point first = spline.points.front();
        const viz::Point last = spline.points.back();
        if (spline.arrowAtEnd)
            m_arrows << arrowHead({last.x, last.y}, {spline.arrowAtEnd->x, spline.arrowAtEnd->y});
        if (spline.arrowAtStart)
            m_arrows << arrowHead({first.x, first.y},
                                  {spline.arrowAtStart->x, spline.arrowAtStart->y});
    }
    setPath(path);
    if (layout.labelCenter && !edge.label.empty()) {
        m_hasLabel = true;
        m_labelCenter = QPointF(layout.labelCenter->x, layout.labelCenter->y);
    }
    setToolTip(QString::fromStdString(edge.label));
    setZValue(0);
}

QPen GraphEdgeItem::currentPen() const {
    if (m_stepMarked)
        return QPen(GraphPalette::step(), 2.4);
    if (m_edge.problem)
        return QPen(GraphPalette::problem(), 2.6, Qt::DashLine);
    if (m_accented)
        return QPen(GraphPalette::accent(), 2.2);
    if (m_edge.highlighted)
        return QPen(GraphPalette::highlight(), 2.2);
    // Edges run over the scene's background (the palette's Base): their colours follow it.
    switch (m_edge.style) {
    case viz::EdgeStyle::Note:
        return QPen(theme::ink(QColor(0x99, 0x99, 0x99)), 1, Qt::DashLine);
    case viz::EdgeStyle::ScanState:
        return QPen(theme::ink(QColor(0xaf, 0x60, 0x1a)), 1.4, Qt::DashLine);
    case viz::EdgeStyle::Request:
        return QPen(theme::ink(QColor(0x2c, 0x6f, 0xbb)), 1.2);
    case viz::EdgeStyle::Relation:
        return QPen(theme::ink(QColor(0x70, 0x70, 0x70)), 1);
    default:
        return QPen(theme::ink(QColor(0x44, 0x44, 0x44)), 1.2);
    }
}

void GraphEdgeItem::setAccented(bool accented) {
    if (accented == m_accented)
        return;
    m_accented = accented;
    update();
}

void GraphEdgeItem::setStepMark(bool marked, const QString& label, int side) {
    const QString wrapped = wrapValue(label);
    if (marked == m_stepMarked && wrapped == m_stepLabel && side == m_stepLabelSide)
        return;
    if (wrapped != m_stepLabel || side != m_stepLabelSide)
        prepareGeometryChange();
    m_stepMarked = marked;
    m_stepLabel = wrapped;
    m_stepLabelSide = side;
    // A labelled edge is drawn over the nodes, so its value stays legible.
    setZValue(m_stepLabel.isEmpty() ? 0 : 1.5);
    update();
}

QRectF GraphEdgeItem::stepLabelRect() const {
    const QSizeF size = stepLabelSize(m_stepLabel);
    const QPointF middle = path().pointAtPercent(0.5);
    constexpr qreal kGap = 4;
    const qreal left = m_stepLabelSide < 0   ? middle.x() - kGap - size.width()
                       : m_stepLabelSide > 0 ? middle.x() + kGap
                                             : middle.x() - size.width() / 2;
    return QRectF(QPointF(left, middle.y() - size.height() / 2), size);
}

QRectF GraphEdgeItem::boundingRect() const {
    QRectF rect = QGraphicsPathItem::boundingRect().adjusted(-4, -4, 4, 4);
    if (!m_stepLabel.isEmpty())
        rect |= stepLabelRect();
    for (const QPolygonF& arrow : m_arrows)
        rect |= arrow.boundingRect();
    if (m_hasLabel)
        rect |= QRectF(m_labelCenter - QPointF(60, 8), QSizeF(120, 16));
    return rect;
}

QPainterPath GraphEdgeItem::shape() const {
    QPainterPathStroker stroker;
    stroker.setWidth(6);
    return stroker.createStroke(path());
}

void GraphEdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->setRenderHint(QPainter::Antialiasing);
    const QPen pen = currentPen();
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path());
    painter->setPen(QPen(pen.color(), 1));
    painter->setBrush(pen.color());
    for (const QPolygonF& arrow : m_arrows)
        painter->drawPolygon(arrow);
    if (!m_stepLabel.isEmpty())
        paintStepLabel(painter, stepLabelRect(), m_stepLabel);
    if (!m_hasLabel)
        return;
    QFont font = cellFont(false);
    font.setPixelSize(9);
    painter->setFont(font);
    // Graphviz centres the label just beside the edge; a light backing keeps it legible where
    // the line runs under it.
    const QString label = QString::fromStdString(m_edge.label);
    const QRectF box = QFontMetricsF(font).boundingRect(label).adjusted(-2, 0, 2, 0);
    const QRectF at(m_labelCenter - QPointF(box.width() / 2, box.height() / 2), box.size());
    QColor backing = QApplication::palette().color(QPalette::Base);
    backing.setAlpha(220);
    painter->fillRect(at, backing);
    const bool coloured = pen.color() == GraphPalette::accent() || m_edge.problem;
    painter->setPen(theme::ink(coloured ? pen.color() : QColor(0x44, 0x44, 0x44)));
    painter->drawText(at, Qt::AlignCenter, label);
}

GraphClusterItem::GraphClusterItem(const viz::GraphCluster& cluster, const viz::Box& box)
    : m_label(QString::fromStdString(cluster.label)), m_box(box.x, box.y, box.width, box.height) {
    setZValue(-1);
}

QRectF GraphClusterItem::boundingRect() const { return m_box.adjusted(-1, -1, 1, 1); }

void GraphClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->setPen(QPen(theme::ink(QColor(0x9a, 0xa3, 0xad)), 1, Qt::DashLine));
    painter->setBrush(theme::tint(QColor(0xf7, 0xf9, 0xfb)));
    painter->drawRoundedRect(m_box, 6, 6);
    QFont font = cellFont(true);
    font.setPixelSize(11);
    painter->setFont(font);
    painter->setPen(theme::ink(QColor(0x44, 0x4c, 0x56)));
    painter->drawText(m_box.adjusted(6, 4, -6, 0), Qt::AlignHCenter | Qt::AlignTop, m_label);
}

} // namespace bs::gui
