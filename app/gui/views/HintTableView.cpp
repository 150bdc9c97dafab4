#include "views/HintTableView.h"

#include "models/StringTableModel.h"

#include <QContextMenuEvent>
#include <QHeaderView>
#include <QPainter>
#include <QTimer>

#include <algorithm>

namespace bs::gui {

HintTableView::HintTableView(QWidget* parent) : QTableView(parent) {
    connect(horizontalHeader(), &QHeaderView::sectionResized, this,
            &HintTableView::onSectionResized);
}

void HintTableView::setEmptyText(const QString& text) {
    if (text == m_emptyText)
        return;
    m_emptyText = text;
    viewport()->update();
}

bool HintTableView::isShowingEmptyText() const {
    return !m_emptyText.isEmpty() && model() && model()->rowCount() == 0;
}

void HintTableView::refit() {
    m_userSizedColumns = false;
    fitLater();
}

void HintTableView::fitColumns() {
    constexpr int kPadding = 8;
    constexpr int kMinWidth = 90;
    const int columns = model() ? model()->columnCount() : 0;
    if (columns == 0)
        return;
    QList<int> natural;
    for (int c = 0; c < columns; ++c)
        natural << std::max(sizeHintForColumn(c), horizontalHeader()->sectionSizeHint(c)) +
                       kPadding;
    // The widest width `cap` such that the columns capped at it fill the view ("water
    // filling"): columns narrower than the cap keep their width.
    const int available = viewport()->width();
    QList<int> sorted = natural;
    std::sort(sorted.begin(), sorted.end());
    int cap = sorted.last();
    int used = 0;
    for (int i = 0; i < columns; ++i) {
        const int share = (available - used) / (columns - i);
        if (sorted[i] > share) {
            cap = std::max(share, kMinWidth);
            break;
        }
        used += sorted[i];
    }
    for (int c = 0; c + 1 < columns; ++c)
        setColumnWidth(c, std::min(natural[c], cap));
}

void HintTableView::fitLater() {
    if (m_fitPending)
        return;
    m_fitPending = true;
    // Deferred: a resize stretches the last column only after this event, and a fit that adds
    // a scroll bar narrows the columns again.
    QTimer::singleShot(0, this, [this] {
        m_fitPending = false;
        m_fitting = true;
        if (!m_userSizedColumns)
            fitColumns();
        if (wordWrap())
            resizeRowsToContents();
        m_fitting = false;
    });
}

void HintTableView::onSectionResized(int logicalIndex) {
    if (m_fitting)
        return;
    // The last column stretches with the view; any other was sized by the user's hand.
    if (model() && logicalIndex != model()->columnCount() - 1)
        m_userSizedColumns = true;
    fitLater();
}

void HintTableView::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    fitLater();
}

void HintTableView::paintEvent(QPaintEvent* event) {
    QTableView::paintEvent(event);
    if (!isShowingEmptyText())
        return;
    QPainter painter(viewport());
    painter.setPen(palette().color(QPalette::Disabled, QPalette::Text));
    QFont font = this->font();
    font.setItalic(true);
    painter.setFont(font);
    // The hint starts where the first row would, and wraps within the visible width.
    const QRect area = viewport()->rect().adjusted(8, 6, -8, -6);
    painter.drawText(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_emptyText);
}

void HintTableView::contextMenuEvent(QContextMenuEvent* event) {
    const QModelIndex index = indexAt(event->pos());
    const QString stage = index.data(StringTableModel::StageRole).toString();
    if (stage.isEmpty()) {
        event->ignore();
        return;
    }
    selectRow(index.row());
    Q_EMIT objectMenuRequested(stage, index.data(StringTableModel::IterVarRole).toString(),
                               event->globalPos());
    event->accept();
}

} // namespace bs::gui
