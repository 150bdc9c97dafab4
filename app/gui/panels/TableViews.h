/// \file
/// The common look of the app's tables: whole-row selection, no row numbers, expression text in
/// the code font, columns and rows fitted to their text with the last column stretched, and a
/// hint where a table is empty (HintTableView).
#pragma once

#include "models/StringTableModel.h"
#include "views/Highlighters.h"
#include "views/HintTableView.h"

#include <QHeaderView>
#include <QTableView>

namespace bs::gui {

inline HintTableView* createTableView(QAbstractItemModel* model, QWidget* parent) {
    auto* view = new HintTableView(parent);
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
    // Each reset brings new text: fit the columns to it, and let the last column (usually the
    // explanation) take the rest and wrap.
    view->setWordWrap(true);
    QObject::connect(model, &QAbstractItemModel::modelReset, view, &HintTableView::refit);
    return view;
}

/// Calls `chosen(stage, iterVar)`, from the rows' StageRole and IterVarRole, when the current
/// row of `view` moves, except while `*updating` (the panel refilling its model).
template <typename Chosen>
void onRowChosen(QTableView* view, QObject* context, const bool* updating, Chosen chosen) {
    QObject::connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, context,
                     [updating, chosen](const QModelIndex& current) {
                         if (*updating || !current.isValid())
                             return;
                         chosen(current.data(StringTableModel::StageRole).toString(),
                                current.data(StringTableModel::IterVarRole).toString());
                     });
}

} // namespace bs::gui
