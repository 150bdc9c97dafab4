/// \file
/// Message passing over a stage's relations for the dataflow rewrites cache_write and rfactor
/// (TVM's PassDownDomain with allow_missing, PassUpIndex, PassDownIndex, PassUp/DownBitMaskOr
/// and MakeBoundCheck with skip_iter_var_domain, from message_passing.cc). Internal to
/// engine/schedule; InferBound and ScheduleOps have their own, analyzer-backed versions.
///
/// These run before any bounds are known and need no arithmetic analyzer: the only facts they
/// use are constant folding and exact divisibility by a constant factor (`(m*8)/8` is `m`).
/// Where TVM's analyzer proves more (rare symbolic cases), a predicate may be kept that TVM
/// drops; it is always a true predicate.
#pragma once

#include "schedule/Stage.h"

#include <unordered_set>

namespace bs::rewrite {

using IterVarSet = std::unordered_set<IterVar, NodeHash, NodeEqual>;

/// `ceil(a / b)` for extents: exact when `b` divides `a` provably, else floordiv(a + b - 1, b).
Expr ceilDiv(const Expr& a, const Expr& b);

/// Ranges of the IterVars derived from those in `domains` (splits: inner = factor, outer =
/// ceilDiv; never tightened). Relations whose input has no range are skipped.
void passDownDomain(const Stage& stage, IterVarMap<Range>* domains);

/// Values of parents from values of children (relations in reverse order); relations whose
/// children have no value are skipped.
void passUpIndex(const Stage& stage, const IterVarMap<Range>& domains, IterVarMap<Expr>* values);
/// Values of children from values of parents (relations in order), skipping missing inputs.
void passDownIndex(const Stage& stage, const IterVarMap<Range>& domains, IterVarMap<Expr>* values);

/// OR-propagates bit masks from children to parents / parents to children.
void passUpBitMaskOr(const Stage& stage, IterVarMap<int>* state);
void passDownBitMaskOr(const Stage& stage, IterVarMap<int>* state);

/// The conditions `value - min < extent` for the IterVars that may overrun their range (a
/// split whose parent extent is not provably outer * inner), except those in `skip`.
std::vector<Expr> makeBoundCheck(const Stage& stage, const IterVarMap<Range>& domains,
                                 const IterVarMap<Expr>& values, const IterVarSet& skip);

} // namespace bs::rewrite
