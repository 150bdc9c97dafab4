/// \file
/// Building a stage's loop nest from its leaf IterVars and their bounds (TVM's MakeLoopNest,
/// MakeIfNest and MergeNest; notes section 8). The message passing it uses (PassUpIndex,
/// MakeBoundCheck) is in schedule/MessagePassing.h.
#pragma once

#include "ir/Stmt.h"
#include "schedule/BoundSteps.h"
#include "schedule/MessagePassing.h"
#include "schedule/Schedule.h"

#include <unordered_set>

namespace bs {

/// Levels of a loop nest: level 0 is outside every leaf, level i+1 holds the statements of
/// leaf i (its For, LetStmt or AttrStmts), each with an empty body to be filled by mergeNest.
using LoopNest = std::vector<std::vector<Stmt>>;

struct LoopNestOptions {
    size_t beginLeaf = 0;          ///< leaves before this are not emitted
    bool newLoopVars = false;      ///< name loop variables `x.init` (reduction init nests)
    bool keepTrivialLoops = false; ///< keep extent-1 loops as `for (i, 0, 1)`
    std::unordered_set<IterVar, NodeHash, NodeEqual> skip;
    /// Loop extents that replace the bounds' extents (split remainders); may be null.
    const IterVarMap<Expr>* loopExtents = nullptr;
    /// The bound-inference steps: each loop and thread extent is marked with the step that
    /// made its extent (StmtNode::stepId); may be null.
    const BoundSteps* steps = nullptr;
};

/// The nest of `stage`'s leaves; fills `valueMap` with the value of every IterVar (leaves:
/// their loop variable, thread variable or min; roots: derived by passUpIndex).
LoopNest makeLoopNest(const Stage& stage, const IterVarMap<Range>& bounds,
                      const LoopNestOptions& options, IterVarMap<Expr>* valueMap);

/// One `if (cond)` level per predicate.
std::vector<Stmt> makeIfNest(const std::vector<Expr>& predicates);
/// Wraps `body` in the nest, innermost level last.
Stmt mergeNest(const LoopNest& nest, Stmt body);
Stmt mergeNest(const std::vector<Stmt>& level, Stmt body);

} // namespace bs
