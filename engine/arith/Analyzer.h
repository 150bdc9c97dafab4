/// \file
/// The Analyzer: one object that knows the ranges and values of variables and answers
/// questions about integer expressions with them (TVM's arith::Analyzer). InferBound keeps one
/// per pass, binding each loop variable to its range, so that floordiv/floormod proofs can use
/// loop ranges (TVM_INFERBOUND_NOTES.md sections 3, 5 and 9).
///
/// `simplify` is TVM's two steps: a rewrite pass (Halide-style rules, Simplify_*.cpp) then a
/// canonical pass (sums in a linear normal form, CanonicalSimplify.cpp and CanonicalDivMod.cpp),
/// repeated until nothing changes so that simplify is idempotent. Canonical sums print with the
/// larger coefficients first, then in order of appearance, positive terms before negative ones and
/// a positive constant before the negative terms: `j + i*64` is `((i*64) + j)`, `x - y + 1` is
/// `((x + 1) - y)`, `1 - x` is `(1 - x)`, `-x` is `(0 - x)`.
#pragma once

#include "arith/ConstIntBound.h"
#include "arith/IntSet.h"
#include "arith/ModularSet.h"

#include <memory>

namespace bs {

class RewriteSimplifier;
class CanonicalSimplifier;

class Analyzer {
public:
    Analyzer();
    ~Analyzer();
    Analyzer(const Analyzer&) = delete;
    Analyzer& operator=(const Analyzer&) = delete;

    /// `var` lies in `r`. An extent that is literally 1 binds `var` to the value `r.min` (TVM).
    /// Rebinding to a different range without `allowOverride` is an internal error.
    void bind(const Var& var, const Range& r, bool allowOverride = false);
    /// `var` equals `value` (cast to the type of `var` and simplified); the simplifier
    /// substitutes it, the bound and modular analyses use its facts.
    void bind(const Var& var, const Expr& value, bool allowOverride = false);

    /// Rewrite then canonical simplification, to a fixed point. Never changes the value of the
    /// expression; constants are folded, provable comparisons become constants.
    Expr simplify(const Expr& e);
    /// One rewrite pass only (TVM's rewrite_simplify).
    Expr rewriteSimplify(const Expr& e);
    /// One canonical pass only (TVM's canonical_simplify).
    Expr canonicalSimplify(const Expr& e);

    /// True when `cond` simplifies to a true constant (false means "could not prove").
    bool canProve(const Expr& cond);
    /// Both constants and equal, or `a - b == 0` provable.
    bool canProveEqual(const Expr& a, const Expr& b);
    /// The constant bound of `e` (after a rewrite pass) is at least `lower`.
    bool canProveGreaterEqual(const Expr& e, int64_t lower);
    /// The constant bound of `e` (after a rewrite pass) is below `upper`.
    bool canProveLess(const Expr& e, int64_t upper);

    ConstIntBound constIntBound(const Expr& e);
    ModularSet modularSet(const Expr& e);
    /// evalSet(e, dom) proving side conditions with this analyzer (TVM's analyzer.int_set).
    IntSet intSet(const Expr& e, const VarMap<IntSet>& dom);
    /// The set of `e` over the ranges bound with `bind(var, Range)`.
    IntSet intSet(const Expr& e);

    /// While alive, `condition` is assumed true: comparisons of a sub-expression with a
    /// constant narrow its bounds, and the literal condition simplifies to true (TVM's
    /// ConstraintContext). Scopes must be destroyed in reverse order of creation.
    class ConstraintScope {
    public:
        ConstraintScope(Analyzer& analyzer, const Expr& condition);
        ~ConstraintScope();
        ConstraintScope(const ConstraintScope&) = delete;
        ConstraintScope& operator=(const ConstraintScope&) = delete;

    private:
        Analyzer& m_analyzer;
        size_t m_boundCount;
        size_t m_literalCount;
    };

private:
    friend class RewriteSimplifier;

    ConstIntBoundAnalyzer m_constIntBound;
    ModularSetAnalyzer m_modularSet;
    /// Values substituted for bound variables (bind(var, value)).
    VarMap<Expr> m_varValues;
    /// Ranges from bind(var, Range), for intSet(e).
    VarMap<IntSet> m_varRanges;
    /// Conditions known to hold (ConstraintScope), simplified; each with its negation known
    /// false.
    std::vector<Expr> m_literalConstraints;
    std::unique_ptr<RewriteSimplifier> m_rewrite;
    std::unique_ptr<CanonicalSimplifier> m_canonical;
};

} // namespace bs
