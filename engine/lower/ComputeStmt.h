/// \file
/// The loop nest and body of one compute stage (TVM's compute_op.cc MakeComputeStmt and
/// cross_thread_reduction.cc), private to ScheduleOps: the main nest with its bound checks,
/// the init nest of a reduction, and for a reduction whose reduce axis is bound to a thread the
/// cross-thread form around `tvm_thread_allreduce`.
#pragma once

#include "lower/LoopNest.h"
#include "lower/ScheduleOps.h"
#include "te/Operation.h"

namespace bs {

/// The loop nests of a compute stage (TVM's ComputeLoopNest): the main nest (one level per
/// leaf after a level for the attach point, then a level of bound checks and the store
/// predicate), the values of the IterVars in it, and for a reduction the init nest over the
/// data-parallel leaves and the number of leaves the two nests share.
struct ComputeLoopNest {
    LoopNest mainNest;
    IterVarMap<Expr> mainValues;
    LoopNest initNest;
    IterVarMap<Expr> initValues;
    size_t numCommonLoops = 0;
};

/// For a compute or tensor-compute stage.
ComputeLoopNest makeComputeLoopNest(const Stage& stage, const IterVarMap<Range>& bounds,
                                    const ScheduleOpsOptions& options);

/// The statement computing `stage` (its provide, or its reduction's init and update) inside
/// its loop nest, with the IterVars' values substituted.
Stmt makeComputeStmt(const ComputeOpNode* op, const Stage& stage, const IterVarMap<Range>& bounds,
                     const ScheduleOpsOptions& options);

/// One `if (likely(...))` level per check, each marked with the guard step that explains it.
std::vector<Stmt> makeGuards(const Stage& stage, const std::vector<BoundCheck>& checks,
                             const IterVarMap<Range>& bounds, BoundSteps* steps);

/// Whether `stage` reduces across threads: a reduce leaf bound to a thread (TVM's
/// IsCrossThreadReduction). Throws UserError, at the bind, when a data-parallel leaf comes
/// after a thread-bound reduce leaf ("cross thread reduce cannot swap with normal data axis").
bool isCrossThreadReduction(const ComputeOpNode* op, const Stage& stage);

/// TVM's MakeCrossThreadReduction: each thread reduces its own part (the reduce leaves that are
/// not bound, into `normal_reduce_temp`), `tvm_thread_allreduce` combines the threads' values
/// into `reduce_temp`, and the result is stored where the data axes are in range and the
/// stage's store predicate holds.
Stmt makeCrossThreadReduction(const ComputeOpNode* op, const Stage& stage,
                              const IterVarMap<Range>& bounds, const ScheduleOpsOptions& options);

Stmt substituteValues(const Stmt& s, const IterVarMap<Expr>& values);
/// The options of a stage's main loop nest under `options`: trivial loops, split remainders
/// and the steps that mark the loops.
LoopNestOptions mainNestOptions(const ScheduleOpsOptions& options);
std::vector<Expr> axisVars(const ComputeOpNode* op);

} // namespace bs
