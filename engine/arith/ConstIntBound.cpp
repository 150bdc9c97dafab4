#include "arith/ConstIntBound.h"

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "support/Check.h"

#include <algorithm>

namespace bs {

namespace {

constexpr int64_t kPosInf = ConstIntBound::kPosInf;
constexpr int64_t kNegInf = ConstIntBound::kNegInf;

/// x + y where either may be infinite; a finite overflow saturates to the infinity.
int64_t infAwareAdd(int64_t x, int64_t y) {
    if (x == kPosInf || x == kNegInf)
        return x;
    if (y == kPosInf || y == kNegInf)
        return y;
    int64_t sum;
    if (__builtin_add_overflow(x, y, &sum) || sum == std::numeric_limits<int64_t>::min())
        return x > 0 ? kPosInf : kNegInf;
    return sum;
}

int64_t infAwareMul(int64_t x, int64_t y) {
    int64_t product;
    bool infinite = x == kPosInf || x == kNegInf || y == kPosInf || y == kNegInf;
    if (!infinite && !__builtin_mul_overflow(x, y, &product) &&
        product != std::numeric_limits<int64_t>::min())
        return product;
    if (x == 0 || y == 0)
        return 0;
    return (x > 0) == (y > 0) ? kPosInf : kNegInf;
}

int64_t infAwareTruncDiv(int64_t x, int64_t y) {
    if (x == kPosInf || x == kNegInf)
        return y > 0 ? x : -x;
    if (y == kPosInf || y == kNegInf)
        return 0;
    return truncDivInt(x, y);
}

int64_t infAwareFloorDiv(int64_t x, int64_t y) {
    if (x == kPosInf || x == kNegInf)
        return y > 0 ? x : -x;
    if (y == kPosInf || y == kNegInf)
        return (x < 0) == (y > 0) && x != 0 ? -1 : 0;
    return floorDivInt(x, y);
}

ConstIntBound unionOf(const ConstIntBound& a, const ConstIntBound& b) {
    return {std::min(a.minValue, b.minValue), std::max(a.maxValue, b.maxValue)};
}

ConstIntBound intersectOf(const ConstIntBound& a, const ConstIntBound& b) {
    return {std::max(a.minValue, b.minValue), std::min(a.maxValue, b.maxValue)};
}

/// Bounds of a binary operator monotonic in each argument: its extremes are at the corners.
template <typename F> ConstIntBound corners(const ConstIntBound& a, const ConstIntBound& b, F op) {
    int64_t v[4] = {op(a.minValue, b.minValue), op(a.minValue, b.maxValue),
                    op(a.maxValue, b.minValue), op(a.maxValue, b.maxValue)};
    return {*std::min_element(v, v + 4), *std::max_element(v, v + 4)};
}

/// A divisor that may be 0 is assumed non-zero (a valid program never divides by zero; shapes
/// `n >= 0` used as divisors mean `n > 0`), as TVM does.
ConstIntBound assumeNonZero(ConstIntBound divisor) {
    if (divisor.minValue == 0)
        divisor.minValue = 1;
    if (divisor.maxValue == 0)
        divisor.maxValue = -1;
    return divisor;
}

/// Division bounds: a divisor range spanning 0 is split into its negative and positive parts.
template <typename F> ConstIntBound divisionBound(const ConstIntBound& a, ConstIntBound b, F op) {
    if (b.minValue < 0 && b.maxValue > 0) {
        ConstIntBound neg = corners(a, ConstIntBound(b.minValue, -1), op);
        ConstIntBound pos = corners(a, ConstIntBound(1, b.maxValue), op);
        return unionOf(neg, pos);
    }
    return corners(a, b, op);
}

} // namespace

std::string ConstIntBound::toString() const {
    auto end = [](int64_t v) -> std::string {
        if (v == kPosInf)
            return "pos_inf";
        if (v == kNegInf)
            return "neg_inf";
        return std::to_string(v);
    };
    return "[" + end(minValue) + ", " + end(maxValue) + "]";
}

ConstIntBound ConstIntBound::everything(DataType type) {
    if (type.isBool())
        return {0, 1};
    if (!type.isIntegral())
        return {kNegInf, kPosInf};
    int valueBits = type.bits() - (type.isInt() ? 1 : 0);
    if (valueBits >= 63)
        return {type.isUInt() ? 0 : kNegInf, kPosInf};
    int64_t top = (int64_t(1) << valueBits) - 1;
    return {type.isUInt() ? 0 : -(int64_t(1) << valueBits), top};
}

/// The bound of each node kind, one small function per operator (TVM's const_int_bound.cc).
class ConstIntBoundEvaluator : public ExprFunctor<ConstIntBound> {
public:
    explicit ConstIntBoundEvaluator(const ConstIntBoundAnalyzer& owner) : m_owner(owner) {}

    ConstIntBound visitExpr(const Expr& e) override {
        ConstIntBound result = ExprFunctor<ConstIntBound>::visitExpr(e);
        // Facts from enclosing conditions narrow matching sub-expressions.
        for (const auto& [expr, bound] : m_owner.m_constraints) {
            if (structuralEqual(expr, e))
                result = intersectOf(result, bound);
        }
        return result;
    }

protected:
    using ExprFunctor<ConstIntBound>::visit;

    ConstIntBound visitExprDefault(const ExprNode* op) override {
        return ConstIntBound::everything(op->type);
    }
    ConstIntBound visit(const IntImmNode* op) override { return {op->value, op->value}; }
    ConstIntBound visit(const VarNode* op) override {
        Var v(op);
        if (auto it = m_lets.find(v); it != m_lets.end())
            return it->second;
        if (auto it = m_owner.m_varBounds.find(v); it != m_owner.m_varBounds.end())
            return it->second;
        if (op->isSizeVar)
            return {0, kPosInf};
        return ConstIntBound::everything(op->type);
    }
    ConstIntBound visit(const AddNode* op) override {
        ConstIntBound a = visitExpr(op->a), b = visitExpr(op->b);
        return {infAwareAdd(a.minValue, b.minValue), infAwareAdd(a.maxValue, b.maxValue)};
    }
    ConstIntBound visit(const SubNode* op) override {
        ConstIntBound a = visitExpr(op->a), b = visitExpr(op->b);
        return {infAwareAdd(a.minValue, -b.maxValue), infAwareAdd(a.maxValue, -b.minValue)};
    }
    ConstIntBound visit(const MulNode* op) override {
        return corners(visitExpr(op->a), visitExpr(op->b), infAwareMul);
    }
    ConstIntBound visit(const DivNode* op) override {
        return divisionBound(visitExpr(op->a), assumeNonZero(visitExpr(op->b)), infAwareTruncDiv);
    }
    ConstIntBound visit(const FloorDivNode* op) override {
        return divisionBound(visitExpr(op->a), assumeNonZero(visitExpr(op->b)), infAwareFloorDiv);
    }
    ConstIntBound visit(const ModNode* op) override {
        ConstIntBound a = visitExpr(op->a), b = assumeNonZero(visitExpr(op->b));
        if (b.minValue <= 0)
            return ConstIntBound::everything(op->type);
        int64_t cap = infAwareAdd(b.maxValue, -1);
        if (a.minValue >= 0)
            return a.maxValue < b.minValue ? a : ConstIntBound(0, std::min(a.maxValue, cap));
        // Truncating remainder keeps the sign of the dividend.
        return {std::max(a.minValue, -cap), std::min(std::max(a.maxValue, int64_t(0)), cap)};
    }
    ConstIntBound visit(const FloorModNode* op) override {
        ConstIntBound a = visitExpr(op->a), b = assumeNonZero(visitExpr(op->b));
        if (b.minValue > 0) {
            int64_t cap = infAwareAdd(b.maxValue, -1);
            if (a.minValue >= 0)
                return a.maxValue < b.minValue ? a : ConstIntBound(0, std::min(a.maxValue, cap));
            return {0, cap};
        }
        // floormod(a, b) lies between min(0, b_min + 1) and max(0, b_max - 1).
        ConstIntBound r(std::min(int64_t(0), infAwareAdd(b.minValue, 1)),
                        std::max(int64_t(0), infAwareAdd(b.maxValue, -1)));
        return intersectOf(r, ConstIntBound::everything(op->type));
    }
    ConstIntBound visit(const MinNode* op) override {
        ConstIntBound a = visitExpr(op->a), b = visitExpr(op->b);
        return {std::min(a.minValue, b.minValue), std::min(a.maxValue, b.maxValue)};
    }
    ConstIntBound visit(const MaxNode* op) override {
        ConstIntBound a = visitExpr(op->a), b = visitExpr(op->b);
        return {std::max(a.minValue, b.minValue), std::max(a.maxValue, b.maxValue)};
    }
    ConstIntBound visit(const SelectNode* op) override {
        return unionOf(visitExpr(op->trueValue), visitExpr(op->falseValue));
    }
    ConstIntBound visit(const CastNode* op) override {
        ConstIntBound inner =
            op->value.type().isFloat() ? ConstIntBound::everything(op->type) : visitExpr(op->value);
        return intersectOf(inner, ConstIntBound::everything(op->type));
    }
    ConstIntBound visit(const BroadcastNode* op) override { return visitExpr(op->value); }
    ConstIntBound visit(const RampNode* op) override {
        Expr last = op->base + makeConst(op->stride.type(), int64_t(op->lanes - 1)) * op->stride;
        return unionOf(visitExpr(op->base), visitExpr(last));
    }
    ConstIntBound visit(const LetNode* op) override {
        ConstIntBound value = visitExpr(op->value);
        auto saved = m_lets.find(op->var);
        std::optional<ConstIntBound> previous;
        if (saved != m_lets.end())
            previous = saved->second;
        m_lets[op->var] = value;
        ConstIntBound body = visitExpr(op->body);
        if (previous)
            m_lets[op->var] = *previous;
        else
            m_lets.erase(op->var);
        return body;
    }

private:
    const ConstIntBoundAnalyzer& m_owner;
    VarMap<ConstIntBound> m_lets;
};

ConstIntBound ConstIntBoundAnalyzer::operator()(const Expr& e) const {
    ConstIntBoundEvaluator evaluator(*this);
    return evaluator.visitExpr(e);
}

void ConstIntBoundAnalyzer::bind(const Var& var, const Range& r, bool allowOverride) {
    ConstIntBound minBound = (*this)(r.min);
    ConstIntBound extentBound = (*this)(r.extent);
    ConstIntBound bound(minBound.minValue,
                        infAwareAdd(minBound.maxValue, infAwareAdd(extentBound.maxValue, -1)));
    update(var, bound, allowOverride);
}

void ConstIntBoundAnalyzer::update(const Var& var, const ConstIntBound& bound, bool allowOverride) {
    if (!allowOverride) {
        auto it = m_varBounds.find(var);
        BS_CHECK(it == m_varBounds.end() || it->second == bound)
            << "variable " << var.name() << " rebound from " << it->second.toString() << " to "
            << bound.toString();
    }
    m_varBounds[var] = bound;
}

namespace {

/// One (expression, bound) fact per conjunct of `cond` of the forms `x < c`, `c <= x`, `x == c`.
void detectBounds(const Expr& cond, std::vector<std::pair<Expr, ConstIntBound>>* out) {
    if (const auto* a = cond.as<AndNode>()) {
        detectBounds(a->a, out);
        detectBounds(a->b, out);
        return;
    }
    auto add = [out](const Expr& e, int64_t lo, int64_t hi) {
        if (!e.as<IntImmNode>())
            out->emplace_back(e, ConstIntBound(lo, hi));
    };
    auto sides = [&](const auto* op, auto onRightConst, auto onLeftConst) {
        if (auto c = asConstInt(op->b))
            onRightConst(op->a, *c);
        else if (auto c2 = asConstInt(op->a))
            onLeftConst(op->b, *c2);
    };
    if (const auto* op = cond.as<LTNode>())
        sides(
            op, [&](const Expr& x, int64_t c) { add(x, kNegInf, c - 1); },
            [&](const Expr& x, int64_t c) { add(x, c + 1, kPosInf); });
    else if (const auto* op = cond.as<LENode>())
        sides(
            op, [&](const Expr& x, int64_t c) { add(x, kNegInf, c); },
            [&](const Expr& x, int64_t c) { add(x, c, kPosInf); });
    else if (const auto* op = cond.as<GTNode>())
        sides(
            op, [&](const Expr& x, int64_t c) { add(x, c + 1, kPosInf); },
            [&](const Expr& x, int64_t c) { add(x, kNegInf, c - 1); });
    else if (const auto* op = cond.as<GENode>())
        sides(
            op, [&](const Expr& x, int64_t c) { add(x, c, kPosInf); },
            [&](const Expr& x, int64_t c) { add(x, kNegInf, c); });
    else if (const auto* op = cond.as<EQNode>())
        sides(
            op, [&](const Expr& x, int64_t c) { add(x, c, c); },
            [&](const Expr& x, int64_t c) { add(x, c, c); });
}

} // namespace

size_t ConstIntBoundAnalyzer::enterConstraint(const Expr& condition) {
    size_t before = m_constraints.size();
    detectBounds(condition, &m_constraints);
    return m_constraints.size() - before;
}

void ConstIntBoundAnalyzer::exitConstraint(size_t count) {
    BS_CHECK(count <= m_constraints.size()) << "constraint scopes exited out of order";
    m_constraints.resize(m_constraints.size() - count);
}

} // namespace bs
