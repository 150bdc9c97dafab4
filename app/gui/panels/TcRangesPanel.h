/// \file
/// The TC Ranges dock (issue 8, item 2): for a program built from Tensor Comprehensions, TC's
/// input-driven range of every statement variable beside InferBound's consumer-driven range of
/// its IterVar, whether they agree, and TC's warnings; for any other program one line saying
/// there is nothing to compare. A thin view over models/TcRangeRows.h. Selecting a row selects
/// its stage and IterVar everywhere.
#pragma once

#include "analysis/Analysis.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace bs::gui {

class HintTableView;
class StringTableModel;

class TcRangesPanel : public QWidget {
    Q_OBJECT
public:
    explicit TcRangesPanel(QWidget* parent = nullptr);

    void setAnalysis(const std::shared_ptr<const Analysis>& analysis);
    /// Selects the rows of `stage` (only `iterVar`'s when given). Emits nothing.
    void showSelection(const QString& stage, const QString& iterVar);

    StringTableModel* model() const { return m_model; }
    HintTableView* view() const { return m_view; }
    /// The line above the table (what it compares, or why there is nothing to compare).
    QString summary() const;
    /// TC's warnings as shown under the table (empty when there are none).
    QString warnings() const;

Q_SIGNALS:
    /// The user selected the row of `iterVar` in `stage`.
    void rowChosen(const QString& stage, const QString& iterVar);

private:
    StringTableModel* m_model;
    HintTableView* m_view;
    QLabel* m_summary;
    QLabel* m_warnings;
    bool m_updating = false;
};

} // namespace bs::gui
