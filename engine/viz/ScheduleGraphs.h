/// \file
/// Builds the graph models of viz/GraphModel.h from a Schedule, optionally with the ranges and
/// the BoundTrace of an InferBound run on it. These are TEDD's three pictures
/// (reference/TEDD.md), improved, plus the one no tool has (UI_ANCHORS.md, feature table):
/// - the stage DAG: stages with op kind, shape, dtype, storage scope (set or inferred), attach
///   point and output flag; producer -> consumer edges labelled with the tensor;
/// - the IterVar relations of one stage (or all, clustered): every IterVar with its kind, range,
///   leaf index, bound thread and loop annotation; Split, Fuse, Rebase (which TEDD drops) and
///   Singleton as relation nodes; leaves on one rank in loop order;
/// - the attach tree: the loop nest as ROOT -> stages listing their leaves, each stage under the
///   leaf it is computed at, with the attach path of one stage highlighted up to the root;
/// - the consumer requests of one stage: per consumer the IntSet requested of each output axis
///   and the relax decisions behind it, the union and the final range.
///
/// Ranges and the trace refer to the IterVars and operations of the schedule InferBound ran on,
/// which is the normalized one (`Schedule::normalize()`): build graphs from that schedule.
#pragma once

#include "schedule/BoundTrace.h"
#include "schedule/Schedule.h"
#include "viz/GraphModel.h"

namespace bs::viz {

/// What a graph is built from. `bounds` and `trace` are optional and not owned.
struct GraphInput {
    GraphInput() = default;
    GraphInput(Schedule schedule, const IterVarMap<Range>* bounds = nullptr,
               const BoundTrace* trace = nullptr)
        : schedule(std::move(schedule)), bounds(bounds), trace(trace) {}

    Schedule schedule;
    const IterVarMap<Range>* bounds = nullptr; ///< InferBound's ranges, or none
    const BoundTrace* trace = nullptr;         ///< InferBound's trace, or none
    /// What the schedule's error is about, when the schedule failed (Diagnostic::subject):
    /// every picture marks it (markProblem).
    DiagnosticSubject problem;
};

/// Marks in `graph` (built from `input`) what `input.problem` is about: the stage, the stage
/// on the other side, the IterVar, and the attach edge. An attach the schedule refused (an
/// output under its cache, a cycle) or one with no path to a consumer is drawn as a
/// `compute_at` edge of its own where the graph has none. The builders below call it.
void markProblem(Graph& graph, const GraphInput& input);

/// The stage DAG: one node per stage (`stage<s>`, s its position in the schedule), one edge
/// per tensor a stage's operation reads. A stage without an explicit scope shows the scope the
/// trace inferred (field `scope_source` = `set`, `inferred` or `default`).
Graph stageDag(const GraphInput& input);

/// The IterVar relation graph of `stage`, or of every stage (one cluster each) when `stage` is
/// undefined. Nodes `iv<s>_<i>` (i: position in allIterVars) and `rel<s>_<r>` (r: position in
/// relations). Throws UserError when `stage` is not in the schedule.
Graph iterVarGraph(const GraphInput& input, const Stage& stage = Stage());

/// The attach tree: `root`, and one node per stage in the loop nest (placeholders and inlined
/// stages have no loops and are left out) whose rows are its leaves in loop order (ports
/// `l<k>`); an edge from the leaf a stage is computed at (or from `root`) to the stage. When
/// `highlightStage` is defined, that stage, the leaves on its attach path and the edges up to
/// the root are highlighted. Throws UserError when `highlightStage` is not in the schedule.
Graph attachTree(const GraphInput& input, const Stage& highlightStage = Stage());

/// The consumer requests of `stage` from `input.trace`: node `producer`, one node `consumer<k>`
/// per consumer (a row per request, port `r<n>`) with a note `note<k>` of its relax decisions,
/// and node `bounds` with a row per root axis (port `a<n>`): the union and the final range.
/// Throws UserError when there is no trace or the trace does not cover the stage.
Graph consumerRequests(const GraphInput& input, const Stage& stage);

/// The graph of `kind` (the CLI's `graph --kind K [--stage S]`): `stageName` selects the stage
/// of `itervar` (empty: every stage), `attach` (empty: none highlighted) and `requests`
/// (required). Throws UserError for a missing or unknown stage.
Graph buildGraph(const GraphInput& input, GraphKind kind, const std::string& stageName = "");

} // namespace bs::viz
