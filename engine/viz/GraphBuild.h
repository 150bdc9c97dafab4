/// \file
/// Internal to engine/viz: the text and styling shared by the graph builders (ranges, IterVar
/// kinds and their TEDD colours, attach points, storage scopes), so every picture describes a
/// stage or an IterVar the same way.
#pragma once

#include "viz/ScheduleGraphs.h"

namespace bs::viz::detail {

/// The position of `stage` in `sch->stages`, or -1.
int stageIndexOf(const Schedule& sch, const Stage& stage);
/// The position of `stage`; throws UserError (`<what>: stage 'X' is not in the schedule`).
int requireStageIndex(const Schedule& sch, const Stage& stage, const std::string& what);
/// The position of `iv` in `stage->allIterVars`, or -1.
int iterVarIndexOf(const Stage& stage, const IterVar& iv);

/// A reference to a stage, or to one of its IterVars.
ObjectRef stageRef(int stage);
ObjectRef iterVarRef(int stage, int iterVar);

/// The range InferBound gave `iv`, or nullptr (no bounds, or `iv` not in them).
const Range* findRange(const IterVar& iv, const IterVarMap<Range>* bounds);
/// `range(min=0, ext=16)` from the bounds, or `range(N/A)` as TEDD prints a missing range.
std::string rangeText(const IterVar& iv, const IterVarMap<Range>* bounds);

/// The loop kind of a leaf: the stage's annotation (vectorize, unroll, parallel) when there
/// is one, else the IterVar's own type (TEDD's rule).
IterVarType loopKindOf(const Stage& stage, const IterVar& iv);
/// The tag of the thread `iv` is bound to in `stage` (e.g. `threadIdx.x`), or empty.
std::string boundThreadOf(const Stage& stage, const IterVar& iv);
/// TEDD's legend colour of a loop kind (`#FFFFFF` for kDataPar, ...).
const char* iterVarColor(IterVarType type);
/// The colour of a leaf's index cell: kThreadIndex's when it is bound to a thread (TEDD shows
/// a bound loop as kDataPar), else its loop kind's.
const char* leafColor(const Stage& stage, const IterVar& iv);
/// `kDataPar`, or `kDataPar, kVectorized` when the loop annotation differs from the type.
std::string iterVarKindText(const Stage& stage, const IterVar& iv);

/// `placeholder`, `compute`, `reduction`, or the operation's type key for other operations.
std::string opKindText(const Operation& op);
/// `float32 [200, 400]`: the dtype and shape of output 0.
std::string tensorTypeText(const Operation& op);
/// `root`, `inline`, `inlined` or `at C.i` (with `attachIVar`'s name).
std::string attachText(const Stage& stage);

/// A stage's storage scope and where it comes from: `set` (set_scope), `inferred` (the
/// trace's InferStorageScope), `default` (placeholders and outputs are global) or `unknown`
/// (no trace to ask).
struct ScopeInfo {
    std::string scope;
    std::string source;
    /// `shared`, `shared (inferred)`, `global`, or `not inferred` (no trace to ask).
    std::string text() const;
};
ScopeInfo scopeOf(const Stage& stage, const BoundTrace* trace);

/// Placeholder, Output, Inlined or Compute.
NodeStyle stageStyle(const Stage& stage);
/// A one-cell row.
LabelRow textRow(std::string text, ObjectRef ref = {}, SourceLocation location = {});

/// The node of a stage as the DAG and the attach tree start it: id `stage<s>`, title, style,
/// fields name/op/type/scope/scope_source/attach/output, location.
GraphNode stageNode(const GraphInput& input, int stageIndex);

/// Appends an edge with the next id (`e<n>`).
GraphEdge& addEdge(Graph& graph, std::string from, std::string fromPort, std::string to,
                   std::string toPort, EdgeStyle style);

} // namespace bs::viz::detail
