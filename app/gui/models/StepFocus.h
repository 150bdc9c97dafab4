/// \file
/// What the views highlight for the current step of the Step-through (issue 13, item 4): the
/// stage the step belongs to (the shared selection) and, in step colours, what the step
/// touches: the consumer and its dataflow edge in the stage DAG (phases 1-3), the relation the
/// step passes through in the IterVar graph of the stage that owns it (for pass-up, the
/// consumer's), with the set travelling along each of its edges, the IterVars it sets with
/// their values, the consumer's request or the union's row in the requests graph.
///
/// A StepFocus is names and values, built from the Analysis (stepFocusOf); StepMarks is where
/// they are in one graph model (stepMarksOf, by node kind and ObjectRef).
#pragma once

#include "analysis/Analysis.h"
#include "viz/GraphModel.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

namespace bs::gui {

struct StepFocus {
    const Analysis* analysis = nullptr; ///< the Analysis the names refer to
    int step = -1;
    StepPhase phase = StepPhase::Visit;
    QString stage;    ///< the stage whose bounds the step is part of (the selection)
    QString iterVar;  ///< the IterVar of `stage` to select with it, if any
    QString consumer; ///< phases 1-3: the consumer whose request it is
    /// The stage whose IterVar graph shows the step: the consumer in phases 1-3 (its leaves,
    /// its relations), else `stage`.
    QString relationStage;
    int relation = -1; ///< the relation's position in relationStage's relations, or -1
    /// The IterVars of relationStage the step reads or sets, by name, with their value
    /// (`[0, 63]`, `[0, +8)`; empty when the step gives none).
    QHash<QString, QString> iterVarValues;
    QString request;       ///< request steps: the consumer's request row, `B[0]`
    QStringList unionAxes; ///< union steps: the root axes of the requests graph's bounds
    int line = 0;          ///< the script line of the relation, primitive or stage

    /// Whether the focus is of a step of `current` (a focus of an older Analysis is not).
    bool isOf(const Analysis* current) const { return analysis && analysis == current; }
};

/// The focus of step `id` of `analysis`; an empty focus (no analysis) when there is no step.
StepFocus stepFocusOf(const Analysis& analysis, int id);

/// Where a focus is in one graph model: node ids, rows of nodes, edge ids, and the values
/// written beside nodes and along edges.
struct StepMarks {
    QSet<QString> nodes;
    QHash<QString, QSet<int>> rows; ///< node id -> marked rows
    QSet<QString> edges;
    QHash<QString, QString> nodeLabels; ///< node id -> value shown beside it
    QHash<QString, QString> edgeLabels; ///< edge id -> value travelling along it

    bool isEmpty() const { return nodes.isEmpty() && edges.isEmpty() && rows.isEmpty(); }
};

/// The marks of `focus` in `graph`, a graph of `analysis` (viz/ScheduleGraphs.h).
StepMarks stepMarksOf(const Analysis& analysis, const StepFocus& focus, const viz::Graph& graph);

} // namespace bs::gui
