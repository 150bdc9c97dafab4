/// \file
/// What the graphs mark as changed while the Compare dock shows a diff (issue 18, item 2): the
/// stages and IterVars whose bounds or allocations differ between its two sides, by name
/// (changedObjectsOf), and where they are in one graph model of the current analysis
/// (changeMarksOf: stage nodes, IterVar nodes, and the rows showing a changed IterVar).
#pragma once

#include "analysis/AnalysisDiff.h"
#include "models/StepFocus.h"

#include <QPair>
#include <QSet>
#include <QString>

namespace bs::gui {

struct ChangedObjects {
    QSet<QString> stages;
    QSet<QPair<QString, QString>> iterVars; ///< (stage, IterVar)

    bool isEmpty() const { return stages.isEmpty() && iterVars.isEmpty(); }
    bool operator==(const ChangedObjects&) const = default;
};

/// The stages and IterVars `diff` finds different: a bounds row that changed or is on one side
/// only names its IterVar and stage; an allocation that changed names the stage of its buffer.
ChangedObjects changedObjectsOf(const AnalysisDiff& diff);

/// Where `changed` is in `graph`, a graph of `analysis`: the nodes of changed stages and
/// IterVars, and the rows that show a changed IterVar.
StepMarks changeMarksOf(const Analysis& analysis, const ChangedObjects& changed,
                        const viz::Graph& graph);

} // namespace bs::gui
