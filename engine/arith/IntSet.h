/// \file
/// IntSet: the set of values an integer expression takes, as a closed interval with symbolic
/// ends (TVM's IntervalSet). InferBound describes what a consumer reads of a producer with these
/// (seed 000, "IntSets"; TVM_INFERBOUND_NOTES.md section 5, "IntSet helpers").
///
/// An end may be infinite (`-inf` / `+inf`): the set of a value nothing is known about is
/// [-inf, +inf] (everything). The empty set is `nothing()`. A set whose two ends are the same
/// expression is a single point; InferBound treats single points specially (extent-1 loops).
#pragma once

#include "ir/Expr.h"

#include <string>
#include <vector>

namespace bs {

class Analyzer;

class IntSet {
public:
    /// The empty set.
    IntSet() = default;

    /// [min, max]. An undefined `min` means -inf, an undefined `max` means +inf. When both ends
    /// are the same expression (structurally) the set is a single point.
    static IntSet interval(Expr min, Expr max);
    static IntSet singlePoint(Expr value);
    /// TVM's IntSet::FromRange: an extent that is literally the constant 1 gives the single
    /// point `r.min`, anything else [r.min, r.min + r.extent - 1] (ends not simplified).
    static IntSet fromRange(const Range& r);
    static IntSet fromMinExtent(Expr min, Expr extent) { return fromRange(Range(min, extent)); }
    /// [-inf, +inf].
    static IntSet everything();
    /// The empty set.
    static IntSet nothing() { return IntSet(); }

    bool isNothing() const { return m_empty; }
    bool isEverything() const { return !m_empty && !m_min.defined() && !m_max.defined(); }
    bool hasLowerBound() const { return !m_empty && m_min.defined(); }
    bool hasUpperBound() const { return !m_empty && m_max.defined(); }
    /// Both ends are bounded and the same expression (compared structurally).
    bool isSinglePoint() const;
    /// The value of a single point; an internal error otherwise.
    const Expr& pointValue() const;
    /// The lower end; undefined when unbounded below (check hasLowerBound()) or empty.
    const Expr& min() const { return m_min; }
    /// The upper end; undefined when unbounded above (check hasUpperBound()) or empty.
    const Expr& max() const { return m_max; }

    /// TVM's CoverRange: when both ends are bounded, Range(simplify(min),
    /// simplify(max + 1 - min)) with a fresh Analyzer (no variable bounds); otherwise
    /// `fallback`. The empty set also gives `fallback`.
    Range coverRange(const Range& fallback) const;
    /// TVM's MatchRange: bounded, and provably min == r.min and max == r.min + r.extent - 1.
    /// The first form proves with a fresh Analyzer (as TVM does); the second with `analyzer`.
    bool matchRange(const Range& r) const;
    bool matchRange(const Range& r, Analyzer& analyzer) const;

    /// `[min, max]` with `-inf` / `+inf` for unbounded ends; `empty` for the empty set.
    std::string toString() const;

private:
    Expr m_min;
    Expr m_max;
    bool m_empty = true;
};

/// The smallest interval holding all `sets`: min of the mins, max of the maxes (an unbounded
/// end wins), both simplified with a fresh Analyzer unless `simplify` is false (EvalSet's
/// select keeps them as written). Empty sets are skipped; no sets give nothing(); a single set
/// is returned unchanged (as TVM does).
IntSet unionSets(const std::vector<IntSet>& sets, bool simplify = true);
/// The intersection: max of the mins, min of the maxes, simplified; nothing() when any set is
/// empty or the result is provably empty. No sets give nothing(); one set is returned unchanged.
IntSet intersectSets(const std::vector<IntSet>& sets);

std::ostream& operator<<(std::ostream& os, const IntSet& s);

} // namespace bs
