/// \file
/// Constant integer bounds of expressions (TVM's ConstIntBoundAnalyzer): for every integer
/// expression an interval [minValue, maxValue] of int64 constants that contains all its values,
/// given the ranges of the variables bound so far. The simplifier asks it whether a `min` side
/// dominates, whether `floordiv(x, 8)` is 0 because 0 <= x < 8, and so on.
#pragma once

#include "ir/Expr.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace bs {

/// [minValue, maxValue]; kNegInf / kPosInf stand for an unbounded end.
struct ConstIntBound {
    static constexpr int64_t kPosInf = std::numeric_limits<int64_t>::max();
    static constexpr int64_t kNegInf = -kPosInf;

    int64_t minValue = kNegInf;
    int64_t maxValue = kPosInf;

    ConstIntBound() = default;
    ConstIntBound(int64_t minValue, int64_t maxValue) : minValue(minValue), maxValue(maxValue) {}

    bool isConst(int64_t value) const { return minValue == value && maxValue == value; }
    bool operator==(const ConstIntBound& o) const {
        return minValue == o.minValue && maxValue == o.maxValue;
    }
    /// `[0, 7]`, `[neg_inf, pos_inf]` (TVM's spelling of the infinities).
    std::string toString() const;

    /// Everything a value of `type` can hold (bool: [0, 1]; int64: unbounded).
    static ConstIntBound everything(DataType type);
};

/// Keeps the bounds of bound variables and evaluates bounds of expressions. Owned by Analyzer.
class ConstIntBoundAnalyzer {
public:
    ConstIntBound operator()(const Expr& e) const;

    /// `var` lies in [r.min, r.min + r.extent - 1] (bounds of min and extent are used).
    void bind(const Var& var, const Range& r, bool allowOverride);
    /// Records `bound` for `var`. Without `allowOverride`, a different existing bound is an
    /// internal error (TVM's rule: a variable's range never changes silently).
    void update(const Var& var, const ConstIntBound& bound, bool allowOverride);
    bool isBound(const Var& var) const { return m_varBounds.count(var) != 0; }

    /// Adds the bounds a condition implies on its sub-expressions (`x < 8` gives x <= 7) until
    /// `exitConstraint(count)`; returns how many were added.
    size_t enterConstraint(const Expr& condition);
    void exitConstraint(size_t count);

private:
    friend class ConstIntBoundEvaluator;
    VarMap<ConstIntBound> m_varBounds;
    /// Extra facts from enclosing conditions: (expression, bound) pairs, intersected in.
    std::vector<std::pair<Expr, ConstIntBound>> m_constraints;
};

} // namespace bs
