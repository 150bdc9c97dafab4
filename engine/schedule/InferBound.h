/// \file
/// InferBound: the Range of every IterVar of a schedule, computed as TVM computes it (seed 000/002
/// and TVM_INFERBOUND_NOTES.md), with a BoundTrace of every intermediate the seed describes.
///
/// Three rule sets (schedule/BoundRules.h, docs/RULES.md): `tvm` (TVM's final TE behaviour),
/// `tvm-0.5` (the seed's rules, TVM v0.5's sources) and `tight` (ours).
#pragma once

#include "arith/IntSet.h"
#include "schedule/BoundSteps.h"
#include "schedule/MessagePassing.h"
#include "schedule/Schedule.h"

#include <unordered_set>

namespace bs {

/// The bounds of every IterVar, with the trace that explains them.
struct InferBoundResult {
    IterVarMap<Range> bounds;
    /// Tight rules only: the static realize region of each data axis of an attached stage, where
    /// it differs from the loop bounds (loops compute exactly what is needed; the allocation
    /// is the maximum over the attach loop's iterations).
    IterVarMap<Range> realizeBounds;
    /// Tight rules only: the extent a leaf loop really runs where it differs from its range's
    /// extent: a split remainder `min(factor, extent - outer*factor)` (the range keeps the
    /// factor, the stride of the outer loop).
    IterVarMap<Expr> loopExtents;
    /// Tight rules only: the splits that do not divide their parent yet keep their factor, by
    /// their inner IterVar, and why (the allocation report explains their wasted iterations).
    IterVarMap<KeptFactor> keptFactors;
    /// Tight rules only: IterVars that provably stay inside their range (roots: inside their
    /// dom) on every iteration the loops run, so ScheduleOps emits no bound check for them.
    std::unordered_set<IterVar, NodeHash, NodeEqual> provenInRange;
    /// The steps so far (those given to inferBound, then InferBound's own); lowering appends
    /// its realize, guard and allocate steps.
    BoundSteps steps;
    /// The per-stage view of InferBound's steps (traceOf).
    BoundTrace trace;
};

/// Infers the bounds of `sch`, which must be normalized (`Schedule::normalize()`): inline stages
/// must be inlined and root loops rebased, as TVM requires. Throws UserError for schedules TVM
/// rejects (a producer that cannot be found along its consumers' loop nest, extents of one
/// thread that disagree, ...).
/// `priorSteps` are the steps before InferBound (normalize's); InferBound appends its own.
InferBoundResult inferBound(const Schedule& sch, BoundRules rules = BoundRules::Tvm,
                            BoundSteps priorSteps = {});

} // namespace bs
