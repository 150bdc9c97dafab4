// Rewrite rules for vector index arithmetic (TVM's rewrite_simplify.cc, vector rules): a ramp or
// broadcast combined with another one lane-wise is again a ramp or broadcast, so vectorized
// loops index with `ramp(base, stride, lanes)` rather than per-lane arithmetic.

#include "arith/Simplify_Internal.h"

#include "ir/Op.h"

namespace bs {

namespace {

/// The two operands as ramps/broadcasts of the same lane count, if they are.
struct VectorOperands {
    const RampNode* rampA = nullptr;
    const RampNode* rampB = nullptr;
    const BroadcastNode* bcastA = nullptr;
    const BroadcastNode* bcastB = nullptr;
};

VectorOperands vectorOperands(const Expr& a, const Expr& b) {
    return {a.as<RampNode>(), b.as<RampNode>(), a.as<BroadcastNode>(), b.as<BroadcastNode>()};
}

std::optional<Expr> addOrSub(const Expr& a, const Expr& b, int lanes, bool subtract) {
    auto combine = [subtract](const Expr& x, const Expr& y) { return subtract ? x - y : x + y; };
    VectorOperands v = vectorOperands(a, b);
    if (v.rampA && v.rampB)
        return RampNode::make(combine(v.rampA->base, v.rampB->base),
                              combine(v.rampA->stride, v.rampB->stride), lanes);
    if (v.rampA && v.bcastB)
        return RampNode::make(combine(v.rampA->base, v.bcastB->value), v.rampA->stride, lanes);
    if (v.bcastA && v.rampB) {
        Expr stride =
            subtract ? makeZero(v.rampB->stride.type()) - v.rampB->stride : v.rampB->stride;
        return RampNode::make(combine(v.bcastA->value, v.rampB->base), stride, lanes);
    }
    if (v.bcastA && v.bcastB)
        return BroadcastNode::make(combine(v.bcastA->value, v.bcastB->value), lanes);
    return std::nullopt;
}

std::optional<Expr> multiply(const Expr& a, const Expr& b, int lanes) {
    VectorOperands v = vectorOperands(a, b);
    if (v.bcastA && v.bcastB)
        return BroadcastNode::make(v.bcastA->value * v.bcastB->value, lanes);
    const RampNode* ramp = v.rampA ? v.rampA : v.rampB;
    const BroadcastNode* bcast = v.rampA ? v.bcastB : v.bcastA;
    if (ramp && bcast)
        return RampNode::make(ramp->base * bcast->value, ramp->stride * bcast->value, lanes);
    return std::nullopt;
}

} // namespace

/// floordiv / floormod of `ramp(b, c1, lanes)` by a broadcast constant c2: the lanes either
/// advance by whole multiples of c2, or (by the modular set of b) all stay in one block of c2.
std::optional<Expr> RewriteSimplifier::rewriteVector(const Expr& e) {
    int lanes = e.type().lanes();
    if (const auto* op = e.as<AddNode>())
        return addOrSub(op->a, op->b, lanes, false);
    if (const auto* op = e.as<SubNode>())
        return addOrSub(op->a, op->b, lanes, true);
    if (const auto* op = e.as<MulNode>())
        return multiply(op->a, op->b, lanes);
    const auto* div = e.as<FloorDivNode>();
    const auto* mod = e.as<FloorModNode>();
    const Expr& lhs = div ? div->a : mod ? mod->a : e;
    const Expr& rhs = div ? div->b : mod ? mod->b : e;
    const auto* ramp = lhs.as<RampNode>();
    const auto* bcast = rhs.as<BroadcastNode>();
    auto c1 = ramp ? asConstInt(ramp->stride) : std::nullopt;
    auto c2 = bcast ? asConstInt(bcast->value) : std::nullopt;
    if (!(div || mod) || !c1 || !c2 || *c2 <= 0)
        return std::nullopt;
    if (truncModInt(*c1, *c2) == 0) {
        if (div)
            return RampNode::make(floordiv(ramp->base, bcast->value),
                                  makeConst(ramp->stride.type(), truncDivInt(*c1, *c2)), lanes);
        return BroadcastNode::make(floormod(ramp->base, bcast->value), lanes);
    }
    ModularSet m = m_parent.modularSet(ramp->base);
    int64_t last = m.base + (lanes - 1) * *c1;
    bool oneBlock = floorDivInt(m.base, *c2) == floorDivInt(last, *c2);
    bool alignedBase = truncModInt(m.coeff, *c2) == 0 ||
                       (m.coeff > 0 && truncModInt(*c2, m.coeff) == 0 && last < m.coeff);
    if (!oneBlock || !alignedBase)
        return std::nullopt;
    if (div)
        return BroadcastNode::make(floordiv(ramp->base, bcast->value), lanes);
    return RampNode::make(floormod(ramp->base, bcast->value), ramp->stride, lanes);
}

} // namespace bs
