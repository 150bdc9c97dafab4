// Rewrite rules for floordiv and floormod, the index arithmetic of TE schedules (TVM's
// rewrite_simplify.cc). Floor division needs no sign conditions on the dividend for most rules.

#include "arith/Simplify_Internal.h"

#include "ir/Op.h"

namespace bs {

namespace {

int64_t c(const Bindings& b, Slot s) { return b.c(s); }
bool nonNegative(RewriteSimplifier& s, const Expr& e) { return s.canProveGreaterEqual(e, 0); }
bool divisorDividesFactor(const Bindings& b, RewriteSimplifier&) {
    return c(b, kC2) > 0 && c(b, kC1) % c(b, kC2) == 0;
}
bool c1c2Positive(const Bindings& b, RewriteSimplifier&) { return c(b, kC1) > 0 && c(b, kC2) > 0; }
bool c1c3Positive(const Bindings& b, RewriteSimplifier&) { return c(b, kC1) > 0 && c(b, kC3) > 0; }
bool c1NonZero(const Bindings& b, RewriteSimplifier&) { return c(b, kC1) != 0; }
bool c2NonZero(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) != 0; }
bool c2Positive(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) > 0; }
bool xNonNeg(const Bindings& b, RewriteSimplifier& s) { return nonNegative(s, b[kX]); }
bool yNonNeg(const Bindings& b, RewriteSimplifier& s) { return nonNegative(s, b[kY]); }
bool zNonNeg(const Bindings& b, RewriteSimplifier& s) { return nonNegative(s, b[kZ]); }

/// Rules tried before the linear residue rule of floorDivLinear.
const RuleTable& nestedFloorDivRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            {floordiv(floordiv(x, c1), c2), floordiv(x, c1 * c2), c1c2Positive},
            {floordiv(floordiv(x, c1) + c2, c3), floordiv(x + c1 * c2, c1 * c3), c1c3Positive},
        };
    }();
    return rules;
}

const RuleTable& floorDivRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        // floordiv(x*c1 + (y + z), c2) == floordiv(x, c2 / c1) when 0 <= y + z < c1.
        auto smallRemainder = [](const Bindings& b, RewriteSimplifier& s) {
            return c(b, kC1) > 0 && c(b, kC2) > 0 && c(b, kC2) % c(b, kC1) == 0 &&
                   s.canProveEqual(floordiv(b[kY] + b[kZ], b[kC1]), 0);
        };
        return RuleTable{
            {floordiv(x, x), Expr(1)},
            {floordiv(x * c1, x), c1},
            {floordiv(c1 * x, x), c1},
            {floordiv(floormod(x, 2) + 1, 2), floormod(x, 2)},
            {floordiv(min(x * c1, y), c2), min(x * floordiv(c1, c2), floordiv(y, c2)),
             divisorDividesFactor},
            {floordiv(max(x * c1, y), c2), max(x * floordiv(c1, c2), floordiv(y, c2)),
             divisorDividesFactor},
            {floordiv(min(y, x * c1), c2), min(floordiv(y, c2), x * floordiv(c1, c2)),
             divisorDividesFactor},
            {floordiv(max(y, x * c1), c2), max(floordiv(y, c2), x * floordiv(c1, c2)),
             divisorDividesFactor},
            {floordiv(x * c1 + y + z, c2), x * floordiv(c1, c2) + floordiv(y + z, c2),
             divisorDividesFactor},
            {floordiv(x * c1 + y + z, c2), floordiv(x, floordiv(c2, c1)), smallRemainder},
            {floordiv(x * c1 - y + z, c2), x * floordiv(c1, c2) + floordiv(z - y, c2),
             divisorDividesFactor},
            {floordiv(x * c1 + z - y, c2), x * floordiv(c1, c2) + floordiv(z - y, c2),
             divisorDividesFactor},
            {floordiv(y + x * c1 + z, c2), x * floordiv(c1, c2) + floordiv(y + z, c2),
             divisorDividesFactor},
            {floordiv(x + c1, c2), floordiv(x, c2) + floordiv(c1, c2), divisorDividesFactor},
            {floordiv(x * c1, x * c2), floordiv(c1, c2), c2Positive},
            {floordiv(x + y, x), floordiv(y, x) + 1, xNonNeg},
            {floordiv(y + x, x), floordiv(y, x) + 1, xNonNeg},
            {floordiv((x + y) + z, x), floordiv(y + z, x) + 1, xNonNeg},
            {floordiv((y + x) + z, x), floordiv(y + z, x) + 1, xNonNeg},
            {floordiv(y + (z + x), x), floordiv(y + z, x) + 1, xNonNeg},
            {floordiv(y + (x + z), x), floordiv(y + z, x) + 1, xNonNeg},
            {floordiv(x * y, y), x, yNonNeg},
            {floordiv(y * x, y), x, yNonNeg},
            {floordiv(x * z + y, z), x + floordiv(y, z), zNonNeg},
            {floordiv(z * x + y, z), x + floordiv(y, z), zNonNeg},
            {floordiv(y + x * z, z), floordiv(y, z) + x, zNonNeg},
            {floordiv(y + z * x, z), floordiv(y, z) + x, zNonNeg},
            {floordiv(x - floormod(x, c1), c1), floordiv(x, c1), c1NonZero},
        };
    }();
    return rules;
}

const RuleTable& floorModRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        // floormod(x*c1 + y, c2) == floormod(x, c2 / c1) * c1 + y when 0 <= y < c1.
        auto smallOffset = [](const Bindings& b, RewriteSimplifier& s) {
            return c(b, kC1) > 0 && c(b, kC2) > 0 && c(b, kC2) % c(b, kC1) == 0 &&
                   s.canProveEqual(floordiv(b[kY], b[kC1]), 0);
        };
        auto offsetOutOfRange = [](const Bindings& b, RewriteSimplifier&) {
            return c(b, kC2) > 0 && (c(b, kC1) >= c(b, kC2) || c(b, kC1) < 0);
        };
        return RuleTable{
            {floormod(x * c1, c2), floormod(x * floormod(c1, c2), c2), c2NonZero},
            {floormod(x * c1 + y, c2), floormod(x, floordiv(c2, c1)) * c1 + y, smallOffset},
            {floormod(x * c1 + y, c2), floormod(x * floormod(c1, c2) + y, c2), c2Positive},
            {floormod(x + c1, c2), floormod(x + floormod(c1, c2), c2), offsetOutOfRange},
            {floormod(x + y * c1, c2), floormod(x + y * floormod(c1, c2), c2), c2Positive},
            {floormod(x * c1, x * c2), x * floormod(c1, c2), c2NonZero},
            {floormod(x * y, y), Expr(0)},
            {floormod(y * x, y), Expr(0)},
        };
    }();
    return rules;
}

} // namespace

/// floordiv(x*c1 + y, c2), y possibly absent. Writing c1 = q*c2 + r and y = d*c2 + e:
/// the result is x*q + d + floordiv(x*r + e, c2), so when that residue is a constant K the
/// division disappears. Else, when c2 = a*c1 and 0 <= e < c1, it is floordiv(x, a) + d
/// (`floordiv(o*8 + 7, 64)` is `floordiv(o, 8)`).
std::optional<Expr> RewriteSimplifier::floorDivLinear(const FloorDivNode* op) {
    static const std::vector<Expr> patterns = [] {
        const Wildcards& w = wildcards();
        return std::vector<Expr>{floordiv(w.x * w.c1 + w.y, w.c2), floordiv(w.x * w.c1, w.c2),
                                 floordiv(w.y + w.x * w.c1, w.c2)};
    }();
    Expr e(op);
    Bindings b;
    bool matched = false;
    for (const Expr& p : patterns) {
        b = Bindings();
        if ((matched = matchPattern(p, e, b)))
            break;
    }
    if (!matched || b.c(kC2) == 0)
        return std::nullopt;
    DataType t = op->type;
    int64_t c1 = b.c(kC1), c2 = b.c(kC2);
    Expr y = b.has(kY) ? b[kY] : makeZero(t);
    Expr divisor = makeConst(t, c2);
    Expr residue =
        floordiv(b[kX] * makeConst(t, floorModInt(c1, c2)) + floormod(y, divisor), divisor);
    Expr yDiv = canProveEqual(floordiv(y, divisor), 0) ? makeZero(t) : floordiv(y, divisor);
    ConstIntBound bound = m_parent.constIntBound(residue);
    if (bound.minValue == bound.maxValue)
        return b[kX] * makeConst(t, floorDivInt(c1, c2)) + (yDiv + makeConst(t, bound.maxValue));
    if (c1 > 0 && c2 > 0 && c2 % c1 == 0 && canProveLess(floormod(y, divisor), c1))
        return floordiv(b[kX], makeConst(t, c2 / c1)) + yDiv;
    return std::nullopt;
}

Expr RewriteSimplifier::visit(const FloorDivNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return floordiv(a, b); });
    const auto* div = ret.as<FloorDivNode>();
    if (div && ret.type().isVector())
        return rewriteVector(ret).value_or(ret);
    if (!div || !isIndexType(ret.type()))
        return ret;
    if (auto r = applyRules(ret, nestedFloorDivRules()))
        return *r;
    if (auto r = floorDivLinear(div))
        return *r;
    return applyRules(ret, floorDivRules()).value_or(ret);
}

Expr RewriteSimplifier::visit(const FloorModNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return floormod(a, b); });
    const auto* mod = ret.as<FloorModNode>();
    if (mod && ret.type().isVector())
        return rewriteVector(ret).value_or(ret);
    if (!mod || !isIndexType(ret.type()))
        return ret;
    if (auto r = applyRules(ret, floorModRules()))
        return *r;
    auto divisor = asConstInt(mod->b);
    if (!divisor || *divisor <= 0)
        return ret;
    // Modular facts: x = k*c*m + r has floormod(x, c) == floormod(r, c).
    ModularSet m = m_parent.modularSet(mod->a);
    if (truncModInt(m.coeff, *divisor) == 0)
        return makeConst(ret.type(), floorModInt(m.base, *divisor));
    // Already in [0, c): the remainder is the value itself.
    ConstIntBound bound = m_parent.constIntBound(mod->a);
    if (bound.minValue >= 0 && bound.maxValue < *divisor)
        return mod->a;
    return ret;
}

} // namespace bs
