/// \file
/// The common look of the app's tables: whole-row selection, no row numbers, expression text in
/// the code font, columns sized to their contents with the last one stretched.
#pragma once

#include "views/Highlighters.h"

#include <QHeaderView>
#include <QTableView>

namespace bs::gui {

inline QTableView* createTableView(QAbstractItemModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setTextElideMode(Qt::ElideRight);
    view->verticalHeader()->setVisible(false);
    QFont font = codeFont();
    font.setPointSize(9);
    view->setFont(font);
    view->verticalHeader()->setDefaultSectionSize(QFontMetrics(font).height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    view->horizontalHeader()->setHighlightSections(false);
    // Each reset brings new text: size the columns to it, at most a quarter of the view each,
    // and let the last column (usually the explanation) take the rest and wrap.
    view->setWordWrap(true);
    QObject::connect(model, &QAbstractItemModel::modelReset, view, [view] {
        view->resizeColumnsToContents();
        const int limit = qMax(90, view->viewport()->width() / 4);
        for (int c = 0; c + 1 < view->model()->columnCount(); ++c)
            view->setColumnWidth(c, qMin(view->columnWidth(c) + 8, limit));
        view->resizeRowsToContents();
    });
    // Wrapped text needs taller rows when its column narrows (the stretched last column
    // changes width with the dock).
    QObject::connect(view->horizontalHeader(), &QHeaderView::sectionResized, view,
                     [view] { view->resizeRowsToContents(); });
    return view;
}

} // namespace bs::gui
