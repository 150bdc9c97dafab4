/// \file
/// The Step-through panel's tree (issue 13, item 4): the outline of models/StepOutline.h as
/// rows, a group per normalize, per visited stage and for lowering, a section per phase and
/// consumer, and the steps (`#12 pass-up`, its rule, what it produced). An adapter only: the
/// outline and the words come from StepOutline and StepText.
#pragma once

#include "analysis/Analysis.h"

#include <QStandardItemModel>

namespace bs::gui {

class StepTreeModel : public QStandardItemModel {
    Q_OBJECT
public:
    enum Column { StepColumn, RuleColumn, SummaryColumn };
    enum Role {
        /// The step a row stands for: its own, or a group's or section's first step.
        StepRole = Qt::UserRole + 1,
        /// 0 for a group, 1 for a section, 2 for a step.
        LevelRole,
    };

    explicit StepTreeModel(QObject* parent = nullptr);

    /// Replaces the rows by the steps of `analysis` (none when null or not lowered).
    void setAnalysis(const Analysis* analysis);

    /// The number of steps (leaf rows).
    int stepCount() const { return int(m_steps.size()); }
    /// The row (column 0) of step `id`; invalid when there is none.
    QModelIndex indexOfStep(int id) const;
    /// The step `index` stands for (see StepRole); -1 when none.
    int stepAt(const QModelIndex& index) const;

private:
    QList<QStandardItem*> m_steps; ///< column-0 item of each step, by id
};

} // namespace bs::gui
