// Rewrite rules for min and max (TVM's rewrite_simplify.cc). A side that provably dominates by
// constant bounds wins first; then structural rules: equal bases with constant offsets
// (`min(x, x + 1)` is `x`), absorption (`min(max(x, y), x)` is `x`), distribution over + and -,
// and scaling by constants.

#include "arith/Simplify_Internal.h"

#include "ir/Equality.h"
#include "ir/Op.h"

namespace bs {

namespace {

int64_t c(const Bindings& b, Slot s) { return b.c(s); }
bool c1LessC2(const Bindings& b, RewriteSimplifier&) { return c(b, kC1) < c(b, kC2); }
bool c1GreaterC2(const Bindings& b, RewriteSimplifier&) { return c(b, kC1) > c(b, kC2); }
bool c1Negative(const Bindings& b, RewriteSimplifier&) { return c(b, kC1) < 0; }
bool c1Positive(const Bindings& b, RewriteSimplifier&) { return c(b, kC1) > 0; }
bool c1NonPositive(const Bindings& b, RewriteSimplifier&) { return c(b, kC1) <= 0; }
bool c2Positive(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) > 0; }
bool c2NonZero(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) != 0; }
/// `(x + c2 - 1) / c2 * c2` rounds x up to a multiple of c2.
bool roundsUp(const Bindings& b, RewriteSimplifier&) {
    return c(b, kC2) > 0 && c(b, kC1) + 1 == c(b, kC2);
}
bool roundsUpPositive(const Bindings& b, RewriteSimplifier& s) {
    return roundsUp(b, s) && s.canProveGreaterEqual(b[kX], 1);
}
bool c2MultipleOfPositiveC1(const Bindings& b, RewriteSimplifier&) {
    return c(b, kC1) > 0 && truncModInt(c(b, kC2), c(b, kC1)) == 0;
}
bool c2MultipleOfNegativeC1(const Bindings& b, RewriteSimplifier&) {
    return c(b, kC1) < 0 && truncModInt(c(b, kC2), c(b, kC1)) == 0;
}

const RuleTable& minRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            {min(x + c1, x + c2), x + c1, c1LessC2},
            {min(x + c1, x + c2), x + c2},
            {min(x + c1, x), x + c1, c1Negative},
            {min(x + c1, x), x},
            {min(x, x + c1), x + c1, c1Negative},
            {min(x, x + c1), x},
            {min(c1 - x, c2 - x), c1 - x, c1LessC2},
            {min(c1 - x, c2 - x), c2 - x},
            // Rounding x up to a multiple never goes below x.
            {min(truncdiv(x + c1, c2) * c2, x), x, roundsUp},
            {min(x, truncdiv(x + c1, c2) * c2), x, roundsUp},
            {min(floordiv(x + c1, c2) * c2, x), x, roundsUp},
            {min(x, floordiv(x + c1, c2) * c2), x, roundsUp},
            {min(truncdiv(x + c1, c2) * c2, max(x, c2)), max(x, c2), roundsUpPositive},
            {min(max(x, c2), truncdiv(x + c1, c2) * c2), max(x, c2), roundsUpPositive},
            {min(floordiv(x + c1, c2) * c2, max(x, c2)), max(x, c2), roundsUpPositive},
            {min(max(x, c2), floordiv(x + c1, c2) * c2), max(x, c2), roundsUpPositive},
            {min(x, floordiv(x, c2) * c2), floordiv(x, c2) * c2, c2Positive},
            {min(floordiv(x, c2) * c2, x), floordiv(x, c2) * c2, c2Positive},
            // Absorption.
            {min(max(x, y), min(x, y)), min(x, y)},
            {min(max(x, y), min(y, x)), min(x, y)},
            {min(min(x, y), max(x, y)), min(x, y)},
            {min(min(x, y), max(y, x)), min(x, y)},
            {min(min(x, y), x), min(x, y)},
            {min(min(x, y), y), min(x, y)},
            {min(x, min(x, y)), min(x, y)},
            {min(y, min(x, y)), min(x, y)},
            {min(max(x, y), x), x},
            {min(max(y, x), x), x},
            {min(x, max(x, y)), x},
            {min(x, max(y, x)), x},
            {min(min(min(x, y), z), y), min(min(x, y), z)},
            {min(min(min(min(x, y), z), s1), y), min(min(min(x, y), z), s1)},
            {min(min(min(min(min(x, y), z), s1), s2), y), min(min(min(min(x, y), z), s1), s2)},
            // Distribution.
            {min(max(x, y), max(x, z)), max(min(y, z), x)},
            {min(max(x, y), max(z, x)), max(min(y, z), x)},
            {min(max(y, x), max(x, z)), max(min(y, z), x)},
            {min(max(y, x), max(z, x)), max(min(y, z), x)},
            {min(min(x, y), min(x, z)), min(min(y, z), x)},
            {min(min(x, y), min(z, x)), min(min(y, z), x)},
            {min(min(y, x), min(x, z)), min(min(y, z), x)},
            {min(min(y, x), min(z, x)), min(min(y, z), x)},
            {min(y + x, z + x), min(y, z) + x},
            {min(y + x, x + z), min(y, z) + x},
            {min(x + y, x + z), min(y, z) + x},
            {min(x + y, z + x), min(y, z) + x},
            {min(y - x, z - x), min(y, z) - x},
            {min(x - y, x - z), x - max(y, z)},
            {min(min(x, c1), c2), min(x, min(c1, c2))},
            // Scaling by a constant (a negative one swaps min and max).
            {min(truncdiv(x, c1), truncdiv(y, c1)), truncdiv(min(x, y), c1), c1Positive},
            {min(truncdiv(x, c1), truncdiv(y, c1)), truncdiv(max(x, y), c1), c1Negative},
            {min(floordiv(x, c1), floordiv(y, c1)), floordiv(min(x, y), c1), c1Positive},
            {min(floordiv(x, c1), floordiv(y, c1)), floordiv(max(x, y), c1), c1Negative},
            {min(x * c1, y * c1), min(x, y) * c1, c1Positive},
            {min(x * c1, y * c1), max(x, y) * c1, c1NonPositive},
            {min(x * c1, c2), min(x, floordiv(c2, c1)) * c1, c2MultipleOfPositiveC1},
            {min(x * c1, c2), max(x, floordiv(c2, c1)) * c1, c2MultipleOfNegativeC1},
            // Canonical order: constants outermost.
            recursiveRule(min(min(x, c1), y), min(min(x, y), c1)),
            recursiveRule(min(c1 - x, c2), c1 - max(x, c1 - c2), c2NonZero),
        };
    }();
    return rules;
}

const RuleTable& maxRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            {max(x + c1, x + c2), x + c1, c1GreaterC2},
            {max(x + c1, x + c2), x + c2},
            {max(x + c1, x), x + c1, c1Positive},
            {max(x + c1, x), x},
            {max(x, x + c1), x + c1, c1Positive},
            {max(x, x + c1), x},
            {max(c1 - x, c2 - x), c1 - x, c1GreaterC2},
            {max(c1 - x, c2 - x), c2 - x},
            // Rounding x up to a multiple never goes below x; rounding down never above.
            {max(truncdiv(x + c1, c2) * c2, x), truncdiv(x + c1, c2) * c2, roundsUp},
            {max(x, truncdiv(x + c1, c2) * c2), truncdiv(x + c1, c2) * c2, roundsUp},
            {max(floordiv(x + c1, c2) * c2, x), floordiv(x + c1, c2) * c2, roundsUp},
            {max(x, floordiv(x + c1, c2) * c2), floordiv(x + c1, c2) * c2, roundsUp},
            {max(floordiv(x, c2) * c2, x), x, c2Positive},
            {max(x, floordiv(x, c2) * c2), x, c2Positive},
            // Absorption.
            {max(min(x, y), x), x},
            {max(min(y, x), x), x},
            {max(x, min(x, y)), x},
            {max(x, min(y, x)), x},
            {max(min(x, y), max(x, y)), max(x, y)},
            {max(min(x, y), max(y, x)), max(x, y)},
            {max(max(x, y), min(x, y)), max(x, y)},
            {max(max(x, y), min(y, x)), max(x, y)},
            {max(max(x, y), x), max(x, y)},
            {max(max(x, y), y), max(x, y)},
            {max(x, max(x, y)), max(x, y)},
            {max(y, max(x, y)), max(x, y)},
            {max(max(max(x, y), z), y), max(max(x, y), z)},
            {max(max(max(max(x, y), z), s1), y), max(max(max(x, y), z), s1)},
            {max(max(max(max(max(x, y), z), s1), s2), y), max(max(max(max(x, y), z), s1), s2)},
            // Distribution.
            {max(max(x, y), max(x, z)), max(max(y, z), x)},
            {max(max(x, y), max(z, x)), max(max(y, z), x)},
            {max(max(y, x), max(x, z)), max(max(y, z), x)},
            {max(max(y, x), max(z, x)), max(max(y, z), x)},
            {max(min(x, y), min(x, z)), min(max(y, z), x)},
            {max(min(x, y), min(z, x)), min(max(y, z), x)},
            {max(min(y, x), min(x, z)), min(max(y, z), x)},
            {max(min(y, x), min(z, x)), min(max(y, z), x)},
            {max(y + x, z + x), max(y, z) + x},
            {max(y + x, x + z), max(y, z) + x},
            {max(x + y, x + z), max(y, z) + x},
            {max(x + y, z + x), max(y, z) + x},
            {max(y - x, z - x), max(y, z) - x},
            {max(x - y, x - z), x - min(y, z)},
            {max(max(x, c1), c2), max(x, max(c1, c2))},
            // Scaling by a constant (a negative one swaps max and min).
            {max(truncdiv(x, c1), truncdiv(y, c1)), truncdiv(max(x, y), c1), c1Positive},
            {max(truncdiv(x, c1), truncdiv(y, c1)), truncdiv(min(x, y), c1), c1Negative},
            {max(floordiv(x, c1), floordiv(y, c1)), floordiv(max(x, y), c1), c1Positive},
            {max(floordiv(x, c1), floordiv(y, c1)), floordiv(min(x, y), c1), c1Negative},
            {max(x * c1, y * c1), max(x, y) * c1, c1Positive},
            {max(x * c1, y * c1), min(x, y) * c1, c1NonPositive},
            {max(x * c1, c2), max(x, floordiv(c2, c1)) * c1, c2MultipleOfPositiveC1},
            {max(x * c1, c2), min(x, floordiv(c2, c1)) * c1, c2MultipleOfNegativeC1},
            // Canonical order: constants outermost.
            recursiveRule(max(max(x, c1), y), max(max(x, y), c1)),
            recursiveRule(max(c1 - x, c2), c1 - min(x, c1 - c2), c2NonZero),
        };
    }();
    return rules;
}

const RuleTable& selectMinMaxRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            {min(select(bx, y, z), select(bx, s1, s2)), select(bx, min(y, s1), min(z, s2))},
            {max(select(bx, y, z), select(bx, s1, s2)), select(bx, max(y, s1), max(z, s2))},
        };
    }();
    return rules;
}

} // namespace

Expr RewriteSimplifier::visit(const MinNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return min(a, b); });
    const auto* node = ret.as<MinNode>();
    if (!node)
        return ret;
    if (isIndexType(ret.type())) {
        if (structuralEqual(node->a, node->b))
            return node->a;
        // A side whose largest value is at most the other's smallest wins.
        ConstIntBound a = m_parent.constIntBound(node->a);
        ConstIntBound b = m_parent.constIntBound(node->b);
        if (a.maxValue <= b.minValue)
            return node->a;
        if (b.maxValue <= a.minValue)
            return node->b;
        if (auto r = applyRules(ret, minRules()))
            return *r;
    }
    return applyRules(ret, selectMinMaxRules()).value_or(ret);
}

Expr RewriteSimplifier::visit(const MaxNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return max(a, b); });
    const auto* node = ret.as<MaxNode>();
    if (!node)
        return ret;
    if (isIndexType(ret.type())) {
        if (structuralEqual(node->a, node->b))
            return node->a;
        ConstIntBound a = m_parent.constIntBound(node->a);
        ConstIntBound b = m_parent.constIntBound(node->b);
        if (a.minValue >= b.maxValue)
            return node->a;
        if (b.minValue >= a.maxValue)
            return node->b;
        if (auto r = applyRules(ret, maxRules()))
            return *r;
    }
    return applyRules(ret, selectMinMaxRules()).value_or(ret);
}

} // namespace bs
