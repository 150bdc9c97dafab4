/// \file
/// The Bounds table: every IterVar of every stage with its final range (stage, name, min,
/// extent, role), as `boundscope bounds` prints it, with a filter. Selecting a row selects its
/// stage and IterVar everywhere.
#pragma once

#include "analysis/Analysis.h"
#include "views/HintTableView.h"

#include <QWidget>

#include <memory>

class QLineEdit;
class QSortFilterProxyModel;

namespace bs::gui {

class StringTableModel;

class BoundsPanel : public QWidget {
    Q_OBJECT
public:
    explicit BoundsPanel(QWidget* parent = nullptr);

    void setAnalysis(const std::shared_ptr<const Analysis>& analysis);
    /// Selects the rows of `stage` (only `iterVar`'s when given). Emits nothing.
    void showSelection(const QString& stage, const QString& iterVar);

    StringTableModel* model() const { return m_model; }
    HintTableView* view() const { return m_view; }
    /// The product of the extents of `stage`'s root IterVars that are constants (the elements
    /// of its realize region), or -1 when one is symbolic or the stage has none. For tests and
    /// the status line.
    qint64 rootElements(const QString& stage) const;

Q_SIGNALS:
    /// The user selected the row of `iterVar` in `stage`.
    void rowChosen(const QString& stage, const QString& iterVar);

private:
    /// Why the table is empty: no analysis, or nothing matches the filter.
    void updateEmptyText();

    StringTableModel* m_model;
    QSortFilterProxyModel* m_filter;
    QLineEdit* m_filterEdit;
    HintTableView* m_view;
    bool m_updating = false;
    QString m_stage;
    QString m_iterVar;
    QString m_failure; ///< why a failed schedule has no bounds, or empty
};

} // namespace bs::gui
