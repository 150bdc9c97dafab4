/// \file
/// Building a stage's loop nest from its leaf IterVars and their bounds (TVM's MakeLoopNest,
/// MakeBoundCheck, PassUpIndex, PassDownBitMaskOr and MergeNest; notes section 8).
#pragma once

#include "ir/Stmt.h"
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
};

/// The nest of `stage`'s leaves; fills `valueMap` with the value of every IterVar (leaves:
/// their loop variable, thread variable or min; roots: derived by passUpIndex).
LoopNest makeLoopNest(const Stage& stage, const IterVarMap<Range>& bounds,
                      const LoopNestOptions& options, IterVarMap<Expr>* valueMap);

/// The predicates that keep a stage inside its domain where splits do not divide their parents
/// (TVM's MakeBoundCheck), without duplicates; not yet wrapped in likely().
std::vector<Expr> makeBoundCheck(const Stage& stage, const IterVarMap<Range>& bounds,
                                 const IterVarMap<Expr>& valueMap, bool skipIterVarDomain,
                                 const std::unordered_set<IterVar, NodeHash, NodeEqual>& skip);

/// Root values from leaf values, relations in reverse order.
void passUpIndex(const Stage& stage, const IterVarMap<Range>& bounds, IterVarMap<Expr>* state,
                 bool allowMissing = false);
/// Bit masks from roots to leaves (which leaves touch data axes, which reduce axes).
void passDownBitMaskOr(const Stage& stage, IterVarMap<int>* state, bool allowMissing = false);

/// One `if (cond)` level per predicate.
std::vector<Stmt> makeIfNest(const std::vector<Expr>& predicates);
/// Wraps `body` in the nest, innermost level last.
Stmt mergeNest(const LoopNest& nest, Stmt body);
Stmt mergeNest(const std::vector<Stmt>& level, Stmt body);

} // namespace bs
