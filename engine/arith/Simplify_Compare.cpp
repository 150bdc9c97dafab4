// Rewrite rules for comparisons (TVM's rewrite_simplify.cc). A comparison whose outcome follows
// from the constant bounds of `a - b` becomes a constant; otherwise it is normalized to `<`,
// `<=`, `==` or `!=` (`a > b` is `b < a`), common terms and factors cancel and constants move to
// one side.

#include "arith/Simplify_Internal.h"

#include "ir/Op.h"

#include <tuple>

namespace bs {

namespace {

int64_t c(const Bindings& b, Slot s) { return b.c(s); }
bool c1Positive(const Bindings& b, RewriteSimplifier&) { return c(b, kC1) > 0; }
bool c1Negative(const Bindings& b, RewriteSimplifier&) { return c(b, kC1) < 0; }
bool c2Positive(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) > 0; }

template <bool C1Positive, bool C1Strict, bool C2Positive>
bool signs(const Bindings& b, RewriteSimplifier&) {
    bool first = C1Positive ? (C1Strict ? c(b, kC1) > 0 : c(b, kC1) >= 0)
                            : (C1Strict ? c(b, kC1) < 0 : c(b, kC1) <= 0);
    bool second = C2Positive ? c(b, kC2) > 0 : c(b, kC2) < 0;
    return first && second;
}

const RuleTable& eqRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            {eq(c1, x), eq(x, c1)},
            {eq(x - c1, c2), eq(x, c2 + c1)},
            {eq(c1 - x, c2), eq(x, c1 - c2)},
            {eq(x + c1, c2), eq(x, c2 - c1)},
            recursiveRule(eq(x * y, 0), eq(x, 0) || eq(y, 0)),
            {eq(x, x), makeBool(true)},
        };
    }();
    return rules;
}

const RuleTable& ltRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            // Common terms cancel.
            {x + y < x + z, y < z},
            {x + y < z + x, y < z},
            {y + x < x + z, y < z},
            {y + x < z + x, y < z},
            {y - x < z - x, y < z},
            {x - y < x - z, z < y},
            {x < x + z, 0 < z},
            {x < z + x, 0 < z},
            {x < x - z, z < 0},
            {x * c1 < y * c1, x < y, c1Positive},
            {x * c1 < y * c1, y < x, c1Negative},
            // A constant factor moves to the constant side (truncating division, exact here).
            {x * c2 < c1, x < truncdiv(c1 - 1, c2) + 1, signs<true, true, true>},
            {x * c2 < c1, x < truncdiv(c1, c2), signs<false, false, true>},
            {x * c2 < c1, truncdiv(c1 - 1, c2) - 1 < x, signs<true, true, false>},
            {x * c2 < c1, truncdiv(c1, c2) < x, signs<false, false, false>},
            {c1 < x * c2, truncdiv(c1 + 1, c2) - 1 < x, signs<false, true, true>},
            {c1 < x * c2, truncdiv(c1, c2) < x, signs<true, false, true>},
            {c1 < x * c2, x < truncdiv(c1 + 1, c2) + 1, signs<false, true, false>},
            {c1 < x * c2, x < truncdiv(c1, c2), signs<true, false, false>},
            {truncdiv(x, c1) < c2, x < c1 * c2, signs<true, true, true>},
            {truncdiv(x, c1) < c2, x < c1 * (c2 - 1) + 1,
             [](const Bindings& b, RewriteSimplifier&) { return c(b, kC1) > 0 && c(b, kC2) <= 0; }},
            {c1 < truncdiv(x, c2), (c1 + 1) * c2 - 1 < x, signs<true, false, true>},
            {c1 < truncdiv(x, c2), c1 * c2 < x, signs<false, true, true>},
            // x - (x / c) * c == x % c.
            {truncdiv(x, c1) * c1 < x, 0 < truncmod(x, c1), c1Positive},
            {truncdiv(x, c1) * c1 < x + y, 0 < truncmod(x, c1) + y, c1Positive},
            {truncdiv(x, c1) * c1 < x - y, y < truncmod(x, c1), c1Positive},
            {truncdiv(x + c2, c1) * c1 < x, c2 < truncmod(x + c2, c1), c1Positive},
            {truncdiv(x + c2, c1) * c1 < x + y, c2 < truncmod(x + c2, c1) + y, c1Positive},
            {truncdiv(x + c2, c1) * c1 < x - y, y < truncmod(x + c2, c1) + (0 - c2), c1Positive},
            {floordiv(x, c1) < c2, x < c1 * c2, c1Positive},
            {c1 < floordiv(x, c2), (c1 + 1) * c2 - 1 < x, c2Positive},
            {floordiv(x, c1) * c1 < x, 0 < floormod(x, c1), c1Positive},
            {floordiv(x, c1) * c1 < x + y, 0 < floormod(x, c1) + y, c1Positive},
            {floordiv(x, c1) * c1 < x - y, y < floormod(x, c1), c1Positive},
            {floordiv(x + c2, c1) * c1 < x, c2 < floormod(x + c2, c1), c1Positive},
            {floordiv(x + c2, c1) * c1 < x + y, c2 < floormod(x + c2, c1) + y, c1Positive},
            {floordiv(x + c2, c1) * c1 < x - y, y < floormod(x + c2, c1) + (0 - c2), c1Positive},
            // min/max against a value split into two comparisons.
            recursiveRule(min(x, y) < z, x < z || y < z),
            recursiveRule(max(x, y) < z, x < z && y < z),
            recursiveRule(z < min(x, y), z < x && z < y),
            recursiveRule(z < max(x, y), z < x || z < y),
            // Constants to one side.
            recursiveRule(c1 < x + c2, c1 - c2 < x),
            recursiveRule(c1 - x < c2, c1 - c2 < x),
            recursiveRule(c1 < c2 - x, x < c2 - c1),
            recursiveRule(x + c1 < c2, x < c2 - c1),
            recursiveRule(c1 < x - c2, c1 + c2 < x),
            recursiveRule(x - c2 < c1, x < c1 + c2),
            recursiveRule(x < c1 - y, x + y < c1),
            recursiveRule(c1 - y < x, c1 < x + y),
            recursiveRule(x < c1 + y, x - y < c1),
            recursiveRule(c1 + y < x, c1 < x - y),
        };
    }();
    return rules;
}

/// `x + c` as (x, c), `x - c` as (x, -c), anything else as (e, 0).
std::tuple<Expr, int64_t> constantOffset(const Expr& e) {
    if (const auto* add = e.as<AddNode>()) {
        if (auto v = asConstInt(add->b))
            return {add->a, *v};
    }
    if (const auto* sub = e.as<SubNode>()) {
        if (auto v = asConstInt(sub->b))
            return {sub->a, -*v};
    }
    return {e, 0};
}

/// a + p < b + q as one comparison with a single constant (or `<=` when the offsets differ
/// by one).
std::optional<Expr> mergeConstants(const LTNode* op) {
    auto [lhs, lhsOffset] = constantOffset(op->a);
    auto [rhs, rhsOffset] = constantOffset(op->b);
    if (lhsOffset == 0 && rhsOffset == 0)
        return std::nullopt;
    int64_t diff = rhsOffset - lhsOffset;
    if (diff == 0)
        return lhs < rhs;
    if (diff == 1)
        return lhs <= rhs;
    if (diff < 0 && rhsOffset != 0)
        return lhs + makeConst(lhs.type(), -diff) < rhs;
    if (diff > 0 && lhsOffset != 0)
        return lhs < rhs + makeConst(rhs.type(), diff);
    return std::nullopt;
}

} // namespace

Expr RewriteSimplifier::rewriteEQ(const Expr& e) {
    const auto* op = e.as<EQNode>();
    if (!op || !isIndexType(op->a.type()))
        return e;
    CompareResult r = tryCompare(op->a, op->b);
    if (r == CompareResult::EQ)
        return makeBool(true);
    if (r == CompareResult::NE || r == CompareResult::GT || r == CompareResult::LT)
        return makeBool(false);
    return applyRules(e, eqRules()).value_or(e);
}

Expr RewriteSimplifier::rewriteLT(const Expr& e) {
    const auto* op = e.as<LTNode>();
    if (!op || !isIndexType(op->a.type()))
        return e;
    CompareResult r = tryCompare(op->a, op->b);
    if (r == CompareResult::LT)
        return makeBool(true);
    if (r == CompareResult::EQ || r == CompareResult::GT || r == CompareResult::GE)
        return makeBool(false);
    if (auto rewritten = applyRules(e, ltRules()))
        return *rewritten;
    if (auto merged = mergeConstants(op))
        return recursiveRewrite(*merged);
    // a < b with a, b multiples of g is a/g < b/g.
    ModularSet ma = m_parent.modularSet(op->a), mb = m_parent.modularSet(op->b);
    int64_t g = zeroAwareGcd(zeroAwareGcd(ma.base, ma.coeff), zeroAwareGcd(mb.base, mb.coeff));
    if (g > 1) {
        Expr factor = makeConst(op->a.type(), g);
        return recursiveRewrite(floordiv(op->a, factor) < floordiv(op->b, factor));
    }
    return e;
}

Expr RewriteSimplifier::visit(const EQNode* op) {
    Expr ret = mutateChildren(op, eq);
    if (!ret.as<EQNode>())
        return ret;
    if (auto known = matchLiteralConstraint(ret))
        return *known;
    return rewriteEQ(ret);
}

Expr RewriteSimplifier::visit(const NENode* op) {
    Expr ret = mutateChildren(op, ne);
    const auto* node = ret.as<NENode>();
    if (!node)
        return ret;
    if (auto known = matchLiteralConstraint(ret))
        return *known;
    if (isIndexType(node->a.type())) {
        CompareResult r = tryCompare(node->a, node->b);
        if (r == CompareResult::NE || r == CompareResult::GT || r == CompareResult::LT)
            return makeBool(true);
        if (r == CompareResult::EQ)
            return makeBool(false);
        // Known a >= b: a != b is b < a. Known a <= b: a != b is a < b.
        if (r == CompareResult::GE)
            return rewriteLT(LTNode::make(node->b, node->a));
        if (r == CompareResult::LE)
            return rewriteLT(LTNode::make(node->a, node->b));
    }
    return rewriteNot(!rewriteEQ(EQNode::make(node->a, node->b)));
}

Expr RewriteSimplifier::visit(const LTNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return a < b; });
    if (!ret.as<LTNode>())
        return ret;
    if (auto known = matchLiteralConstraint(ret))
        return *known;
    return rewriteLT(ret);
}

/// a <= b is !(b < a), simplified as such; what stays `<=` is then checked against bounds.
Expr RewriteSimplifier::visit(const LENode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return a <= b; });
    const auto* node = ret.as<LENode>();
    if (!node)
        return ret;
    if (auto known = matchLiteralConstraint(ret))
        return *known;
    ret = rewriteNot(!rewriteLT(LTNode::make(node->b, node->a)));
    const auto* le = ret.as<LENode>();
    if (!le || !isIndexType(le->a.type()))
        return ret;
    CompareResult r = tryCompare(le->a, le->b);
    if (r == CompareResult::LE || r == CompareResult::LT || r == CompareResult::EQ)
        return makeBool(true);
    if (r == CompareResult::GT)
        return makeBool(false);
    if (r == CompareResult::NE)
        return rewriteLT(LTNode::make(le->a, le->b));
    if (r == CompareResult::GE)
        return rewriteEQ(EQNode::make(le->a, le->b));
    return ret;
}

Expr RewriteSimplifier::visit(const GTNode* op) { return visitExpr(op->b < op->a); }

Expr RewriteSimplifier::visit(const GENode* op) { return visitExpr(op->b <= op->a); }

} // namespace bs
