#include "arith/RewritePattern.h"

#include "ir/Equality.h"
#include "ir/Op.h"
#include "support/Check.h"

namespace bs {

const Wildcards& wildcards() {
    static const Wildcards w = [] {
        auto v = [](const char* name, DataType t = DataType::int32()) {
            return Expr(Var(name, t));
        };
        return Wildcards{v("?x"),
                         v("?y"),
                         v("?z"),
                         v("?s1"),
                         v("?s2"),
                         v("?b1"),
                         v("?b2"),
                         v("?c1"),
                         v("?c2"),
                         v("?c3"),
                         v("?x", DataType::boolean()),
                         v("?y", DataType::boolean()),
                         v("?z", DataType::boolean())};
    }();
    return w;
}

namespace {

/// The slot a wildcard variable stands for, or -1 for an ordinary variable.
int slotOf(const Node* var) {
    const Wildcards& w = wildcards();
    const Expr* slots[] = {&w.x, &w.y, &w.z, &w.s1, &w.s2, &w.b1, &w.b2, &w.c1, &w.c2, &w.c3};
    for (int i = 0; i < kSlotCount; ++i)
        if (slots[i]->get() == var)
            return i;
    if (var == w.bx.get())
        return kX;
    if (var == w.by.get())
        return kY;
    if (var == w.bz.get())
        return kZ;
    return -1;
}

bool isConstantSlot(int slot) { return slot == kC1 || slot == kC2 || slot == kC3; }

template <typename N> bool matchChildren(const Expr& p, const Expr& e, Bindings& b) {
    const auto* pn = static_cast<const N*>(p.get());
    const auto* en = static_cast<const N*>(e.get());
    return matchPattern(pn->a, en->a, b) && matchPattern(pn->b, en->b, b);
}

template <typename N> Expr buildChildren(const Expr& t, const Bindings& b, Expr (*op)(Expr, Expr));
Expr build(const Expr& t, const Bindings& b);

template <typename N> Expr buildChildren(const Expr& t, const Bindings& b, Expr (*op)(Expr, Expr)) {
    const auto* n = static_cast<const N*>(t.get());
    return op(build(n->a, b), build(n->b, b));
}

Expr build(const Expr& t, const Bindings& b) {
    switch (t.kind()) {
    case NodeKind::Var: {
        int slot = slotOf(t.get());
        if (slot < 0)
            return t;
        BS_CHECK(b.has(Slot(slot))) << "rewrite result uses an unbound wildcard";
        return b[Slot(slot)];
    }
    case NodeKind::IntImm:
    case NodeKind::FloatImm:
        return t;
#define BS_BUILD(N, fn)                                                                            \
    case NodeKind::N:                                                                              \
        return buildChildren<N##Node>(t, b, [](Expr x, Expr y) { return fn; });
        BS_BUILD(Add, x + y)
        BS_BUILD(Sub, x - y)
        BS_BUILD(Mul, x * y)
        BS_BUILD(Div, truncdiv(x, y))
        BS_BUILD(Mod, truncmod(x, y))
        BS_BUILD(FloorDiv, floordiv(x, y))
        BS_BUILD(FloorMod, floormod(x, y))
        BS_BUILD(Min, min(x, y))
        BS_BUILD(Max, max(x, y))
        BS_BUILD(EQ, eq(x, y))
        BS_BUILD(NE, ne(x, y))
        BS_BUILD(LT, x < y)
        BS_BUILD(LE, x <= y)
        BS_BUILD(GT, x > y)
        BS_BUILD(GE, x >= y)
        BS_BUILD(And, x && y)
        BS_BUILD(Or, x || y)
#undef BS_BUILD
    case NodeKind::Not:
        return !build(t.as<NotNode>()->a, b);
    case NodeKind::Select: {
        const auto* s = t.as<SelectNode>();
        return select(build(s->condition, b), build(s->trueValue, b), build(s->falseValue, b));
    }
    default:
        BS_UNREACHABLE("node kind " << int(t.kind()) << " in a rewrite template");
    }
}

} // namespace

int64_t Bindings::c(Slot s) const {
    auto value = asConstInt(m_values[s]);
    BS_CHECK(value.has_value()) << "constant wildcard " << int(s) << " is unbound";
    return *value;
}

bool matchPattern(const Expr& p, const Expr& e, Bindings& b) {
    if (p.kind() == NodeKind::Var) {
        int slot = slotOf(p.get());
        if (slot < 0)
            return p.same_as(e);
        if (isConstantSlot(slot) && !e.as<IntImmNode>())
            return false;
        Expr& bound = b.m_values[slot];
        if (!bound.defined()) {
            bound = e;
            return true;
        }
        return bound.same_as(e) || structuralEqual(bound, e);
    }
    if (const auto* pi = p.as<IntImmNode>()) {
        const auto* ei = e.as<IntImmNode>();
        return ei && ei->value == pi->value;
    }
    if (p.kind() != e.kind())
        return false;
    switch (p.kind()) {
#define BS_MATCH(N)                                                                                \
    case NodeKind::N:                                                                              \
        return matchChildren<N##Node>(p, e, b);
        BS_MATCH(Add)
        BS_MATCH(Sub)
        BS_MATCH(Mul)
        BS_MATCH(Div)
        BS_MATCH(Mod)
        BS_MATCH(FloorDiv)
        BS_MATCH(FloorMod)
        BS_MATCH(Min)
        BS_MATCH(Max)
        BS_MATCH(EQ)
        BS_MATCH(NE)
        BS_MATCH(LT)
        BS_MATCH(LE)
        BS_MATCH(GT)
        BS_MATCH(GE)
        BS_MATCH(And)
        BS_MATCH(Or)
#undef BS_MATCH
    case NodeKind::Not:
        return matchPattern(p.as<NotNode>()->a, e.as<NotNode>()->a, b);
    case NodeKind::Select: {
        const auto* ps = p.as<SelectNode>();
        const auto* es = e.as<SelectNode>();
        return matchPattern(ps->condition, es->condition, b) &&
               matchPattern(ps->trueValue, es->trueValue, b) &&
               matchPattern(ps->falseValue, es->falseValue, b);
    }
    default:
        return structuralEqual(p, e);
    }
}

Expr instantiate(const Expr& tmpl, const Bindings& bindings, DataType type) {
    Expr result = build(tmpl, bindings);
    if (result.type() != type && isConst(result))
        result = cast(type, result);
    return result;
}

} // namespace bs
