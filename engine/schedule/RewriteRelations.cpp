#include "schedule/RewriteRelations.h"

#include "ir/Equality.h"
#include "ir/Op.h"
#include "support/Check.h"

#include <algorithm>
#include <optional>

namespace bs::rewrite {

namespace {

/// A constant integer interval, for the bound-check proofs (all ranges here are constant in
/// the cases that matter: a split of a constant extent by a constant factor).
struct ConstInterval {
    int64_t lo;
    int64_t hi;
};
using ConstBounds = VarMap<ConstInterval>;

std::optional<ConstInterval> constInterval(const Expr& e, const ConstBounds& bounds);

std::optional<ConstInterval> binaryInterval(NodeKind kind, ConstInterval a, ConstInterval b) {
    switch (kind) {
    case NodeKind::Add:
        return ConstInterval{a.lo + b.lo, a.hi + b.hi};
    case NodeKind::Sub:
        return ConstInterval{a.lo - b.hi, a.hi - b.lo};
    case NodeKind::Mul: {
        int64_t p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
        return ConstInterval{*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
    }
    case NodeKind::FloorDiv:
        if (b.lo != b.hi || b.lo <= 0)
            return std::nullopt;
        return ConstInterval{floorDivInt(a.lo, b.lo), floorDivInt(a.hi, b.lo)};
    case NodeKind::FloorMod:
        if (b.lo != b.hi || b.lo <= 0)
            return std::nullopt;
        return ConstInterval{0, b.lo - 1};
    case NodeKind::Min:
        return ConstInterval{std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
    case NodeKind::Max:
        return ConstInterval{std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
    default:
        return std::nullopt;
    }
}

template <NodeKind K>
std::optional<ConstInterval> tryBinary(const Expr& e, const ConstBounds& bounds) {
    const auto* n = e.as<BinaryNode<K>>();
    auto a = constInterval(n->a, bounds);
    auto b = a ? constInterval(n->b, bounds) : std::nullopt;
    if (!b)
        return std::nullopt;
    return binaryInterval(K, *a, *b);
}

std::optional<ConstInterval> constInterval(const Expr& e, const ConstBounds& bounds) {
    if (auto c = asConstInt(e))
        return ConstInterval{*c, *c};
    switch (e.kind()) {
    case NodeKind::Var: {
        auto it = bounds.find(Var(e.as<VarNode>()));
        return it == bounds.end() ? std::nullopt : std::optional(it->second);
    }
    case NodeKind::Add:
        return tryBinary<NodeKind::Add>(e, bounds);
    case NodeKind::Sub:
        return tryBinary<NodeKind::Sub>(e, bounds);
    case NodeKind::Mul:
        return tryBinary<NodeKind::Mul>(e, bounds);
    case NodeKind::FloorDiv:
        return tryBinary<NodeKind::FloorDiv>(e, bounds);
    case NodeKind::FloorMod:
        return tryBinary<NodeKind::FloorMod>(e, bounds);
    case NodeKind::Min:
        return tryBinary<NodeKind::Min>(e, bounds);
    case NodeKind::Max:
        return tryBinary<NodeKind::Max>(e, bounds);
    default:
        return std::nullopt;
    }
}

/// `a == b` when it folds to true or the two are the same expression (also `x*c` vs `c*x`).
bool provablyEqual(const Expr& a, const Expr& b) {
    if (auto c = asConstInt(eq(a, b)))
        return *c != 0;
    if (structuralEqual(a, b))
        return true;
    const auto* ma = a.as<MulNode>();
    const auto* mb = b.as<MulNode>();
    return ma && mb && structuralEqual(ma->a, mb->b) && structuralEqual(ma->b, mb->a);
}

/// `x` when `e` is `x * c` (or `c * x`) with `c` a positive multiple of `divisor`, scaled.
std::optional<Expr> exactQuotient(const Expr& e, int64_t divisor) {
    const auto* mul = e.as<MulNode>();
    if (!mul || divisor <= 0)
        return std::nullopt;
    for (auto [x, c] : {std::pair{mul->a, mul->b}, std::pair{mul->b, mul->a}}) {
        auto value = asConstInt(c);
        if (value && *value > 0 && *value % divisor == 0)
            return x * makeConst(c.type(), *value / divisor);
    }
    return std::nullopt;
}

bool has(const IterVarMap<Range>& m, const IterVar& iv) {
    return m.count(iv) != 0;
}

/// TVM's PassUpBoundCheck: which IterVars may take values past their range.
IterVarMap<bool> passUpBoundCheck(const Stage& stage, const IterVarMap<Range>& domains) {
    IterVarMap<bool> state;
    for (const IterVar& iv : stage->leafIterVars)
        state[iv] = false;
    for (size_t i = stage->relations.size(); i-- > 0;) {
        const IterVarRelation& rel = stage->relations[i];
        if (const auto* s = rel.as<SplitNode>()) {
            bool covered = has(domains, s->inner) && has(domains, s->outer) &&
                           has(domains, s->parent) &&
                           provablyEqual(domains.at(s->parent).extent,
                                         domains.at(s->inner).extent * domains.at(s->outer).extent);
            state[s->parent] = state[s->outer] || state[s->inner] || !covered;
        } else if (const auto* f = rel.as<FuseNode>()) {
            state[f->outer] = state[f->fused];
            state[f->inner] = state[f->fused];
        } else if (const auto* r = rel.as<RebaseNode>()) {
            state[r->parent] = state[r->rebased];
        }
    }
    return state;
}

} // namespace

Expr ceilDiv(const Expr& a, const Expr& b) {
    auto ca = asConstInt(a), cb = asConstInt(b);
    if (ca && cb && *cb != 0)
        return makeConst(a.type(), floorDivInt(*ca + *cb - 1, *cb));
    if (cb) {
        if (auto q = exactQuotient(a, *cb))
            return *q;
    }
    if (provablyEqual(a, b))
        return makeOne(a.type());
    return floordiv(a + (b - 1), b);
}

void passDownDomain(const Stage& stage, IterVarMap<Range>* domains) {
    auto& dom = *domains;
    for (const IterVarRelation& rel : stage->relations) {
        if (const auto* s = rel.as<SplitNode>()) {
            if (!has(dom, s->parent))
                continue;
            const Expr extent = dom.at(s->parent).extent;
            if (s->factor.defined()) {
                dom[s->inner] = Range(0, s->factor);
                dom[s->outer] = Range(0, ceilDiv(extent, s->factor));
            } else {
                dom[s->outer] = Range(0, s->nparts);
                dom[s->inner] = Range(0, ceilDiv(extent, s->nparts));
            }
        } else if (const auto* f = rel.as<FuseNode>()) {
            if (!has(dom, f->outer) || !has(dom, f->inner))
                continue;
            dom[f->fused] = Range(0, dom.at(f->outer).extent * dom.at(f->inner).extent);
        } else if (const auto* r = rel.as<RebaseNode>()) {
            if (has(dom, r->parent))
                dom[r->rebased] = Range(0, dom.at(r->parent).extent);
        } else if (const auto* g = rel.as<SingletonNode>()) {
            dom[g->iter] = Range(0, 1);
        }
    }
}

void passUpIndex(const Stage& stage, const IterVarMap<Range>& domains, IterVarMap<Expr>* values) {
    auto& state = *values;
    for (size_t i = stage->relations.size(); i-- > 0;) {
        const IterVarRelation& rel = stage->relations[i];
        if (const auto* s = rel.as<SplitNode>()) {
            if (!state.count(s->outer) || !state.count(s->inner))
                continue;
            Expr value = state.at(s->inner) + state.at(s->outer) * domains.at(s->inner).extent;
            Expr parentMin = domains.at(s->parent).min;
            state[s->parent] = isZero(parentMin) ? value : value + parentMin;
        } else if (const auto* f = rel.as<FuseNode>()) {
            if (!state.count(f->fused))
                continue;
            Expr value = state.at(f->fused);
            Expr factor = domains.at(f->inner).extent;
            Expr outer = floordiv(value, factor), inner = floormod(value, factor);
            Expr outerMin = domains.at(f->outer).min, innerMin = domains.at(f->inner).min;
            state[f->outer] =
                cast(f->outer->var.type(), isZero(outerMin) ? outer : outer + outerMin);
            state[f->inner] =
                cast(f->inner->var.type(), isZero(innerMin) ? inner : inner + innerMin);
        } else if (const auto* r = rel.as<RebaseNode>()) {
            if (!state.count(r->rebased))
                continue;
            Expr parentMin = domains.at(r->parent).min;
            Expr value = state.at(r->rebased);
            state[r->parent] = isZero(parentMin) ? value : value + parentMin;
        }
    }
}

void passDownIndex(const Stage& stage, const IterVarMap<Range>& domains, IterVarMap<Expr>* values) {
    auto& state = *values;
    for (const IterVarRelation& rel : stage->relations) {
        if (const auto* s = rel.as<SplitNode>()) {
            if (!state.count(s->parent))
                continue;
            const Range& inner = domains.at(s->inner);
            BS_CHECK(isZero(inner.min))
                << "split inner " << s->inner->var.name() << " starts at non-zero";
            state[s->outer] = floordiv(state.at(s->parent), inner.extent);
            state[s->inner] = floormod(state.at(s->parent), inner.extent);
        } else if (const auto* f = rel.as<FuseNode>()) {
            if (!state.count(f->outer) || !state.count(f->inner))
                continue;
            state[f->fused] = state.at(f->outer) * domains.at(f->inner).extent + state.at(f->inner);
        } else if (const auto* r = rel.as<RebaseNode>()) {
            if (state.count(r->parent))
                state[r->rebased] = state.at(r->parent);
        } else if (const auto* g = rel.as<SingletonNode>()) {
            state[g->iter] = makeZero(g->iter->var.type());
        }
    }
}

void passUpBitMaskOr(const Stage& stage, IterVarMap<int>* state) {
    auto& st = *state;
    for (size_t i = stage->relations.size(); i-- > 0;) {
        const IterVarRelation& rel = stage->relations[i];
        if (const auto* s = rel.as<SplitNode>()) {
            if (!st.count(s->outer) && !st.count(s->inner))
                continue;
            int mask = st.count(s->parent) ? st[s->parent] : 0;
            st[s->parent] = mask | (st.count(s->inner) ? st[s->inner] : 0) |
                            (st.count(s->outer) ? st[s->outer] : 0);
        } else if (const auto* f = rel.as<FuseNode>()) {
            if (!st.count(f->fused))
                continue;
            int fused = st[f->fused];
            st[f->outer] |= fused;
            st[f->inner] |= fused;
        } else if (const auto* r = rel.as<RebaseNode>()) {
            if (st.count(r->rebased))
                st[r->parent] |= st[r->rebased];
        }
    }
}

void passDownBitMaskOr(const Stage& stage, IterVarMap<int>* state) {
    auto& st = *state;
    for (const IterVarRelation& rel : stage->relations) {
        if (const auto* s = rel.as<SplitNode>()) {
            if (!st.count(s->parent))
                continue;
            int parent = st[s->parent];
            st[s->outer] |= parent;
            st[s->inner] |= parent;
        } else if (const auto* f = rel.as<FuseNode>()) {
            if (!st.count(f->outer) && !st.count(f->inner))
                continue;
            int mask =
                (st.count(f->outer) ? st[f->outer] : 0) | (st.count(f->inner) ? st[f->inner] : 0);
            st[f->fused] |= mask;
        } else if (const auto* r = rel.as<RebaseNode>()) {
            if (st.count(r->parent))
                st[r->rebased] |= st[r->parent];
        } else if (const auto* g = rel.as<SingletonNode>()) {
            st[g->iter] = 0;
        }
    }
}

std::vector<Expr> makeBoundCheck(const Stage& stage, const IterVarMap<Range>& domains,
                                 const IterVarMap<Expr>& values, const IterVarSet& skip) {
    IterVarMap<bool> needsCheck = passUpBoundCheck(stage, domains);
    ConstBounds bounds;
    for (const auto& [iv, r] : domains) {
        auto lo = asConstInt(r.min), extent = asConstInt(r.extent);
        if (lo && extent)
            bounds[iv->var] = ConstInterval{*lo, *lo + *extent - 1};
    }
    std::vector<Expr> predicates;
    for (const IterVar& iv : stage->allIterVars) {
        if (skip.count(iv) || iv->iterType == IterVarType::Opaque)
            continue;
        auto it = needsCheck.find(iv);
        if (it == needsCheck.end() || !it->second)
            continue;
        const Range& dom = domains.at(iv);
        Expr value = values.at(iv) - dom.min;
        auto interval = constInterval(value, bounds);
        auto extent = asConstInt(dom.extent);
        if (interval && extent && interval->hi < *extent)
            continue;
        predicates.push_back(value < dom.extent);
    }
    return predicates;
}

} // namespace bs::rewrite
