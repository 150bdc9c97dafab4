#include "schedule/MessagePassing.h"

#include "arith/EvalSet.h"
#include "ir/Equality.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "schedule/ScheduleErrors.h"
#include "support/Check.h"

namespace bs {

namespace {

bool has(const IterVarMap<Range>& rmap, const IterVar& iv) { return rmap.count(iv) != 0; }

/// A bit mask of `iv`, 0 when it has none.
int maskOf(const IterVarMap<int>& st, const IterVar& iv) {
    auto it = st.find(iv);
    return it == st.end() ? 0 : it->second;
}

/// `value + min`, leaving out a literal zero min.
Expr plusMin(const Expr& value, const Expr& min) { return isZero(min) ? value : value + min; }

void report(const PassSink& sink, PassEvent event) {
    if (sink)
        sink(event);
}

// ---------------------------------------------------------------------------------------------
// PassUpDomain (notes section 6)

/// Split: both children unrestricted -> the parent's whole range; otherwise outer * E + inner +
/// parent_min evaluated over their sets, with E the actual (possibly tightened) inner extent.
void passUpSplit(const SplitNode* s, const IterVarMap<Range>& rmap, IterVarMap<IntSet>& state,
                 const PassSink& sink) {
    if (!state.count(s->outer) && !state.count(s->inner))
        return;
    BS_CHECK(state.count(s->outer) && state.count(s->inner))
        << "split of " << s->parent->var.name() << " has one child without a set";
    const IntSet outer = state.at(s->outer), inner = state.at(s->inner);
    PassEvent event{IterVarRelation(s), PassRule::SplitWholeParent};
    event.setsIn = {{s->outer, outer}, {s->inner, inner}};
    if (has(rmap, s->outer) && has(rmap, s->inner) && has(rmap, s->parent) &&
        outer.matchRange(rmap.at(s->outer)) && inner.matchRange(rmap.at(s->inner))) {
        state[s->parent] = IntSet::fromRange(rmap.at(s->parent));
    } else {
        event.rule = PassRule::SplitEvaluated;
        event.evaluated = plusMin(s->outer->var * rmap.at(s->inner).extent + s->inner->var,
                                  rmap.at(s->parent).min);
        VarMap<IntSet> dom{{s->outer->var, outer}, {s->inner->var, inner}};
        state[s->parent] = evalSet(event.evaluated, dom);
    }
    event.setsOut = {{s->parent, state.at(s->parent)}};
    report(sink, std::move(event));
}

/// Fuse: a single fused point splits into floordiv/floormod; an interval gives the outer rows it
/// spans and a tight inner interval only when it never wraps a row (both mod conditions
/// simplify to literal 0), otherwise whole inner rows. The seed's rules fall back to the whole
/// ranges for any interval.
void passUpFuse(const FuseNode* f, const IterVarMap<Range>& rmap, BoundRules rules,
                IterVarMap<IntSet>& state, const PassSink& sink) {
    if (!state.count(f->fused))
        return;
    BS_CHECK(has(rmap, f->outer) && has(rmap, f->inner) && has(rmap, f->fused))
        << "fuse " << f->fused->var.name() << " has children without ranges";
    const IntSet fused = state.at(f->fused);
    const Range& outerRange = rmap.at(f->outer);
    const Range& innerRange = rmap.at(f->inner);
    const Expr innerExtent = innerRange.extent;
    PassEvent event{IterVarRelation(f), PassRule::FuseWhole};
    event.setsIn = {{f->fused, fused}};
    event.evaluated = innerExtent;
    IntSet outer = IntSet::fromRange(outerRange), inner = IntSet::fromRange(innerRange);
    if (fused.matchRange(rmap.at(f->fused))) {
        // whole ranges
    } else if (fused.isSinglePoint()) {
        event.rule = PassRule::FusePoint;
        Expr value = fused.pointValue();
        outer = IntSet::singlePoint(plusMin(floordiv(value, innerExtent), outerRange.min));
        inner = IntSet::singlePoint(plusMin(floormod(value, innerExtent), innerRange.min));
    } else if (rules == BoundRules::Tvm05) {
        event.rule = PassRule::FuseFallback;
    } else {
        Analyzer analyzer;
        Expr fusedExtent = fused.max() - fused.min() + 1;
        outer = IntSet::interval(outerRange.min + floordiv(fused.min(), innerExtent),
                                 outerRange.min + floordiv(fused.max(), innerExtent));
        bool neverWraps = isZero(analyzer.simplify(floormod(innerExtent, fusedExtent))) &&
                          isZero(analyzer.simplify(floormod(fused.min(), fusedExtent)));
        event.rule = neverWraps ? PassRule::FuseOneRow : PassRule::FuseWholeRows;
        if (neverWraps)
            inner = IntSet::interval(innerRange.min + floormod(fused.min(), innerExtent),
                                     innerRange.min + floormod(fused.max(), innerExtent));
    }
    state[f->outer] = outer;
    state[f->inner] = inner;
    event.setsOut = {{f->outer, outer}, {f->inner, inner}};
    report(sink, std::move(event));
}

void passUpRebase(const RebaseNode* r, const IterVarMap<Range>& rmap, IterVarMap<IntSet>& state,
                  const PassSink& sink) {
    if (!state.count(r->rebased))
        return;
    const IntSet rebased = state.at(r->rebased);
    PassEvent event{IterVarRelation(r), PassRule::RebaseWhole};
    event.setsIn = {{r->rebased, rebased}};
    if (rebased.matchRange(rmap.at(r->rebased))) {
        state[r->parent] = IntSet::fromRange(rmap.at(r->parent));
    } else {
        event.rule = PassRule::RebaseShifted;
        event.evaluated = plusMin(r->rebased->var, rmap.at(r->parent).min);
        state[r->parent] = evalSet(event.evaluated, VarMap<IntSet>{{r->rebased->var, rebased}});
    }
    event.setsOut = {{r->parent, state.at(r->parent)}};
    report(sink, std::move(event));
}

// ---------------------------------------------------------------------------------------------
// PassDownDomain (notes section 7)

/// TVM's Update: a range is set once; a second write must agree (min 0, provably equal extent).
void update(IterVarMap<Range>* rmap, const IterVar& iv, const Range& r, Analyzer* analyzer) {
    auto it = rmap->find(iv);
    if (it == rmap->end()) {
        (*rmap)[iv] = r;
        analyzer->bind(iv->var, r);
        return;
    }
    bool match =
        isConstInt(it->second.min, 0) && analyzer->canProve(eq(r.extent - it->second.extent, 0));
    if (!match)
        throw UserError("the range of '" + iv->var.name() +
                        "' is already inferred and the extents cannot be proven equal: " +
                        toString(it->second.extent) + " vs " + toString(r.extent));
}

/// Every loop bound to one thread runs as many iterations as the thread has (TVM's Update
/// fails otherwise): said at the bind of the loop that disagrees, with both extents.
void refuseThreadExtentMismatch(const Stage& stage, const IterVar& iv, const IterVarAttr& attr,
                                const IterVarMap<Range>& rmap, Analyzer& analyzer) {
    auto thread = rmap.find(attr.bindThread);
    if (thread == rmap.end())
        return;
    const Expr& extent = rmap.at(iv).extent;
    if (isConstInt(thread->second.min, 0) &&
        analyzer.canProve(eq(extent - thread->second.extent, 0)))
        return;
    const std::string tag = attr.bindThread->threadTag.empty() ? attr.bindThread->var.name()
                                                               : attr.bindThread->threadTag;
    Diagnostic d{"bind of '" + iv->var.name() + "' in stage '" + stage.name() + "' to " + tag +
                     ": the loop runs " + toString(extent) + " iterations, but " + tag +
                     " already runs " + toString(thread->second.extent) +
                     " for another loop bound to it; every loop bound to one thread must run as "
                     "many iterations as the thread (TVM stops here too)",
                 attr.location};
    d.subject = loopSubject("thread-extent-mismatch", stage, iv);
    d.fix = "split '" + iv->var.name() + "' so that the loop bound to " + tag + " runs " +
            toString(thread->second.extent) + " iterations, or bind it to another thread index";
    throw UserError(std::move(d));
}

struct DownContext {
    IterVarMap<Range>* rmap;
    Analyzer* analyzer;
    BoundRules rules;
    bool allowMissing;
    const IterVarMap<bool>& dominating;
    const PassSink& sink;
    /// The remainder mode: the extents the loops really run (null: ranges only).
    LoopExtents* loops = nullptr;
    /// In the remainder mode: 1 for each IterVar a vectorized or unrolled leaf derives from.
    IterVarMap<int> constantBelow;

    bool dominated(const IterVar& iv) const {
        auto it = dominating.find(iv);
        return it != dominating.end() && it->second;
    }
    bool same(const Expr& a, const Expr& b) const {
        return a.same_as(b) || structuralEqual(a, b) || analyzer->canProveEqual(a, b);
    }
    /// Whether `iv` runs its whole range on every iteration of the loops around it.
    bool uniform(const IterVar& iv) const {
        return same(loops->extents.at(iv), rmap->at(iv).extent);
    }
    /// The loop extents of a relation's `inputs` are known (else the remainders cannot be
    /// expressed).
    bool loopsReady(std::initializer_list<IterVar> inputs) const {
        for (const IterVar& iv : inputs)
            if (!loops->extents.count(iv) || !has(*rmap, iv))
                loops->expressible = false;
        return loops->expressible;
    }

    /// A child's range, written through Update and reported.
    void set(PassEvent& event, const IterVar& iv, const Range& r) {
        update(rmap, iv, r, analyzer);
        event.rangesOut.emplace_back(iv, rmap->at(iv));
    }
    /// The inputs are there, or the relation is skipped (allowMissing) / an internal error.
    bool ready(std::initializer_list<IterVar> inputs, const char* what) const {
        for (const IterVar& iv : inputs) {
            if (has(*rmap, iv))
                continue;
            BS_CHECK(allowMissing) << what << " " << iv->var.name() << " has no range";
            return false;
        }
        return true;
    }
};

/// Split tightening: min(parent, factor) when the parent is provably smaller, but never for
/// thread-dominated IterVars, in the early passes of the rewrites, for a zero extent, or under
/// the seed's rules.
Expr tighten(const DownContext& ctx, const IterVar& child, const Expr& parentExtent,
             const Expr& factor, Tightening* outcome) {
    if (ctx.rules == BoundRules::Tvm05)
        *outcome = Tightening::SeedRules;
    else if (ctx.dominating.count(child) && ctx.dominating.at(child))
        *outcome = Tightening::ThreadBound;
    else if (ctx.allowMissing)
        *outcome = Tightening::EarlyPass;
    else if (isZero(parentExtent))
        *outcome = Tightening::ZeroExtent;
    else if (!ctx.analyzer->canProve(parentExtent < factor))
        *outcome = Tightening::ParentNotSmaller;
    else {
        *outcome = Tightening::Tightened;
        return ctx.analyzer->simplify(parentExtent);
    }
    return factor;
}

// The remainder mode (seed 002, "PassDownDomain"): "If PassDownDomain could set the extent of
// the inner IterVar to min(factor, parent's extent - outer*factor), then the extent of the inner
// variable would properly adapt, based on which iteration of the outer loop is being executed."
// Extent 20 split by 16 runs `for (i.inner, 0, min(16, (20 - (i.outer*16))))`, 16 then 4
// iterations. The ranges keep the factor: it is the stride PassUpIndex multiplies the outer
// value by.

/// A split runs its remainder unless it divides its parent, asks for no predicate, is bound to a
/// thread (every thread runs the factor) or has a vectorized or unrolled loop below it (which
/// needs a constant extent); a split of a parent that runs a remainder itself cannot say its
/// own in loop order.
void splitLoopExtents(const SplitNode* s, DownContext& ctx) {
    if (!ctx.loopsReady({s->parent}))
        return;
    LoopExtents& loops = *ctx.loops;
    const Expr parent = loops.extents.at(s->parent);
    const Expr stride = ctx.rmap->at(s->inner).extent, outer = ctx.rmap->at(s->outer).extent;
    const bool uniform = ctx.uniform(s->parent);
    const bool divides = uniform && ctx.analyzer->canProve(eq(stride * outer, parent));
    std::optional<KeptFactor> kept;
    if (!divides && s->disablePredication)
        kept = KeptFactor::NoPredicate;
    else if (!divides && ctx.dominated(s->parent))
        kept = KeptFactor::ThreadBound;
    else if (!divides && maskOf(ctx.constantBelow, s->inner))
        kept = KeptFactor::ConstantLoop;
    if (divides || kept) {
        loops.extents[s->outer] = outer;
        loops.extents[s->inner] = stride;
        if (kept)
            loops.kept.emplace(s, *kept);
        loops.expressible = uniform;
        return;
    }
    Expr needed = ceilDivExtent(parent, stride, *ctx.analyzer);
    loops.extents[s->outer] = ctx.same(needed, outer) ? outer : needed;
    loops.extents[s->inner] = min(stride, ctx.analyzer->simplify(parent - s->outer->var * stride));
    loops.remainders.insert(s);
}

/// floordiv and floormod by the inner extent need rows of one length.
void fuseLoopExtents(const FuseNode* f, DownContext& ctx) {
    if (!ctx.loopsReady({f->outer, f->inner}))
        return;
    LoopExtents& loops = *ctx.loops;
    if (!ctx.uniform(f->inner)) {
        loops.expressible = false;
        return;
    }
    loops.extents[f->fused] =
        ctx.uniform(f->outer)
            ? ctx.rmap->at(f->fused).extent
            : ctx.analyzer->simplify(loops.extents.at(f->outer) * loops.extents.at(f->inner));
}

void rebaseLoopExtents(const RebaseNode* r, DownContext& ctx) {
    if (!ctx.loopsReady({r->parent}))
        return;
    LoopExtents& loops = *ctx.loops;
    loops.extents[r->rebased] =
        ctx.uniform(r->parent) ? ctx.rmap->at(r->rebased).extent : loops.extents.at(r->parent);
}

void passDownSplit(const SplitNode* s, DownContext& ctx) {
    if (!ctx.ready({s->parent}, "split parent"))
        return;
    const Range parent = ctx.rmap->at(s->parent);
    PassEvent event{IterVarRelation(s), PassRule::SplitByFactor};
    event.rangesIn = {{s->parent, parent}};
    if (s->factor.defined()) {
        Expr inner = tighten(ctx, s->inner, parent.extent, s->factor, &event.tightening);
        ctx.set(event, s->inner, Range(0, inner));
        ctx.set(event, s->outer, Range(0, ceilDivExtent(parent.extent, s->factor, *ctx.analyzer)));
    } else {
        event.rule = PassRule::SplitByNparts;
        Expr outer = tighten(ctx, s->outer, parent.extent, s->nparts, &event.tightening);
        ctx.set(event, s->outer, Range(0, outer));
        ctx.set(event, s->inner, Range(0, ceilDivExtent(parent.extent, s->nparts, *ctx.analyzer)));
    }
    report(ctx.sink, std::move(event));
    if (ctx.loops)
        splitLoopExtents(s, ctx);
}

void passDownFuse(const FuseNode* f, DownContext& ctx) {
    if (!ctx.ready({f->outer, f->inner}, "fuse child"))
        return;
    PassEvent event{IterVarRelation(f), PassRule::FuseProduct};
    const Range outer = ctx.rmap->at(f->outer), inner = ctx.rmap->at(f->inner);
    event.rangesIn = {{f->outer, outer}, {f->inner, inner}};
    ctx.set(event, f->fused, Range(0, outer.extent * inner.extent));
    report(ctx.sink, std::move(event));
    if (ctx.loops)
        fuseLoopExtents(f, ctx);
}

void passDownRebase(const RebaseNode* r, DownContext& ctx) {
    if (!ctx.ready({r->parent}, "rebase parent"))
        return;
    PassEvent event{IterVarRelation(r), PassRule::RebaseCopy};
    const Range parent = ctx.rmap->at(r->parent);
    event.rangesIn = {{r->parent, parent}};
    ctx.set(event, r->rebased, Range(0, parent.extent));
    report(ctx.sink, std::move(event));
    if (ctx.loops)
        rebaseLoopExtents(r, ctx);
}

void passDownSingleton(const SingletonNode* g, DownContext& ctx) {
    PassEvent event{IterVarRelation(g), PassRule::SingletonUnit};
    ctx.set(event, g->iter, Range(0, 1));
    report(ctx.sink, std::move(event));
    if (ctx.loops)
        ctx.loops->extents[g->iter] = makeConst(g->iter->var.type(), int64_t(1));
}

void addUnique(std::vector<BoundCheck>& checks, BoundCheck check) {
    for (const BoundCheck& c : checks)
        if (structuralEqual(c.predicate, check.predicate))
            return;
    checks.push_back(std::move(check));
}

} // namespace

const char* passRuleName(PassRule rule) {
    switch (rule) {
    case PassRule::SplitWholeParent:
        return "split-whole-parent";
    case PassRule::SplitEvaluated:
        return "split-evaluated";
    case PassRule::FuseWhole:
        return "fuse-whole";
    case PassRule::FusePoint:
        return "fuse-point";
    case PassRule::FuseOneRow:
        return "fuse-one-row";
    case PassRule::FuseWholeRows:
        return "fuse-whole-rows";
    case PassRule::FuseFallback:
        return "fuse-fallback";
    case PassRule::RebaseWhole:
        return "rebase-whole";
    case PassRule::RebaseShifted:
        return "rebase-shifted";
    case PassRule::SplitByFactor:
        return "split-factor";
    case PassRule::SplitByNparts:
        return "split-nparts";
    case PassRule::FuseProduct:
        return "fuse-product";
    case PassRule::RebaseCopy:
        return "rebase-copy";
    case PassRule::SingletonUnit:
        return "singleton";
    case PassRule::ThreadBinding:
        return "thread-binding";
    }
    BS_UNREACHABLE("unknown pass rule");
}

const char* tighteningName(Tightening t) {
    switch (t) {
    case Tightening::NotApplicable:
        return "";
    case Tightening::Tightened:
        return "tightened";
    case Tightening::ParentNotSmaller:
        return "parent-not-smaller";
    case Tightening::ThreadBound:
        return "thread-bound";
    case Tightening::SeedRules:
        return "seed-rules";
    case Tightening::EarlyPass:
        return "early-pass";
    case Tightening::ZeroExtent:
        return "zero-extent";
    }
    BS_UNREACHABLE("unknown tightening");
}

const char* boundCheckKindName(BoundCheck::Kind kind) {
    switch (kind) {
    case BoundCheck::Kind::Extent:
        return "extent";
    case BoundCheck::Kind::DomLower:
        return "dom-lower";
    case BoundCheck::Kind::DomUpper:
        return "dom-upper";
    }
    BS_UNREACHABLE("unknown bound check kind");
}

Expr ceilDivExtent(const Expr& a, const Expr& b, Analyzer& analyzer) {
    if (analyzer.canProve(eq(floormod(a, b), 0)))
        return analyzer.simplify(floordiv(a, b));
    return analyzer.simplify(floordiv(a + (b - 1), b));
}

void passUpDomain(const Stage& stage, const IterVarMap<Range>& rmap, BoundRules rules,
                  IterVarMap<IntSet>* state, const PassSink& sink) {
    auto& st = *state;
    for (size_t i = stage->relations.size(); i-- > 0;) {
        visitRelation(stage->relations[i],
                      Overloaded{
                          [&](const SplitNode* s) { passUpSplit(s, rmap, st, sink); },
                          [&](const FuseNode* f) { passUpFuse(f, rmap, rules, st, sink); },
                          [&](const RebaseNode* r) { passUpRebase(r, rmap, st, sink); },
                          [&](const SingletonNode*) {},
                      });
    }
}

IterVarMap<bool> passUpThreadBinding(const Stage& stage) {
    IterVarMap<bool> state;
    for (const IterVar& iv : stage->leafIterVars) {
        const IterVarAttr* attr = stage.attrOf(iv);
        state[iv] = attr && attr->bindThread.defined();
    }
    for (size_t i = stage->relations.size(); i-- > 0;) {
        visitRelation(
            stage->relations[i],
            Overloaded{
                [&](const SplitNode* s) { state[s->parent] = state[s->outer] || state[s->inner]; },
                [&](const FuseNode* f) {
                    state[f->outer] = state[f->fused];
                    state[f->inner] = state[f->fused];
                },
                [&](const RebaseNode* r) { state[r->parent] = state[r->rebased]; },
                [&](const SingletonNode*) {},
            });
    }
    return state;
}

void passDownDomain(const Stage& stage, IterVarMap<Range>* rmap, Analyzer* analyzer,
                    BoundRules rules, bool allowMissing, const PassSink& sink, LoopExtents* loops) {
    IterVarMap<bool> dominating = passUpThreadBinding(stage);
    DownContext ctx{rmap, analyzer, rules, allowMissing, dominating, sink, nullptr, {}};
    if (loops) {
        BS_CHECK(!allowMissing) << "the remainder mode needs every range";
        *loops = LoopExtents{};
        ctx.loops = loops;
        for (const IterVar& iv : stage->op->rootIterVars())
            if (has(*rmap, iv))
                loops->extents[iv] = rmap->at(iv).extent;
        for (const IterVar& leaf : stage->leafIterVars) {
            const IterVarAttr* attr = stage.attrOf(leaf);
            ctx.constantBelow[leaf] = attr && (attr->iterType == IterVarType::Vectorized ||
                                               attr->iterType == IterVarType::Unrolled);
        }
        passUpBitMaskOr(stage, &ctx.constantBelow, /*allowMissing=*/true);
    }
    for (const IterVarRelation& rel : stage->relations) {
        visitRelation(rel, Overloaded{
                               [&](const SplitNode* s) { passDownSplit(s, ctx); },
                               [&](const FuseNode* f) { passDownFuse(f, ctx); },
                               [&](const RebaseNode* r) { passDownRebase(r, ctx); },
                               [&](const SingletonNode* g) { passDownSingleton(g, ctx); },
                           });
    }
    // The thread IterVars take the ranges of the leaves bound to them (in leaf order, so the
    // steps read in loop order); every leaf bound to one thread must agree.
    for (const IterVar& iv : stage->leafIterVars) {
        const IterVarAttr* attr = stage.attrOf(iv);
        if (!attr || !attr->bindThread.defined() || !rmap->count(iv))
            continue;
        refuseThreadExtentMismatch(stage, iv, *attr, *rmap, *analyzer);
        PassEvent event{IterVarRelation(), PassRule::ThreadBinding};
        event.location = attr->location;
        event.rangesIn = {{iv, rmap->at(iv)}};
        ctx.set(event, attr->bindThread, rmap->at(iv));
        report(sink, std::move(event));
    }
}

void passUpIndexOf(const IterVarRelation& rel, const IterVarMap<Range>& dom,
                   const IterVarMap<Expr>& children, IterVarMap<Expr>* parents, bool allowMissing) {
    auto ready = [&](const IterVar& iv, const char* what) {
        if (children.count(iv))
            return true;
        BS_CHECK(allowMissing) << what << " " << iv->var.name() << " has no value";
        return false;
    };
    visitRelation(rel,
                  Overloaded{
                      [&](const SplitNode* s) {
                          if (!ready(s->outer, "split outer") || !ready(s->inner, "split inner"))
                              return;
                          Expr value = children.at(s->inner) +
                                       children.at(s->outer) * dom.at(s->inner).extent;
                          (*parents)[s->parent] = plusMin(value, dom.at(s->parent).min);
                      },
                      [&](const FuseNode* f) {
                          if (!ready(f->fused, "fused"))
                              return;
                          Expr value = children.at(f->fused), factor = dom.at(f->inner).extent;
                          // Both read `value` before either is written: `children` may be
                          // `parents`.
                          Expr outer = cast(f->outer->var.type(),
                                            plusMin(floordiv(value, factor), dom.at(f->outer).min));
                          Expr inner = cast(f->inner->var.type(),
                                            plusMin(floormod(value, factor), dom.at(f->inner).min));
                          (*parents)[f->outer] = outer;
                          (*parents)[f->inner] = inner;
                      },
                      [&](const RebaseNode* r) {
                          if (ready(r->rebased, "rebased"))
                              (*parents)[r->parent] =
                                  plusMin(children.at(r->rebased), dom.at(r->parent).min);
                      },
                      [&](const SingletonNode*) {},
                  });
}

void passUpIndex(const Stage& stage, const IterVarMap<Range>& dom, IterVarMap<Expr>* values,
                 bool allowMissing) {
    for (size_t i = stage->relations.size(); i-- > 0;)
        passUpIndexOf(stage->relations[i], dom, *values, values, allowMissing);
}

void passDownIndex(const Stage& stage, const IterVarMap<Range>& dom, IterVarMap<Expr>* values,
                   bool allowMissing) {
    auto& st = *values;
    auto ready = [&](const IterVar& iv, const char* what) {
        if (st.count(iv))
            return true;
        BS_CHECK(allowMissing) << what << " " << iv->var.name() << " has no value";
        return false;
    };
    for (const IterVarRelation& rel : stage->relations) {
        visitRelation(
            rel, Overloaded{
                     [&](const SplitNode* s) {
                         if (!ready(s->parent, "split parent"))
                             return;
                         const Range& inner = dom.at(s->inner);
                         BS_CHECK(isZero(inner.min))
                             << "split inner " << s->inner->var.name() << " starts at non-zero";
                         st[s->outer] = floordiv(st.at(s->parent), inner.extent);
                         st[s->inner] = floormod(st.at(s->parent), inner.extent);
                     },
                     [&](const FuseNode* f) {
                         if (!ready(f->outer, "fuse outer") || !ready(f->inner, "fuse inner"))
                             return;
                         st[f->fused] = st.at(f->outer) * dom.at(f->inner).extent + st.at(f->inner);
                     },
                     [&](const RebaseNode* r) {
                         if (ready(r->parent, "rebase parent"))
                             st[r->rebased] = st.at(r->parent);
                     },
                     [&](const SingletonNode* g) { st[g->iter] = makeZero(g->iter->var.type()); },
                 });
    }
}

void passUpBitMaskOr(const Stage& stage, IterVarMap<int>* state, bool allowMissing) {
    auto& st = *state;
    for (size_t i = stage->relations.size(); i-- > 0;) {
        visitRelation(stage->relations[i],
                      Overloaded{
                          [&](const SplitNode* s) {
                              if (!st.count(s->outer) && !st.count(s->inner)) {
                                  BS_CHECK(allowMissing)
                                      << "split children of " << s->parent->var.name()
                                      << " have no mask";
                                  return;
                              }
                              st[s->parent] = maskOf(st, s->parent) | maskOf(st, s->outer) |
                                              maskOf(st, s->inner);
                          },
                          [&](const FuseNode* f) {
                              if (!st.count(f->fused)) {
                                  BS_CHECK(allowMissing)
                                      << "fused " << f->fused->var.name() << " has no mask";
                                  return;
                              }
                              st[f->outer] |= st.at(f->fused);
                              st[f->inner] |= st.at(f->fused);
                          },
                          [&](const RebaseNode* r) {
                              if (!st.count(r->rebased)) {
                                  BS_CHECK(allowMissing)
                                      << "rebased " << r->rebased->var.name() << " has no mask";
                                  return;
                              }
                              st[r->parent] |= st.at(r->rebased);
                          },
                          [&](const SingletonNode*) {},
                      });
    }
}

void passDownBitMaskOr(const Stage& stage, IterVarMap<int>* state, bool allowMissing) {
    auto& st = *state;
    for (const IterVarRelation& rel : stage->relations) {
        visitRelation(rel, Overloaded{
                               [&](const SplitNode* s) {
                                   if (!st.count(s->parent)) {
                                       BS_CHECK(allowMissing)
                                           << "split parent " << s->parent->var.name()
                                           << " has no mask";
                                       return;
                                   }
                                   st[s->outer] |= st.at(s->parent);
                                   st[s->inner] |= st.at(s->parent);
                               },
                               [&](const FuseNode* f) {
                                   st[f->fused] |= maskOf(st, f->outer) | maskOf(st, f->inner);
                               },
                               [&](const RebaseNode* r) {
                                   if (!st.count(r->parent)) {
                                       BS_CHECK(allowMissing)
                                           << "rebase parent " << r->parent->var.name()
                                           << " has no mask";
                                       return;
                                   }
                                   st[r->rebased] |= st.at(r->parent);
                               },
                               [&](const SingletonNode* g) { st[g->iter] = 0; },
                           });
    }
}

IterVarMap<bool> passUpBoundCheck(const Stage& stage, const IterVarMap<Range>& dom,
                                  Analyzer& analyzer,
                                  const std::unordered_set<const SplitNode*>* exactSplits) {
    IterVarMap<bool> state;
    for (const IterVar& iv : stage->leafIterVars)
        state[iv] = false;
    for (size_t i = stage->relations.size(); i-- > 0;) {
        visitRelation(
            stage->relations[i],
            Overloaded{
                [&](const SplitNode* s) {
                    if (s->disablePredication) { // TVM: the split asks for no check at all
                        state[s->parent] = false;
                        return;
                    }
                    bool child = state[s->outer] || state[s->inner];
                    if (child || (exactSplits && exactSplits->count(s))) {
                        state[s->parent] = child;
                        return;
                    }
                    if (!has(dom, s->inner) || !has(dom, s->outer) || !has(dom, s->parent)) {
                        state[s->parent] = true;
                        return;
                    }
                    Expr covered = dom.at(s->inner).extent * dom.at(s->outer).extent;
                    state[s->parent] = !analyzer.canProve(eq(dom.at(s->parent).extent, covered));
                },
                [&](const FuseNode* f) {
                    state[f->outer] = state[f->fused];
                    state[f->inner] = state[f->fused];
                },
                [&](const RebaseNode* r) { state[r->parent] = state[r->rebased]; },
                [&](const SingletonNode*) {},
            });
    }
    return state;
}

namespace {

/// Binds in `analyzer` (and `domains`) the range of every IterVar the checks of `stage` can
/// meet: its own, and transitively those its values and ranges name (the loops of the attach
/// path), found through `iterVarOfVar`. TVM binds the whole map, which makes lowering quadratic
/// in the number of stages.
void bindUsedDomains(const Stage& stage, const IterVarMap<Range>& dom,
                     const IterVarMap<Expr>& values, const VarMap<IterVar>& iterVarOfVar,
                     Analyzer& analyzer, VarMap<IntSet>& domains) {
    VarSet wanted;
    std::vector<Var> queue;
    auto want = [&](const Var& v) {
        if (wanted.insert(v).second)
            queue.push_back(v);
    };
    auto wantUsed = [&](const Expr& e) {
        for (const Var& v : usedVars(e))
            want(v);
    };
    for (const IterVar& iv : stage->allIterVars) {
        want(iv->var);
        if (auto it = values.find(iv); it != values.end())
            wantUsed(it->second);
    }
    while (!queue.empty()) {
        Var v = queue.back();
        queue.pop_back();
        auto iv = iterVarOfVar.find(v);
        auto r = iv == iterVarOfVar.end() ? dom.end() : dom.find(iv->second);
        if (r == dom.end())
            continue;
        domains[v] = IntSet::fromRange(r->second);
        analyzer.bind(v, r->second);
        wantUsed(r->second.min);
        wantUsed(r->second.extent);
    }
}

} // namespace

std::vector<BoundCheck> makeBoundCheck(const Stage& stage, const IterVarMap<Range>& dom,
                                       const IterVarMap<Expr>& values, bool skipIterVarDomain,
                                       const IterVarSet& skip,
                                       const VarMap<IterVar>* iterVarOfVar) {
    Analyzer analyzer;
    IterVarMap<bool> needsCheck = passUpBoundCheck(stage, dom, analyzer);
    VarMap<IntSet> domains;
    if (iterVarOfVar) {
        bindUsedDomains(stage, dom, values, *iterVarOfVar, analyzer, domains);
    } else {
        bindUsedDomains(stage, dom, values, iterVarsByVar(dom), analyzer, domains);
    }
    auto leftOut = [&](const IterVar& iv) {
        return skip.count(iv) || iv->iterType == IterVarType::Opaque;
    };
    std::vector<BoundCheck> checks;
    for (const IterVar& iv : stage->allIterVars) {
        // The rewrites (cache_write, rfactor) pass ranges and values of the IterVars they touch.
        if (leftOut(iv) || !needsCheck[iv] || !dom.count(iv) || !values.count(iv))
            continue;
        const Range& r = dom.at(iv);
        Expr value = values.at(iv) - r.min;
        IntSet s = analyzer.intSet(value, domains);
        if (!s.hasUpperBound() || !analyzer.canProve(s.max() < r.extent))
            addUnique(checks, {value < r.extent, iv, BoundCheck::Kind::Extent});
    }
    if (skipIterVarDomain)
        return checks;
    for (const IterVar& iv : stage->op->rootIterVars()) {
        if (leftOut(iv))
            continue;
        const Range& r = dom.at(iv);
        BS_CHECK(iv->dom.defined()) << "root " << iv->var.name() << " has no dom";
        if (analyzer.canProveEqual(iv->dom.min, r.min) &&
            analyzer.canProveEqual(iv->dom.extent, r.extent))
            continue;
        Expr value = values.at(iv) - iv->dom.min;
        IntSet s = analyzer.intSet(value, domains);
        if (!s.hasLowerBound() || !analyzer.canProve(s.min() >= 0))
            addUnique(checks, {value >= 0, iv, BoundCheck::Kind::DomLower});
        if (!s.hasUpperBound() || !analyzer.canProve(s.max() < iv->dom.extent))
            addUnique(checks, {value < iv->dom.extent, iv, BoundCheck::Kind::DomUpper});
    }
    return checks;
}

VarMap<IterVar> iterVarsByVar(const IterVarMap<Range>& dom) {
    VarMap<IterVar> index;
    for (const auto& [iv, r] : dom)
        index.emplace(iv->var, iv);
    return index;
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
