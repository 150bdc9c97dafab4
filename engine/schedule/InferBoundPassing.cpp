#include "schedule/InferBoundPassing.h"

#include "arith/EvalSet.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "support/Check.h"

namespace bs {

namespace {

bool hasRange(const IterVarMap<Range>& rmap, const IterVar& iv) { return rmap.count(iv) != 0; }

/// Split, PassUp (notes section 6): both children unrestricted -> the parent's full range;
/// otherwise outer * E + inner + parent_min with E the actual (possibly tightened) inner extent.
IntSet passUpSplit(const SplitNode* s, const IterVarMap<Range>& rmap, const IntSet& outer,
                   const IntSet& inner) {
    if (hasRange(rmap, s->outer) && hasRange(rmap, s->inner) && hasRange(rmap, s->parent) &&
        outer.matchRange(rmap.at(s->outer)) && inner.matchRange(rmap.at(s->inner)))
        return IntSet::fromRange(rmap.at(s->parent));
    Expr factor = rmap.at(s->inner).extent;
    Expr parentMin = rmap.at(s->parent).min;
    VarMap<IntSet> dom{{s->outer->var, outer}, {s->inner->var, inner}};
    return evalSet(s->outer->var * factor + s->inner->var + parentMin, dom);
}

/// Fuse, PassUp: a single fused point splits into floordiv/floormod; an interval gives the outer
/// rows it spans and a tight inner interval only when the fused interval never wraps a row
/// (both mod conditions simplify to literal 0); otherwise whole inner rows. TVM 0.6 fell back
/// to the full ranges for any interval.
void passUpFuse(const FuseNode* s, const IterVarMap<Range>& rmap, BoundRules rules,
                const IntSet& fused, IntSet* outer, IntSet* inner) {
    BS_CHECK(hasRange(rmap, s->outer) && hasRange(rmap, s->inner) && hasRange(rmap, s->fused))
        << "fuse " << s->fused->var.name() << " has children without ranges";
    const Range& outerRange = rmap.at(s->outer);
    const Range& innerRange = rmap.at(s->inner);
    if (fused.matchRange(rmap.at(s->fused))) {
        *outer = IntSet::fromRange(outerRange);
        *inner = IntSet::fromRange(innerRange);
        return;
    }
    Expr outerMin = outerRange.min, innerMin = innerRange.min, innerExtent = innerRange.extent;
    if (fused.isSinglePoint()) {
        Expr value = fused.pointValue();
        Expr vOuter = floordiv(value, innerExtent);
        Expr vInner = floormod(value, innerExtent);
        if (!isZero(outerMin))
            vOuter = vOuter + outerMin;
        if (!isZero(innerMin))
            vInner = vInner + innerMin;
        *outer = IntSet::singlePoint(vOuter);
        *inner = IntSet::singlePoint(vInner);
        return;
    }
    if (rules == BoundRules::Tvm06) {
        *outer = IntSet::fromRange(outerRange);
        *inner = IntSet::fromRange(innerRange);
        return;
    }
    Analyzer analyzer;
    Expr fusedExtent = fused.max() - fused.min() + 1;
    *outer = IntSet::interval(outerMin + floordiv(fused.min(), innerExtent),
                              outerMin + floordiv(fused.max(), innerExtent));
    bool neverWraps = isZero(analyzer.simplify(floormod(innerExtent, fusedExtent))) &&
                      isZero(analyzer.simplify(floormod(fused.min(), fusedExtent)));
    if (neverWraps) {
        *inner = IntSet::interval(innerMin + floormod(fused.min(), innerExtent),
                                  innerMin + floormod(fused.max(), innerExtent));
        return;
    }
    *inner = IntSet::fromRange(innerRange);
}

IntSet passUpRebase(const RebaseNode* s, const IterVarMap<Range>& rmap, const IntSet& rebased) {
    if (rebased.matchRange(rmap.at(s->rebased)))
        return IntSet::fromRange(rmap.at(s->parent));
    Expr parentMin = rmap.at(s->parent).min;
    return evalSet(s->rebased->var + parentMin, VarMap<IntSet>{{s->rebased->var, rebased}});
}

/// TVM's Update: a range is set once; a second write must agree (min 0, provably equal extent).
void update(IterVarMap<Range>* rmap, const IterVar& iv, const Range& r, Analyzer* analyzer) {
    auto it = rmap->find(iv);
    if (it == rmap->end()) {
        (*rmap)[iv] = r;
        analyzer->bind(iv->var, r);
        return;
    }
    bool match = isConstInt(it->second.min, 0) && analyzer->canProve(eq(r.extent - it->second.extent, 0));
    if (!match)
        throw UserError("the range of '" + iv->var.name() +
                        "' is already inferred and the extents cannot be proven equal: " +
                        toString(it->second.extent) + " vs " + toString(r.extent));
}

} // namespace

void passUpDomain(const Stage& stage, const IterVarMap<Range>& rmap, BoundRules rules,
                  IterVarMap<IntSet>* state) {
    auto& st = *state;
    for (size_t i = stage->relations.size(); i-- > 0;) {
        const IterVarRelation& rel = stage->relations[i];
        if (const auto* s = rel.as<SplitNode>()) {
            if (!st.count(s->outer) && !st.count(s->inner))
                continue;
            BS_CHECK(st.count(s->outer) && st.count(s->inner))
                << "split of " << s->parent->var.name() << " has one child without a set";
            st[s->parent] = passUpSplit(s, rmap, st.at(s->outer), st.at(s->inner));
        } else if (const auto* f = rel.as<FuseNode>()) {
            if (!st.count(f->fused))
                continue;
            IntSet outer, inner;
            passUpFuse(f, rmap, rules, st.at(f->fused), &outer, &inner);
            st[f->outer] = outer;
            st[f->inner] = inner;
        } else if (const auto* r = rel.as<RebaseNode>()) {
            if (!st.count(r->rebased))
                continue;
            st[r->parent] = passUpRebase(r, rmap, st.at(r->rebased));
        } else if (rel.as<SingletonNode>()) {
            continue;
        } else {
            BS_UNREACHABLE("unknown relation");
        }
    }
}

IterVarMap<bool> dominatingThreads(const Stage& stage) {
    IterVarMap<bool> state;
    for (const IterVar& iv : stage->leafIterVars) {
        auto it = stage->iterVarAttrs.find(iv);
        state[iv] = it != stage->iterVarAttrs.end() && it->second.bindThread.defined();
    }
    for (size_t i = stage->relations.size(); i-- > 0;) {
        const IterVarRelation& rel = stage->relations[i];
        if (const auto* s = rel.as<SplitNode>()) {
            state[s->parent] = state[s->outer] || state[s->inner];
        } else if (const auto* f = rel.as<FuseNode>()) {
            state[f->outer] = state[f->fused];
            state[f->inner] = state[f->fused];
        } else if (const auto* r = rel.as<RebaseNode>()) {
            state[r->parent] = state[r->rebased];
        }
    }
    return state;
}

void passDownDomain(const Stage& stage, IterVarMap<Range>* rmap, Analyzer* analyzer,
                    BoundRules rules, bool allowMissing) {
    auto ceilDiv = [analyzer](const Expr& a, const Expr& b) {
        if (analyzer->canProve(eq(floormod(a, b), 0)))
            return analyzer->simplify(floordiv(a, b));
        return analyzer->simplify(floordiv(a + (b - 1), b));
    };
    IterVarMap<bool> dominating = dominatingThreads(stage);
    for (const IterVarRelation& rel : stage->relations) {
        if (const auto* s = rel.as<SplitNode>()) {
            if (!rmap->count(s->parent)) {
                BS_CHECK(allowMissing) << "split parent " << s->parent->var.name() << " has no range";
                continue;
            }
            const Range parent = rmap->at(s->parent);
            // Split tightening (notes section 7): min(parent, factor) when provably smaller, but
            // never for thread-dominated IterVars, in early phases, a zero extent, or TVM 0.6.
            auto tighten = [&](const IterVar& iv, const Expr& f) {
                if (rules == BoundRules::Tvm06 || dominating[iv] || allowMissing || isZero(parent.extent))
                    return f;
                return analyzer->canProve(parent.extent < f) ? analyzer->simplify(parent.extent) : f;
            };
            if (s->factor.defined()) {
                update(rmap, s->inner, Range(0, tighten(s->inner, s->factor)), analyzer);
                update(rmap, s->outer, Range(0, ceilDiv(parent.extent, s->factor)), analyzer);
            } else {
                update(rmap, s->outer, Range(0, tighten(s->outer, s->nparts)), analyzer);
                update(rmap, s->inner, Range(0, ceilDiv(parent.extent, s->nparts)), analyzer);
            }
        } else if (const auto* f = rel.as<FuseNode>()) {
            if (!rmap->count(f->outer) || !rmap->count(f->inner)) {
                BS_CHECK(allowMissing) << "fuse " << f->fused->var.name() << " has children without ranges";
                continue;
            }
            update(rmap, f->fused, Range(0, rmap->at(f->outer).extent * rmap->at(f->inner).extent),
                   analyzer);
        } else if (const auto* r = rel.as<RebaseNode>()) {
            if (!rmap->count(r->parent)) {
                BS_CHECK(allowMissing) << "rebase parent " << r->parent->var.name() << " has no range";
                continue;
            }
            update(rmap, r->rebased, Range(0, rmap->at(r->parent).extent), analyzer);
        } else if (const auto* single = rel.as<SingletonNode>()) {
            update(rmap, single->iter, Range(0, 1), analyzer);
        } else {
            BS_UNREACHABLE("unknown relation");
        }
    }
    // The thread IterVars take the ranges of the leaves bound to them; every leaf bound to one
    // thread must agree.
    for (const auto& [iv, attr] : stage->iterVarAttrs) {
        if (!attr.bindThread.defined() || !rmap->count(iv))
            continue;
        update(rmap, attr.bindThread, rmap->at(iv), analyzer);
    }
}

bool regionHoldsVirtualThread(const Stage& stage, const IterVarMap<Range>& rmap,
                              const IterVar& thread) {
    if (thread->threadTag != "vthread" && thread->threadTag != "cthread")
        return false;
    for (const IterVar& root : stage->op->rootIterVars()) {
        auto it = rmap.find(root);
        if (it != rmap.end() &&
            (usesVar(it->second.min, thread->var) || usesVar(it->second.extent, thread->var)))
            return true;
    }
    return false;
}

} // namespace bs
