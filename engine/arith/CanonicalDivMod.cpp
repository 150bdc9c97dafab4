// Division and remainder by positive constants on canonical forms (TVM's canonical_simplify.cc).
// A sum splits into the part the constant divides (divided exactly: `floordiv(8*m, 8)` is
// exactly `m`) and the rest; a single term records the division in its split factors, so that
// `floormod(o*8, 8)` is 0 and `floordiv(x, 8)*8 + floormod(x, 8)` merges back into `x`.

#include "arith/Simplify_Internal.h"

#include "ir/Op.h"

namespace bs {

namespace {

Expr applyMod(const Expr& a, int64_t c, DivMode mode) {
    Expr divisor = makeConst(a.type(), c);
    return mode == DivMode::Floor ? floormod(a, divisor) : truncmod(a, divisor);
}

/// TVM's TryConstFold for / and %: two constants fold, 0 / x is 0, x / 1 is x, x % 1 is 0.
std::optional<CanonValue> foldDivision(const CanonValue& a, const CanonValue& b, bool remainder,
                                       Expr (*op)(Expr, Expr)) {
    auto ca = canonConst(a), cb = canonConst(b);
    if (ca && cb)
        return op(std::get<Expr>(a), std::get<Expr>(b));
    if (ca && *ca == 0)
        return a;
    if (cb && *cb == 1)
        return remainder ? CanonValue(makeZero(std::get<Expr>(b).type())) : a;
    return std::nullopt;
}

/// Splits `sum` into the terms (and base) that `c` divides and the rest.
std::pair<SumForm, SumForm> separateDivisible(const SumForm& sum, int64_t c) {
    SumForm divisible, rest;
    divisible.type = rest.type = sum.type;
    (truncModInt(sum.base, c) == 0 ? divisible : rest).base = sum.base;
    for (const SplitTerm& t : sum.terms)
        (truncModInt(t.scale, c) == 0 ? divisible : rest).terms.push_back(t);
    return {divisible, rest};
}

} // namespace

SplitTerm CanonicalSimplifier::convertDivMode(SplitTerm a, DivMode mode) {
    if (a.mode == mode)
        return a;
    if (!a.compatibleWith(mode))
        a = toSplit(a.normalize());
    a.mode = mode;
    return a;
}

SplitTerm CanonicalSimplifier::splitDivConst(SplitTerm a, int64_t c, DivMode mode) {
    a = convertDivMode(a, mode);
    if (truncModInt(a.scale, c) == 0) {
        a.scale /= c;
        return a;
    }
    // Only positive scales fold into the factors (TVM also folds negative ones; normalizing
    // keeps the factors positive and the result the same).
    if (a.scale > 0 && truncModInt(c, a.scale) == 0) {
        int64_t factor = truncDivInt(c, a.scale);
        if (a.upper == SplitTerm::kPosInf || truncModInt(a.upper, a.lower * factor) == 0) {
            a.scale = 1;
            a.lower *= factor;
            return a;
        }
        // (x % c1) / c2 is 0 when c2 >= c1.
        if (a.upper <= a.lower * factor)
            return toSplit(makeZero(a.type()));
        a.index = applyMod(a.index, a.upper, mode);
        a.upper = SplitTerm::kPosInf;
        a.scale = 1;
        a.lower *= factor;
        return a;
    }
    a = toSplit(a.normalize());
    a.lower *= c;
    a.mode = mode;
    return a;
}

SplitTerm CanonicalSimplifier::splitModConst(SplitTerm a, int64_t c, DivMode mode) {
    a = convertDivMode(a, mode);
    if (truncModInt(a.scale, c) == 0) {
        a.scale = 0;
        return a;
    }
    if (a.scale > 0 && truncModInt(c, a.scale) == 0) {
        // (v*s) % (s*k) == (v % k)*s, and ((x % U) / L) % k == (x % (L*k)) / L.
        int64_t newUpper = a.lower * (truncDivInt(c, a.scale));
        if (a.upper == SplitTerm::kPosInf || truncModInt(a.upper, newUpper) == 0) {
            if (a.upper != SplitTerm::kPosInf && newUpper < a.upper) {
                // A smaller modulus may simplify the index further.
                // Re-apply the division before the scale: ((x % U') / L) * s.
                SplitTerm updated = toSplit(visitExpr(applyMod(a.index, newUpper, mode)));
                if (a.lower != 1)
                    updated = splitDivConst(updated, a.lower, mode);
                updated.scale *= a.scale;
                return updated;
            }
            a.upper = newUpper;
            return a;
        }
        // (x % 2) % 4 is x % 2.
        if (truncModInt(newUpper, a.upper) == 0)
            return a;
    }
    a = toSplit(a.normalize());
    a.mode = mode;
    a.upper = c;
    return a;
}

CanonValue CanonicalSimplifier::divideSum(SumForm sum, int64_t c, DivMode mode) {
    auto [quotient, rest] = separateDivisible(sum, c);
    if (rest.isZero()) {
        quotient.divideBy(c);
        return quotient;
    }
    if (mode == DivMode::Trunc && !(canProveGreaterEqual(quotient.normalize(), 0) &&
                                    canProveGreaterEqual(rest.normalize(), 0)))
        return splitDivConst(toSplit(CanonValue(sum)), c, mode);
    quotient.divideBy(c);
    Expr remainder = rest.normalize();
    if (auto k = asConstInt(remainder)) {
        quotient.add(mode == DivMode::Floor ? floorDivInt(*k, c) : truncDivInt(*k, c));
        return quotient;
    }
    // 0 <= rest < c contributes nothing to the quotient.
    bool vanishes = tryCompare(remainder, c) == CompareResult::LT &&
                    (mode == DivMode::Trunc || canProveGreaterEqual(remainder, 0));
    if (!vanishes)
        quotient.add(splitDivConst(toSplit(remainder), c, mode), 1);
    return quotient;
}

CanonValue CanonicalSimplifier::modSum(SumForm sum, int64_t c, DivMode mode) {
    auto [multiple, rest] = separateDivisible(sum, c);
    Expr remainder = rest.normalize();
    if (mode == DivMode::Floor) {
        if (auto k = asConstInt(remainder))
            return makeConst(sum.type, floorModInt(*k, c));
        if (tryCompare(remainder, c) == CompareResult::LT && canProveGreaterEqual(remainder, 0))
            return remainder;
        // floormod(x - 5, 3) is floormod(x + 1, 3).
        rest.base = floorModInt(rest.base, c);
        return splitModConst(toSplit(CanonValue(rest)), c, mode);
    }
    if (rest.isZero())
        return makeZero(sum.type);
    SumForm dividend = sum;
    if (canProveGreaterEqual(multiple.normalize(), 0) && canProveGreaterEqual(remainder, 0)) {
        if (auto k = asConstInt(remainder))
            return makeConst(sum.type, truncModInt(*k, c));
        if (tryCompare(remainder, c) == CompareResult::LT)
            return remainder;
        dividend = rest;
    }
    // (x - 5) % 3 is (x - 2) % 3 when x - 5 >= 0 (truncation keeps the sign).
    ConstIntBound bound = m_parent.constIntBound(dividend.normalize());
    int64_t newBase = truncModInt(dividend.base, c);
    if (bound.minValue >= 0 && bound.minValue - dividend.base + newBase >= 0)
        dividend.base = newBase;
    return splitModConst(toSplit(CanonValue(dividend)), c, mode);
}

CanonValue CanonicalSimplifier::canonicalFloorDiv(const FloorDivNode* op) {
    CanonValue a = mutateCanonical(op->a);
    CanonValue b = mutateCanonical(op->b);
    if (auto folded = foldDivision(a, b, false, floordiv))
        return *folded;
    auto c = canonConst(b);
    if (!c || *c <= 0)
        return rebuild(op, a, b, floordiv);
    if (auto* sum = std::get_if<SumForm>(&a))
        return divideSum(*sum, *c, DivMode::Floor);
    ConstIntBound bound = m_parent.constIntBound(normalize(a));
    if (bound.minValue >= 0 && bound.maxValue < *c)
        return makeZero(op->type);
    return splitDivConst(toSplit(a), *c, DivMode::Floor);
}

CanonValue CanonicalSimplifier::canonicalDiv(const DivNode* op) {
    CanonValue a = mutateCanonical(op->a);
    CanonValue b = mutateCanonical(op->b);
    if (auto folded = foldDivision(a, b, false, truncdiv))
        return *folded;
    auto c = canonConst(b);
    if (!c || *c <= 0)
        return rebuild(op, a, b, truncdiv);
    if (auto* sum = std::get_if<SumForm>(&a))
        return divideSum(*sum, *c, DivMode::Trunc);
    ConstIntBound bound = m_parent.constIntBound(normalize(a));
    if (bound.minValue >= 0 && bound.maxValue < *c)
        return makeZero(op->type);
    return splitDivConst(toSplit(a), *c, DivMode::Trunc);
}

CanonValue CanonicalSimplifier::canonicalFloorMod(const FloorModNode* op) {
    CanonValue a = mutateCanonical(op->a);
    CanonValue b = mutateCanonical(op->b);
    if (auto folded = foldDivision(a, b, true, floormod))
        return *folded;
    auto c = canonConst(b);
    if (!c || *c <= 0)
        return rebuild(op, a, b, floormod);
    if (auto* sum = std::get_if<SumForm>(&a))
        return modSum(*sum, *c, DivMode::Floor);
    ConstIntBound bound = m_parent.constIntBound(normalize(a));
    if (bound.minValue >= 0 && bound.maxValue < *c)
        return a;
    return splitModConst(toSplit(a), *c, DivMode::Floor);
}

CanonValue CanonicalSimplifier::canonicalMod(const ModNode* op) {
    CanonValue a = mutateCanonical(op->a);
    CanonValue b = mutateCanonical(op->b);
    if (auto folded = foldDivision(a, b, true, truncmod))
        return *folded;
    auto c = canonConst(b);
    if (!c || *c <= 0)
        return rebuild(op, a, b, truncmod);
    if (auto* sum = std::get_if<SumForm>(&a))
        return modSum(*sum, *c, DivMode::Trunc);
    ConstIntBound bound = m_parent.constIntBound(normalize(a));
    if (bound.minValue >= 0 && bound.maxValue < *c)
        return a;
    return splitModConst(toSplit(a), *c, DivMode::Trunc);
}

} // namespace bs
