/// \file
/// ScheduleOps: a scheduled program -> one loop-nest statement in TVM's classic form, with
/// `realize`/`produce` blocks, compute_at stages injected at the top of their attach loop, thread
/// bindings as `thread_extent` attributes and bound checks as `likely(...)` predicates
/// (TVM_INFERBOUND_NOTES.md section 8).
#pragma once

#include "ir/Stmt.h"
#include "schedule/BoundSteps.h"
#include "schedule/Schedule.h"

#include <unordered_set>

namespace bs {

struct ScheduleOpsOptions {
    /// Keep extent-1 loops as `for (i, 0, 1)` (TVM's debug_keep_trivial_loop, seed Ex. 4).
    bool keepTrivialLoops = false;
    /// Realize regions to use instead of the loop bounds (the tight rules' static rectangles);
    /// IterVars not in the map take their bound.
    const IterVarMap<Range>* realizeBounds = nullptr;
    /// Extents loops really run where they differ from their bound (the tight rules' split
    /// remainders, InferBoundResult::loopExtents); the bound stays the stride of index math.
    const IterVarMap<Expr>* loopExtents = nullptr;
    /// IterVars that need no bound check (InferBoundResult::provenInRange).
    const std::unordered_set<IterVar, NodeHash, NodeEqual>* provenInRange = nullptr;
    /// The bound-inference steps (InferBoundResult::steps): ScheduleOps adds a step for each
    /// realize and each guard, and marks loops, thread extents, realizes and guards with the
    /// step that made their numbers (StmtNode::stepId). May be null.
    BoundSteps* steps = nullptr;
    /// The IterVar of each loop variable of the bounds (makeBoundCheck's index); scheduleOps
    /// builds it when null.
    const VarMap<IterVar>* iterVarOfVar = nullptr;
};

/// Builds the statement for `sch` (normalized) with the bounds InferBound gave it.
Stmt scheduleOps(const Schedule& sch, const IterVarMap<Range>& bounds,
                 const ScheduleOpsOptions& options = {});

} // namespace bs
