/// \file
/// The engine/viz graph models of an Analysis for the graph docks (issue 7: the stage DAG, the
/// IterVar relations of the selected stage, the attach tree with its attach path highlighted,
/// the consumer requests of the selected stage), and the translation between the shared
/// selection's names and viz::ObjectRef positions. Graphs are built from the normalized
/// schedule, the one InferBound's ranges and trace refer to (viz/ScheduleGraphs.h).
#pragma once

#include "analysis/Analysis.h"
#include "viz/ScheduleGraphs.h"

#include <QString>

#include <optional>

namespace bs::gui {

/// The builders' input: the normalized schedule, its ranges and its trace; the script's
/// schedule when the analysis was not lowered, with what failed as the problem to mark.
viz::GraphInput graphInputOf(const Analysis& analysis);

/// The position of `stage` (and of its IterVar `iterVar`, when given and found) in the
/// normalized schedule; stage -1 when there is no such stage.
viz::ObjectRef objectRefOf(const Analysis& analysis, const QString& stage,
                           const QString& iterVar = QString());

/// The names of what `ref` points at (empty when it points nowhere).
struct ObjectNames {
    QString stage;
    QString iterVar;
};
ObjectNames objectNamesOf(const Analysis& analysis, const viz::ObjectRef& ref);

/// The graph of `kind` for the selected `stage`: the IterVar relations of every stage and an
/// attach tree without highlight when none is selected; the consumer requests need a stage.
/// Nullopt with `message` set (the reason, for the view's placeholder) when there is no graph.
std::optional<viz::Graph> buildGraphOf(const Analysis& analysis, viz::GraphKind kind,
                                       const QString& stage, QString* message);

/// The IterVar of `stage` a loop of the printed IR runs over: the one named `loopVar`, else
/// the one bound to the thread `loopVar` (`threadIdx.x`); empty when there is none.
QString iterVarOfLoop(const Analysis& analysis, const QString& stage, const QString& loopVar);

/// The dock title of a graph kind: `Stage DAG`, `IterVar Relations`, `Attach Tree`,
/// `Consumer Requests`.
QString graphKindTitle(viz::GraphKind kind);

} // namespace bs::gui
