// Rewrite rules for truncating division and remainder (TVM's rewrite_simplify.cc). Most need
// non-negative operands, since truncation rounds towards zero. Floor division is in
// Simplify_FloorDiv.cpp.

#include "arith/Simplify_Internal.h"

#include "ir/Op.h"

namespace bs {

namespace {

int64_t c(const Bindings& b, Slot s) { return b.c(s); }
bool nonNegative(RewriteSimplifier& s, const Expr& e) { return s.canProveGreaterEqual(e, 0); }

/// c1 >= 0, c2 > 0, c2 divides c1: the shape of the "pull a multiple out" rules.
bool divisibleFactor(const Bindings& b) {
    return c(b, kC1) >= 0 && c(b, kC2) > 0 && truncModInt(c(b, kC1), c(b, kC2)) == 0;
}

const RuleTable& truncDivRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        auto xyNonNeg = [](const Bindings& b, RewriteSimplifier& s) {
            return divisibleFactor(b) && nonNegative(s, b[kX]) && nonNegative(s, b[kY]);
        };
        return RuleTable{
            {truncdiv(truncdiv(x, c1), c2), truncdiv(x, c1 * c2),
             [](const Bindings& b, RewriteSimplifier&) { return c(b, kC1) > 0 && c(b, kC2) > 0; }},
            {truncdiv(truncdiv(x, c1) + c2, c3), truncdiv(x + c1 * c2, c1 * c3),
             [](const Bindings& b, RewriteSimplifier& s) {
                 return c(b, kC1) > 0 && c(b, kC2) >= 0 && c(b, kC3) > 0 && nonNegative(s, b[kX]);
             }},
            {truncdiv(x * c1, c2), x * truncdiv(c1, c2),
             [](const Bindings& b, RewriteSimplifier&) {
                 return c(b, kC1) > 0 && c(b, kC2) > 0 && truncModInt(c(b, kC1), c(b, kC2)) == 0;
             }},
            {truncdiv(x * c1, c2), truncdiv(x, truncdiv(c2, c1)),
             [](const Bindings& b, RewriteSimplifier&) {
                 return c(b, kC1) > 0 && c(b, kC2) > 0 && truncModInt(c(b, kC2), c(b, kC1)) == 0;
             }},
            {truncdiv(x, x), Expr(1)},
            {truncdiv(x * c1, x), c1},
            {truncdiv(c1 * x, x), c1},
            {truncdiv(x * c1 + y, c2), x * truncdiv(c1, c2) + truncdiv(y, c2), xyNonNeg},
            {truncdiv(min(x * c1, y), c2), min(x * truncdiv(c1, c2), truncdiv(y, c2)), xyNonNeg},
            {truncdiv(max(x * c1, y), c2), max(x * truncdiv(c1, c2), truncdiv(y, c2)), xyNonNeg},
            {truncdiv(y + x * c1, c2), truncdiv(y, c2) + x * truncdiv(c1, c2), xyNonNeg},
            {truncdiv(min(y, x * c1), c2), min(truncdiv(y, c2), x * truncdiv(c1, c2)), xyNonNeg},
            {truncdiv(max(y, x * c1), c2), max(truncdiv(y, c2), x * truncdiv(c1, c2)), xyNonNeg},
            {truncdiv(x * c1 + y + z, c2), x * truncdiv(c1, c2) + truncdiv(y + z, c2),
             [](const Bindings& b, RewriteSimplifier& s) {
                 return divisibleFactor(b) && nonNegative(s, b[kX]) &&
                        nonNegative(s, b[kY] + b[kZ]);
             }},
            {truncdiv(x * c1 - y + z, c2), x * truncdiv(c1, c2) + truncdiv(z - y, c2),
             [](const Bindings& b, RewriteSimplifier& s) {
                 return divisibleFactor(b) && nonNegative(s, b[kX]) &&
                        nonNegative(s, b[kZ] - b[kY]);
             }},
            {truncdiv(x * c1 + y - z, c2), x * truncdiv(c1, c2) + truncdiv(y - z, c2),
             [](const Bindings& b, RewriteSimplifier& s) {
                 return divisibleFactor(b) && nonNegative(s, b[kX]) &&
                        nonNegative(s, b[kY] - b[kZ]);
             }},
            {truncdiv(y + x * c1 + z, c2), x * truncdiv(c1, c2) + truncdiv(y + z, c2),
             [](const Bindings& b, RewriteSimplifier& s) {
                 return c(b, kC1) > 0 && divisibleFactor(b) && nonNegative(s, b[kX]) &&
                        nonNegative(s, b[kY] + b[kZ]);
             }},
            {truncdiv(x + c1, c2), truncdiv(x, c2) + truncdiv(c1, c2),
             [](const Bindings& b, RewriteSimplifier& s) {
                 return c(b, kC1) > 0 && divisibleFactor(b) && nonNegative(s, b[kX]);
             }},
            {truncdiv(x + y, x), truncdiv(y, x) + 1,
             [](const Bindings& b, RewriteSimplifier& s) {
                 return nonNegative(s, b[kX]) && nonNegative(s, b[kY]);
             }},
            {truncdiv(y + x, x), truncdiv(y, x) + 1,
             [](const Bindings& b, RewriteSimplifier& s) {
                 return nonNegative(s, b[kX]) && nonNegative(s, b[kY]);
             }},
            {truncdiv(x * y, y), x,
             [](const Bindings& b, RewriteSimplifier& s) {
                 return nonNegative(s, b[kX]) && nonNegative(s, b[kY]);
             }},
            {truncdiv(y * x, y), x,
             [](const Bindings& b, RewriteSimplifier& s) {
                 return nonNegative(s, b[kX]) && nonNegative(s, b[kY]);
             }},
            {truncdiv(x * z + y, z), x + truncdiv(y, z),
             [](const Bindings& b, RewriteSimplifier& s) {
                 return nonNegative(s, b[kX]) && nonNegative(s, b[kY]) && nonNegative(s, b[kZ]);
             }},
            {truncdiv(y + x * z, z), truncdiv(y, z) + x,
             [](const Bindings& b, RewriteSimplifier& s) {
                 return nonNegative(s, b[kX]) && nonNegative(s, b[kY]) && nonNegative(s, b[kZ]);
             }},
        };
    }();
    return rules;
}

const RuleTable& truncModRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            {truncmod(x * c1, c2), Expr(0),
             [](const Bindings& b, RewriteSimplifier&) {
                 return c(b, kC2) != 0 && truncModInt(c(b, kC1), c(b, kC2)) == 0;
             }},
            {truncmod(x * c1 + y, c2), truncmod(y, c2),
             [](const Bindings& b, RewriteSimplifier& s) {
                 return c(b, kC2) > 0 && truncModInt(c(b, kC1), c(b, kC2)) == 0 &&
                        nonNegative(s, b[kX] * b[kC1]) && nonNegative(s, b[kY]);
             }},
            {truncmod(x + c1, c2), truncmod(x, c2),
             [](const Bindings& b, RewriteSimplifier& s) {
                 return c(b, kC2) > 0 && c(b, kC1) >= 0 && truncModInt(c(b, kC1), c(b, kC2)) == 0 &&
                        nonNegative(s, b[kX]);
             }},
            {truncmod(x + y * c1, c2), truncmod(x, c2),
             [](const Bindings& b, RewriteSimplifier& s) {
                 return c(b, kC2) > 0 && truncModInt(c(b, kC1), c(b, kC2)) == 0 &&
                        nonNegative(s, b[kX]) && nonNegative(s, b[kY] * b[kC1]);
             }},
            // x % c == x % (-c) for truncating division.
            recursiveRule(truncmod(x, c1), truncmod(x, 0 - c1),
                          [](const Bindings& b, RewriteSimplifier&) { return c(b, kC1) < 0; }),
        };
    }();
    return rules;
}

} // namespace

Expr RewriteSimplifier::visit(const DivNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return truncdiv(a, b); });
    if (!ret.as<DivNode>() || !isIndexType(ret.type()))
        return ret;
    return applyRules(ret, truncDivRules()).value_or(ret);
}

Expr RewriteSimplifier::visit(const ModNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return truncmod(a, b); });
    const auto* mod = ret.as<ModNode>();
    if (!mod || !isIndexType(ret.type()))
        return ret;
    if (auto r = applyRules(ret, truncModRules()))
        return *r;
    // Modular facts: a non-negative x = k*c*m + r has x % c == r % c.
    auto divisor = asConstInt(mod->b);
    if (divisor && *divisor > 0) {
        ModularSet m = m_parent.modularSet(mod->a);
        if (truncModInt(m.coeff, *divisor) == 0 && canProveGreaterEqual(mod->a, 0))
            return makeConst(ret.type(), truncModInt(m.base, *divisor));
    }
    return ret;
}

} // namespace bs
