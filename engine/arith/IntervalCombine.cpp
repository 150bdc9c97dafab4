#include "arith/IntervalCombine.h"

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "support/Check.h"

namespace bs {

// Conventions: an undefined end is infinite (IntSet.h). Every rule handles two single points
// first (the operator applied to the points, constants folded), then empty operands, then the
// general interval case.

namespace {

bool bothPoints(const IntSet& a, const IntSet& b) { return a.isSinglePoint() && b.isSinglePoint(); }

/// |d| - 1 for a divisor of unknown sign: bounds a truncated remainder on both sides.
Expr remainderBound(const Expr& divisor) {
    if (auto c = asConstInt(divisor))
        return makeConst(divisor.type(), (*c < 0 ? -*c : *c) - 1);
    Expr zero = makeZero(divisor.type());
    return select(divisor >= zero, divisor, zero - divisor) - 1;
}

/// Multiplication or division by the single point `b` (shared by *, /, floordiv): a
/// non-negative `b` keeps the ends in place, a negative one swaps them, an unknown sign needs
/// both ends and a select.
template <typename Op>
IntSet scaleByPoint(Analyzer& analyzer, const IntSet& a, const Expr& b, Op op) {
    if (analyzer.canProveGreaterEqual(b, 0)) {
        Expr lo = a.hasLowerBound() ? op(a.min(), b) : Expr();
        Expr hi = a.hasUpperBound() ? op(a.max(), b) : Expr();
        return IntSet::interval(lo, hi);
    }
    if (analyzer.canProveGreaterEqual(-b, 1)) {
        Expr lo = a.hasUpperBound() ? op(a.max(), b) : Expr();
        Expr hi = a.hasLowerBound() ? op(a.min(), b) : Expr();
        return IntSet::interval(lo, hi);
    }
    if (a.hasLowerBound() && a.hasUpperBound()) {
        Expr sign = b >= makeZero(b.type());
        Expr e1 = op(a.min(), b), e2 = op(a.max(), b);
        return IntSet::interval(select(sign, e1, e2), select(sign, e2, e1));
    }
    return IntSet::everything();
}

void requireNonZeroDivisor(const Expr& divisor) {
    if (isZero(divisor))
        throw UserError("division by zero in index expression");
}

} // namespace

IntSet combineAdd(Analyzer&, const IntSet& a, const IntSet& b, DataType) {
    if (bothPoints(a, b))
        return IntSet::singlePoint(a.min() + b.min());
    if (a.isNothing() || b.isNothing())
        return IntSet::nothing();
    Expr lo = a.hasLowerBound() && b.hasLowerBound() ? a.min() + b.min() : Expr();
    Expr hi = a.hasUpperBound() && b.hasUpperBound() ? a.max() + b.max() : Expr();
    return IntSet::interval(lo, hi);
}

IntSet combineSub(Analyzer&, const IntSet& a, const IntSet& b, DataType) {
    if (bothPoints(a, b))
        return IntSet::singlePoint(a.min() - b.min());
    if (a.isNothing() || b.isNothing())
        return IntSet::nothing();
    Expr lo = a.hasLowerBound() && b.hasUpperBound() ? a.min() - b.max() : Expr();
    Expr hi = a.hasUpperBound() && b.hasLowerBound() ? a.max() - b.min() : Expr();
    return IntSet::interval(lo, hi);
}

IntSet combineMul(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType) {
    if (bothPoints(a, b))
        return IntSet::singlePoint(a.min() * b.min());
    if (a.isNothing() || b.isNothing())
        return IntSet::nothing();
    const IntSet& range = a.isSinglePoint() ? b : a;
    const IntSet& factor = a.isSinglePoint() ? a : b;
    if (!factor.isSinglePoint())
        return IntSet::everything();
    if (isZero(factor.min()))
        return factor;
    if (isOne(factor.min()))
        return range;
    return scaleByPoint(analyzer, range, factor.min(),
                        [](const Expr& x, const Expr& y) { return x * y; });
}

IntSet combineDiv(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType) {
    if (bothPoints(a, b))
        return IntSet::singlePoint(truncdiv(a.min(), b.min()));
    if (a.isNothing() || b.isNothing())
        return IntSet::nothing();
    if (!b.isSinglePoint())
        return IntSet::everything();
    requireNonZeroDivisor(b.min());
    if (isOne(b.min()))
        return a;
    return scaleByPoint(analyzer, a, b.min(),
                        [](const Expr& x, const Expr& y) { return truncdiv(x, y); });
}

IntSet combineFloorDiv(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType) {
    if (bothPoints(a, b))
        return IntSet::singlePoint(floordiv(a.min(), b.min()));
    if (a.isNothing() || b.isNothing())
        return IntSet::nothing();
    if (!b.isSinglePoint())
        return IntSet::everything();
    requireNonZeroDivisor(b.min());
    if (isOne(b.min()))
        return a;
    return scaleByPoint(analyzer, a, b.min(),
                        [](const Expr& x, const Expr& y) { return floordiv(x, y); });
}

IntSet combineMod(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType) {
    if (bothPoints(a, b))
        return IntSet::singlePoint(truncmod(a.min(), b.min()));
    if (a.isNothing() || b.isNothing())
        return IntSet::nothing();
    if (!b.isSinglePoint())
        return IntSet::everything();
    const Expr& divisor = b.min();
    requireNonZeroDivisor(divisor);
    // TVM assumes a non-negative dividend here; a truncated remainder of a possibly negative
    // one can be negative too, so we only drop the negative half when the dividend is >= 0.
    if (analyzer.canProveGreaterEqual(divisor, 0)) {
        if (a.hasLowerBound() && analyzer.canProveGreaterEqual(a.min(), 0))
            return IntSet::interval(makeZero(divisor.type()), divisor - 1);
        return IntSet::interval(makeZero(divisor.type()) - (divisor - 1), divisor - 1);
    }
    Expr bound = remainderBound(divisor);
    return IntSet::interval(makeZero(divisor.type()) - bound, bound);
}

IntSet combineFloorMod(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType) {
    if (bothPoints(a, b))
        return IntSet::singlePoint(floormod(a.min(), b.min()));
    if (a.isNothing() || b.isNothing())
        return IntSet::nothing();
    if (!b.isSinglePoint())
        return IntSet::everything();
    const Expr& divisor = b.min();
    requireNonZeroDivisor(divisor);
    if (!analyzer.canProveGreaterEqual(divisor, 0)) {
        Expr bound = remainderBound(divisor);
        return IntSet::interval(makeZero(divisor.type()) - bound, bound);
    }
    // a mod c = a - c*q on the whole interval when both ends share the quotient q.
    if (divisor.as<IntImmNode>() && a.hasLowerBound() && a.hasUpperBound()) {
        Expr qmin = floordiv(a.min(), divisor);
        Expr qmax = floordiv(a.max(), divisor);
        if (analyzer.canProve(eq(qmax, qmin)))
            return IntSet::interval(a.min() - divisor * qmin, a.max() - divisor * qmin);
    }
    return IntSet::interval(makeZero(divisor.type()), divisor - 1);
}

IntSet combineMin(Analyzer&, const IntSet& a, const IntSet& b, DataType) {
    if (bothPoints(a, b))
        return IntSet::singlePoint(min(a.min(), b.min()));
    if (a.isNothing() || b.isNothing())
        return IntSet::nothing();
    // min(-inf, x) = -inf; min(+inf, x) = x.
    Expr lo = a.hasLowerBound() && b.hasLowerBound() ? min(a.min(), b.min()) : Expr();
    Expr hi = !a.hasUpperBound() ? b.max() : !b.hasUpperBound() ? a.max() : min(a.max(), b.max());
    return IntSet::interval(lo, hi);
}

IntSet combineMax(Analyzer&, const IntSet& a, const IntSet& b, DataType) {
    if (bothPoints(a, b))
        return IntSet::singlePoint(max(a.min(), b.min()));
    if (a.isNothing() || b.isNothing())
        return IntSet::nothing();
    // max(-inf, x) = x; max(+inf, x) = +inf.
    Expr lo = !a.hasLowerBound() ? b.min() : !b.hasLowerBound() ? a.min() : max(a.min(), b.min());
    Expr hi = a.hasUpperBound() && b.hasUpperBound() ? max(a.max(), b.max()) : Expr();
    return IntSet::interval(lo, hi);
}

namespace {
Expr applyLogical(NodeKind kind, const Expr& a, const Expr& b) {
    switch (kind) {
    case NodeKind::EQ:
        return eq(a, b);
    case NodeKind::NE:
        return ne(a, b);
    case NodeKind::LT:
        return a < b;
    case NodeKind::LE:
        return a <= b;
    case NodeKind::GT:
        return a > b;
    case NodeKind::GE:
        return a >= b;
    case NodeKind::And:
        return a && b;
    case NodeKind::Or:
        return a || b;
    default:
        break;
    }
    BS_UNREACHABLE("not a logical operator");
    return Expr();
}
} // namespace

IntSet combineLogical(NodeKind kind, const IntSet& a, const IntSet& b, DataType type) {
    if (bothPoints(a, b))
        return IntSet::singlePoint(applyLogical(kind, a.min(), b.min()));
    return IntSet::interval(makeZero(type), makeOne(type));
}

IntSet combineUnion(const IntSet& a, const IntSet& b) {
    return unionSets({a, b}, /*simplify=*/false);
}

IntSet combineCast(DataType type, const IntSet& value) {
    if (value.isNothing())
        return value;
    if (value.isSinglePoint())
        return IntSet::singlePoint(cast(type, value.min()));
    Expr lo = value.hasLowerBound() ? cast(type, value.min()) : Expr();
    Expr hi = value.hasUpperBound() ? cast(type, value.max()) : Expr();
    return IntSet::interval(lo, hi);
}

IntSet combineRamp(Analyzer& analyzer, const IntSet& base, const Expr& stride, int lanes) {
    auto step = asConstInt(stride);
    if (!step)
        return IntSet::everything();
    DataType t = stride.type();
    Expr span = makeConst(t, *step * (lanes - 1));
    IntSet offsets =
        *step > 0 ? IntSet::interval(makeZero(t), span) : IntSet::interval(span, makeZero(t));
    return combineAdd(analyzer, base, offsets, t);
}

} // namespace bs
