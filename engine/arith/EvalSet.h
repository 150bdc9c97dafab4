/// \file
/// EvalSet: interval arithmetic over expressions (TVM's IntervalSetEvaluator in int_set.cc).
/// Every variable found in `dom` is replaced by its set, recursively (a variable whose set
/// mentions another relaxed variable is relaxed further); variables not in `dom` stay
/// symbolic as single points. InferBound uses it to turn consumer index expressions into the
/// region they read (TVM_INFERBOUND_NOTES.md sections 4-6).
///
/// One small rule per operator, trivial cases first, infinities explicit:
/// - a binary operator on two single points gives the single point of the operator;
/// - `+` / `-` / `*` by a constant follow the signs (`*` by a negative constant flips ends);
/// - division, floordiv by a positive constant c: [floordiv(min, c), floordiv(max, c)];
/// - floormod by a positive constant c: [min - c*q, max - c*q] when floordiv(max, c) and
///   floordiv(min, c) are provably the same q, else [0, c-1];
/// - min / max apply to both ends, select is the union of its branches, casts apply to both
///   ends, comparisons and logic give [0, 1];
/// - anything else (calls, tensor reads) is everything.
/// The result ends are not simplified; `IntSet::coverRange` and `unionSets` simplify.
#pragma once

#include "arith/IntSet.h"

namespace bs {

class Analyzer;

/// Evaluates with a fresh Analyzer: no variable ranges help the proofs.
IntSet evalSet(const Expr& e, const VarMap<IntSet>& dom);
/// TVM's EvalSet(Range): [min, max] of `r.min` relaxed to its min end and
/// `simplify(r.min + r.extent - 1)` relaxed to its max end.
IntSet evalSet(const Range& r, const VarMap<IntSet>& dom);
/// As above, proving side conditions (signs of divisors, equal floordiv quotients) with
/// `analyzer`, so the variable ranges bound in it help. `analyzer.intSet(e, dom)` calls this.
IntSet evalSet(const Expr& e, const VarMap<IntSet>& dom, Analyzer& analyzer);
IntSet evalSet(const Range& r, const VarMap<IntSet>& dom, Analyzer& analyzer);

} // namespace bs
