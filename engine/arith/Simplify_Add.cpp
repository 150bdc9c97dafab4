// Rewrite rules for +, - and * (TVM's rewrite_simplify.cc, most rules from Halide). The
// canonical pass that follows puts linear sums in order; these rules do what it cannot:
// cancellations through min/max, products of variables, div/mod recombination, and the
// reorderings whose result order the canonical pass then keeps.

#include "arith/Simplify_Internal.h"

#include "ir/Op.h"

namespace bs {

namespace {

bool negatedConstants(const Bindings& b, RewriteSimplifier&) { return b.c(kC1) == -b.c(kC2); }
bool c1NonZero(const Bindings& b, RewriteSimplifier&) { return b.c(kC1) != 0; }
bool c2Positive(const Bindings& b, RewriteSimplifier&) { return b.c(kC2) > 0; }
bool c3Positive(const Bindings& b, RewriteSimplifier&) { return b.c(kC3) > 0; }
bool c1Negative(const Bindings& b, RewriteSimplifier&) { return b.c(kC1) < 0; }
bool c1OddOffset(const Bindings& b, RewriteSimplifier&) { return floorModInt(b.c(kC1), 2) == 1; }
bool scaledDivisor(const Bindings& b, RewriteSimplifier&) {
    return b.c(kC1) != 0 && b.c(kC3) == b.c(kC1) * b.c(kC2);
}
bool sameMinMaxOffsets(const Bindings& b, RewriteSimplifier& s) {
    return s.canProveEqual((b[kB1] - b[kS1]) - (b[kB2] - b[kS2]), 0);
}

const RuleTable& addRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            // Cancellation.
            {(x - y) + y, x},
            {x + (y - x), y},
            {(x - y) + (y - z), x - z},
            {(x - y) + (z - x), z - y},
            {min(x, y - z) + z, min(x + z, y)},
            {min(x - z, y) + z, min(x, y + z)},
            {max(x, y - z) + z, max(x + z, y)},
            {max(x - z, y) + z, max(x, y + z)},
            {min(x, y + z * c1) + z * c2, min(x + z * c2, y), negatedConstants},
            {max(x, y + z * c1) + z * c2, max(x + z * c2, y), negatedConstants},
            {min(y + z * c1, x) + z * c2, min(x + z * c2, y), negatedConstants},
            {max(y + z * c1, x) + z * c2, max(x + z * c2, y), negatedConstants},
            {max(x, y) + min(x, y), x + y},
            {min(x, y) + max(x, y), x + y},
            {max(x, y) + min(y, x), x + y},
            {min(x, y) + max(y, x), x + y},
            {min(x, y + c1) + c2, min(x + c2, y), negatedConstants},
            {min(x + c1, y) + c2, min(x, y + c2), negatedConstants},
            {max(x, y + c1) + c2, max(x + c2, y), negatedConstants},
            {max(x + c1, y) + c2, max(x, y + c2), negatedConstants},
            // Constants and coefficients.
            {(x + c1) + c2, x + (c1 + c2)},
            {x + x, x * 2},
            {x * y + x, (y + 1) * x},
            {y * x + x, (y + 1) * x},
            {x + y * x, (y + 1) * x},
            {x + x * y, (y + 1) * x},
            {x * y + x * z, (y + z) * x},
            {y * x + x * z, (y + z) * x},
            {x * y + z * x, (y + z) * x},
            {y * x + z * x, (y + z) * x},
            // Division and remainder recombine: (x / c) * c + x % c == x.
            {truncdiv(x, c1) * c1 + truncmod(x, c1), x},
            {floordiv(x, y) * y + floormod(x, y), x},
            {y * floordiv(x, y) + floormod(x, y), x},
            {floormod(x, y) + floordiv(x, y) * y, x},
            {floormod(x, y) + y * floordiv(x, y), x},
            {floordiv(floormod(x, c2) + c1, c2) + floordiv(x, c2), floordiv(x + c1, c2),
             c2Positive},
            recursiveRule(floordiv(x, 2) + floormod(x, 2), floordiv(x + 1, 2)),
            {floormod(x + c1, 2) + floormod(x, 2), Expr(1), c1OddOffset},
            {floormod(x, 2) + floormod(x + c1, 2), Expr(1), c1OddOffset},
            // Canonical order: constants last, min/max first, multiples before remainders.
            recursiveRule(x + (c1 - y), (x - y) + c1),
            recursiveRule((c1 - y) + x, (x - y) + c1),
            recursiveRule((x + c1) + y, (x + y) + c1),
            recursiveRule(x + (c1 + y), (x + y) + c1),
            recursiveRule(x + (y + c1), (x + y) + c1),
            recursiveRule(x + max(y, z), max(y, z) + x),
            recursiveRule(x + min(y, z), min(y, z) + x),
            recursiveRule(truncmod(y, c1) + x * c1, x * c1 + truncmod(y, c1)),
            recursiveRule(floormod(y, c1) + x * c1, x * c1 + floormod(y, c1)),
        };
    }();
    return rules;
}

const RuleTable& subRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            // Cancellation.
            {(x + y) - y, x},
            {(y + x) - y, x},
            {x - (y + x), 0 - y},
            {x - (x + y), 0 - y},
            {min(x, y) - y, min(x - y, 0)},
            {x - max(y, x), min(x - y, 0)},
            {x - max(x, y), min(0, x - y)},
            {min(y, x) - y, min(0, x - y)},
            {max(x, y) - y, max(x - y, 0)},
            {x - min(y, x), max(x - y, 0)},
            {x - min(x, y), max(0, x - y)},
            {max(y, x) - y, max(0, x - y)},
            {x - x, Expr(0)},
            {x * y - x, (y - 1) * x},
            {y * x - x, (y - 1) * x},
            {x - y * x, (1 - y) * x},
            {x - x * y, (1 - y) * x},
            {x * y - x * z, (y - z) * x},
            {y * x - x * z, (y - z) * x},
            {x * y - z * x, (y - z) * x},
            {y * x - z * x, (y - z) * x},
            {(x + c1) - c2, x + (c1 - c2)},
            {(c1 - x) - (c2 - y), (y - x) + (c1 - c2)},
            {(x + y) - (x + z), y - z},
            {(x + y) - (z + x), y - z},
            {(y + x) - (z + x), y - z},
            {(y + x) - (x + z), y - z},
            {min(x + y, z) - x, min(y, z - x)},
            {min(y + x, z) - x, min(y, z - x)},
            {min(z, x + y) - x, min(z - x, y)},
            {min(z, y + x) - x, min(z - x, y)},
            {max(x + y, z) - x, max(y, z - x)},
            {max(y + x, z) - x, max(y, z - x)},
            {max(z, x + y) - x, max(z - x, y)},
            {max(z, y + x) - x, max(z - x, y)},
            {x - min(x + y, z), max(0 - y, x - z)},
            {x - min(y + x, z), max(0 - y, x - z)},
            {x - min(z, x + y), max(x - z, 0 - y)},
            {x - min(z, y + x), max(x - z, 0 - y)},
            {x - max(x + y, z), min(0 - y, x - z)},
            {x - max(y + x, z), min(0 - y, x - z)},
            {x - max(z, x + y), min(x - z, 0 - y)},
            {x - max(z, y + x), min(x - z, 0 - y)},
            {min(x, y) - min(y, x), Expr(0)},
            {max(x, y) - max(y, x), Expr(0)},
            {min(b1, b2) - min(s1, s2), b1 - s1, sameMinMaxOffsets},
            {min(b1, b2) - min(s2, s1), b1 - s1, sameMinMaxOffsets},
            {max(b1, b2) - max(s1, s2), b1 - s1, sameMinMaxOffsets},
            {max(b1, b2) - max(s2, s1), b1 - s1, sameMinMaxOffsets},
            // x - (x / c) * c == x % c, for both division modes.
            {x - truncdiv(x, c1) * c1, truncmod(x, c1), c1NonZero},
            {truncdiv(x, c1) * c1 - x, 0 - truncmod(x, c1), c1NonZero},
            {x - truncdiv(x + y, c1) * c1, truncmod(x + y, c1) - y, c1NonZero},
            {truncdiv(x + y, c1) * c1 - x, y - truncmod(x + y, c1), c1NonZero},
            {x - truncdiv(x - y, c1) * c1, truncmod(x - y, c1) + y, c1NonZero},
            {truncdiv(x - y, c1) * c1 - x, 0 - truncmod(x - y, c1) - y, c1NonZero},
            {x - floordiv(x, c1) * c1, floormod(x, c1), c1NonZero},
            {floordiv(x, c1) * c1 - x, 0 - floormod(x, c1), c1NonZero},
            {x - floordiv(x + y, c1) * c1, floormod(x + y, c1) - y, c1NonZero},
            {floordiv(x + y, c1) * c1 - x, y - floormod(x + y, c1), c1NonZero},
            {x - floordiv(x - y, c1) * c1, floormod(x - y, c1) + y, c1NonZero},
            {floordiv(x - y, c1) * c1 - x, 0 - floormod(x - y, c1) - y, c1NonZero},
            {x * c2 - truncdiv(x, c1) * c3, truncmod(x, c1) * c2, scaledDivisor},
            {truncdiv(x, c1) * c3 - x * c2, 0 - truncmod(x, c1) * c2, scaledDivisor},
            {x * c2 - floordiv(x, c1) * c3, floormod(x, c1) * c2, scaledDivisor},
            {floordiv(x, c1) * c3 - x * c2, 0 - floormod(x, c1) * c2, scaledDivisor},
            {floordiv(x + c1, c3) - floordiv(x + c2, c3),
             floordiv(floormod(x + floormod(c2, c3), c3) + (c1 - c2), c3), c3Positive},
            {floordiv(x + c1, c3) - floordiv(x, c3), floordiv(floormod(x, c3) + c1, c3),
             c3Positive},
            // Canonical order: subtraction of a constant becomes addition, constants last.
            {x - c1, x + (0 - c1)},
            recursiveRule((x + c1) - y, (x - y) + c1),
            recursiveRule(x - (y + c1), (x - y) + (0 - c1)),
            recursiveRule(x - (y - z), (x + z) - y),
            recursiveRule(x - y * c1, x + y * (0 - c1)),
        };
    }();
    return rules;
}

const RuleTable& mulRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            {(x + c1) * c2, x * c2 + c1 * c2},
            {(x * c1) * c2, x * (c1 * c2)},
            {min(x, y) * max(x, y), x * y},
            {max(x, y) * min(x, y), x * y},
            // Two spellings of c * ceildiv(x, c): x - floormod(x, -c) is a multiple of c.
            {floordiv(x - floormod(x, c2), c1) * c1, x - floormod(x, c2), negatedConstants},
            recursiveRule(x * (c1 * y), (x * y) * c1),
            recursiveRule(c1 * x, x * c1),
            recursiveRule((x - y) * c1, (y - x) * (0 - c1), c1Negative),
        };
    }();
    return rules;
}

/// Rules that hold for every type: arithmetic on two selects of the same condition.
const RuleTable& selectArithRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            {select(bx, b1, b2) + select(bx, s1, s2), select(bx, b1 + s1, b2 + s2)},
            {select(bx, b1, b2) - select(bx, s1, s2), select(bx, b1 - s1, b2 - s2)},
            {select(bx, y, z) - z, select(bx, y - z, 0)},
            {select(bx, y, z) - y, select(bx, 0, z - y)},
        };
    }();
    return rules;
}

} // namespace

Expr RewriteSimplifier::visit(const AddNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return a + b; });
    if (!ret.as<AddNode>())
        return ret;
    if (ret.type().isVector()) {
        if (auto r = rewriteVector(ret))
            return *r;
    }
    if (isIndexType(ret.type())) {
        if (auto r = applyRules(ret, addRules()))
            return *r;
    }
    return applyRules(ret, selectArithRules()).value_or(ret);
}

Expr RewriteSimplifier::visit(const SubNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return a - b; });
    if (!ret.as<SubNode>())
        return ret;
    if (ret.type().isVector()) {
        if (auto r = rewriteVector(ret))
            return *r;
    }
    if (isIndexType(ret.type())) {
        if (auto r = applyRules(ret, subRules()))
            return *r;
    }
    return applyRules(ret, selectArithRules()).value_or(ret);
}

Expr RewriteSimplifier::visit(const MulNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return a * b; });
    if (!ret.as<MulNode>())
        return ret;
    if (ret.type().isVector())
        return rewriteVector(ret).value_or(ret);
    if (!isIndexType(ret.type()))
        return ret;
    return applyRules(ret, mulRules()).value_or(ret);
}

} // namespace bs
