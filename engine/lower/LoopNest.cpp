#include "lower/LoopNest.h"

#include "arith/Analyzer.h"
#include "ir/Equality.h"
#include "ir/Op.h"
#include "schedule/InferBoundPassing.h"
#include "schedule/StorageScope.h"
#include "support/Check.h"

namespace bs {

namespace {

Stmt noOp() { return EvaluateNode::make(0); }

ForKind forKindOf(const Stage& stage, const IterVar& iv) {
    auto it = stage->iterVarAttrs.find(iv);
    if (it == stage->iterVarAttrs.end())
        return ForKind::Serial;
    switch (it->second.iterType) {
    case IterVarType::Unrolled:
        return ForKind::Unrolled;
    case IterVarType::Vectorized:
        return ForKind::Vectorized;
    case IterVarType::Parallelized:
        return ForKind::Parallel;
    default:
        return ForKind::Serial;
    }
}

IterVar boundThreadOf(const Stage& stage, const IterVar& iv) {
    auto it = stage->iterVarAttrs.find(iv);
    if (it != stage->iterVarAttrs.end() && it->second.bindThread.defined())
        return it->second.bindThread;
    return iv;
}

/// A leaf that is an ordinary loop: `for`, or `let` for extent 1, or an `.idx` loop plus `let`
/// for a non-zero min.
void emitLoop(const Stage& stage, const IterVar& iv, const Range& dom, const LoopNestOptions& opt,
              std::vector<Stmt>& level, IterVarMap<Expr>* valueMap) {
    Var var = iv->var;
    if (opt.newLoopVars)
        var = Var(iv->var.name() + ".init", iv->var.type());
    auto it = stage->iterVarAttrs.find(iv);
    if (it != stage->iterVarAttrs.end()) {
        for (const auto& [key, value] : it->second.pragmas)
            level.push_back(AttrStmtNode::make(iv, std::string(attr::kPragmaPrefix) + key,
                                               value.defined() ? value : Expr(1), noOp()));
    }
    if (!opt.keepTrivialLoops && isOne(dom.extent)) {
        level.push_back(LetStmtNode::make(var, dom.min, noOp()));
        (*valueMap)[iv] = dom.min;
    } else if (isZero(dom.min)) {
        level.push_back(ForNode::make(var, 0, dom.extent, forKindOf(stage, iv), noOp()));
        (*valueMap)[iv] = var;
    } else {
        Var idx(iv->var.name() + ".idx", iv->var.type());
        level.push_back(ForNode::make(idx, 0, dom.extent, forKindOf(stage, iv), noOp()));
        Expr value = dom.min + idx;
        (*valueMap)[iv] = value;
        level.push_back(LetStmtNode::make(var, value, noOp()));
    }
}

/// A leaf bound to a thread: `// attr [thread] thread_extent = e`; the value is the thread
/// variable where the stage's storage is shared by that thread, else the min (a local stage's
/// thread offset is already in its realize region). Note: the scope STRING decides here, with
/// no inference, as in TVM. A bound leaf keeps a non-zero min when normalize() could not rebase
/// it: a root axis of a compute_at'ed stage bound directly (`s[AS].bind(AS.op.axis[0], ty)`
/// ranges over `[by*16, 16)`). TVM rejects that with `ICHECK(is_zero(dom->min))`; we run it
/// as TVM would after rebasing, the thread covering the range from its min: `min + threadIdx`.
///
/// A virtual thread (`virtual_thread` attr) is a serial loop, whose value TVM always takes as
/// the thread variable. That is right where the stage's region covers every virtual thread
/// (global or shared storage, or a thread only the stage itself binds), but where the region
/// already holds the thread (regionHoldsVirtualThread) the offset would count twice: TVM's
/// test_local_stage_predicate ("local vs. vthread") stores B at `vthread + vthread` under a
/// guard `vthread < 1`. There the leaf contributes its min, as a local stage's threadIdx leaf
/// does, and StorageFlatten gives each virtual thread its own copy of the buffer.
void emitThread(const Stage& stage, const IterVar& iv, const IterVar& thread, const Range& dom,
                const IterVarMap<Range>& bounds, const LoopNestOptions& opt,
                std::vector<Stmt>& level, IterVarMap<Expr>* valueMap) {
    const std::string& tag = thread->threadTag;
    if (tag == "vthread" || tag == "cthread") {
        level.push_back(AttrStmtNode::make(thread, attr::kVirtualThread, dom.extent, noOp()));
        if (regionHoldsVirtualThread(stage, bounds, thread))
            (*valueMap)[iv] = dom.min;
        else
            (*valueMap)[iv] = isZero(dom.min) ? Expr(thread->var) : dom.min + thread->var;
        return;
    }
    level.push_back(AttrStmtNode::make(thread, attr::kThreadExtent, dom.extent, noOp()));
    if (!opt.keepTrivialLoops && isOne(dom.extent)) {
        (*valueMap)[iv] = dom.min;
        return;
    }
    ThreadScope ts = ThreadScope::create(tag);
    bool shared = stage->scope.empty() || stage->scope == "warp" ||
                  int(StorageScope::create(stage->scope).rank) <= ts.rank;
    if (!shared)
        (*valueMap)[iv] = dom.min;
    else
        (*valueMap)[iv] = isZero(dom.min) ? Expr(thread->var) : dom.min + thread->var;
}

bool isRangeSame(const Range& a, const Range& b) {
    Analyzer analyzer;
    return analyzer.canProveEqual(a.min, b.min) && analyzer.canProveEqual(a.extent, b.extent);
}

/// TVM's PassUpBoundCheck: which IterVars may run past their parent's range.
IterVarMap<bool> passUpBoundCheck(const Stage& stage, const IterVarMap<Range>& bounds,
                                  Analyzer& analyzer) {
    IterVarMap<bool> state;
    for (const IterVar& iv : stage->leafIterVars)
        state[iv] = false;
    for (size_t i = stage->relations.size(); i-- > 0;) {
        const IterVarRelation& rel = stage->relations[i];
        if (const auto* s = rel.as<SplitNode>()) {
            bool child = state[s->outer] || state[s->inner];
            if (!bounds.count(s->inner) || !bounds.count(s->outer)) {
                state[s->parent] = true;
                continue;
            }
            Expr covered = bounds.at(s->inner).extent * bounds.at(s->outer).extent;
            state[s->parent] = child || !analyzer.canProve(eq(bounds.at(s->parent).extent, covered));
        } else if (const auto* f = rel.as<FuseNode>()) {
            state[f->outer] = state[f->fused];
            state[f->inner] = state[f->fused];
        } else if (const auto* r = rel.as<RebaseNode>()) {
            state[r->parent] = state[r->rebased];
        }
    }
    return state;
}

void addUnique(std::vector<Expr>& preds, const Expr& e) {
    for (const Expr& p : preds)
        if (structuralEqual(p, e))
            return;
    preds.push_back(e);
}

} // namespace

LoopNest makeLoopNest(const Stage& stage, const IterVarMap<Range>& bounds,
                      const LoopNestOptions& opt, IterVarMap<Expr>* valueMap) {
    const auto& leaves = stage->leafIterVars;
    LoopNest nest(leaves.size() + 1);
    for (size_t i = opt.beginLeaf; i < leaves.size(); ++i) {
        const IterVar& iv = leaves[i];
        if (opt.skip.count(iv) || iv->iterType == IterVarType::Opaque) {
            (*valueMap)[iv] = iv->var;
            continue;
        }
        auto it = bounds.find(iv);
        BS_CHECK(it != bounds.end()) << "leaf " << iv->var.name() << " has no bound";
        IterVar thread = boundThreadOf(stage, iv);
        Range dom = it->second;
        if (opt.loopExtents && opt.loopExtents->count(iv))
            dom = Range(dom.min, opt.loopExtents->at(iv));
        if (thread->threadTag.empty())
            emitLoop(stage, iv, dom, opt, nest[i + 1], valueMap);
        else
            emitThread(stage, iv, thread, it->second, bounds, opt, nest[i + 1], valueMap);
        if (!opt.newLoopVars)
            nest[i + 1].push_back(AttrStmtNode::make(iv, attr::kLoopScope, iv->var, noOp()));
    }
    passUpIndex(stage, bounds, valueMap);
    return nest;
}

std::vector<Expr> makeBoundCheck(const Stage& stage, const IterVarMap<Range>& bounds,
                                 const IterVarMap<Expr>& valueMap, bool skipIterVarDomain,
                                 const std::unordered_set<IterVar, NodeHash, NodeEqual>& skip) {
    Analyzer analyzer;
    IterVarMap<bool> needsCheck = passUpBoundCheck(stage, bounds, analyzer);
    VarMap<IntSet> domains;
    for (const auto& [iv, r] : bounds) {
        domains[iv->var] = IntSet::fromRange(r);
        analyzer.bind(iv->var, r);
    }
    std::vector<Expr> preds;
    for (const IterVar& iv : stage->allIterVars) {
        if (skip.count(iv) || iv->iterType == IterVarType::Opaque || !needsCheck[iv])
            continue;
        const Range& dom = bounds.at(iv);
        Expr value = valueMap.at(iv) - dom.min;
        IntSet s = analyzer.intSet(value, domains);
        if (!s.hasUpperBound() || !analyzer.canProve(s.max() < dom.extent))
            addUnique(preds, value < dom.extent);
    }
    for (const IterVar& iv : stage->op->rootIterVars()) {
        if (skip.count(iv) || iv->iterType == IterVarType::Opaque || skipIterVarDomain)
            continue;
        const Range& dom = bounds.at(iv);
        BS_CHECK(iv->dom.defined()) << "root " << iv->var.name() << " has no dom";
        if (isRangeSame(iv->dom, dom))
            continue;
        Expr value = valueMap.at(iv) - iv->dom.min;
        IntSet s = analyzer.intSet(value, domains);
        if (!s.hasLowerBound() || !analyzer.canProve(s.min() >= 0))
            addUnique(preds, value >= 0);
        if (!s.hasUpperBound() || !analyzer.canProve(s.max() < iv->dom.extent))
            addUnique(preds, value < iv->dom.extent);
    }
    return preds;
}

void passUpIndex(const Stage& stage, const IterVarMap<Range>& bounds, IterVarMap<Expr>* state,
                 bool allowMissing) {
    auto& st = *state;
    for (size_t i = stage->relations.size(); i-- > 0;) {
        const IterVarRelation& rel = stage->relations[i];
        if (const auto* s = rel.as<SplitNode>()) {
            if (!st.count(s->outer) || !st.count(s->inner)) {
                BS_CHECK(allowMissing) << "split children of " << s->parent->var.name() << " have no value";
                continue;
            }
            Expr value = st.at(s->inner) + st.at(s->outer) * bounds.at(s->inner).extent;
            Expr parentMin = bounds.at(s->parent).min;
            st[s->parent] = isZero(parentMin) ? value : value + parentMin;
        } else if (const auto* f = rel.as<FuseNode>()) {
            if (!st.count(f->fused)) {
                BS_CHECK(allowMissing) << "fused " << f->fused->var.name() << " has no value";
                continue;
            }
            Expr value = st.at(f->fused);
            Expr factor = bounds.at(f->inner).extent;
            Expr outerMin = bounds.at(f->outer).min, innerMin = bounds.at(f->inner).min;
            Expr outer = floordiv(value, factor), inner = floormod(value, factor);
            st[f->outer] = isZero(outerMin) ? outer : outer + outerMin;
            st[f->inner] = isZero(innerMin) ? inner : inner + innerMin;
        } else if (const auto* r = rel.as<RebaseNode>()) {
            if (!st.count(r->rebased)) {
                BS_CHECK(allowMissing) << "rebased " << r->rebased->var.name() << " has no value";
                continue;
            }
            Expr parentMin = bounds.at(r->parent).min;
            st[r->parent] = isZero(parentMin) ? st.at(r->rebased) : st.at(r->rebased) + parentMin;
        }
    }
}

void passDownBitMaskOr(const Stage& stage, IterVarMap<int>* state, bool allowMissing) {
    auto& st = *state;
    for (const IterVarRelation& rel : stage->relations) {
        if (const auto* s = rel.as<SplitNode>()) {
            if (!st.count(s->parent)) {
                BS_CHECK(allowMissing) << "split parent without a mask";
                continue;
            }
            st[s->outer] |= st.at(s->parent);
            st[s->inner] |= st.at(s->parent);
        } else if (const auto* f = rel.as<FuseNode>()) {
            int flag = (st.count(f->outer) ? st.at(f->outer) : 0) | (st.count(f->inner) ? st.at(f->inner) : 0);
            st[f->fused] |= flag;
        } else if (const auto* r = rel.as<RebaseNode>()) {
            if (!st.count(r->parent)) {
                BS_CHECK(allowMissing) << "rebase parent without a mask";
                continue;
            }
            st[r->rebased] |= st.at(r->parent);
        } else if (const auto* single = rel.as<SingletonNode>()) {
            st[single->iter] = 0;
        }
    }
}

std::vector<Stmt> makeIfNest(const std::vector<Expr>& predicates) {
    std::vector<Stmt> nest;
    for (const Expr& cond : predicates)
        nest.push_back(IfThenElseNode::make(cond, noOp()));
    return nest;
}

Stmt mergeNest(const std::vector<Stmt>& level, Stmt body) {
    for (size_t i = level.size(); i-- > 0;) {
        const Stmt& s = level[i];
        if (const auto* f = s.as<ForNode>()) {
            body = ForNode::make(f->loopVar, f->min, f->extent, f->kind, body, f->threadBinding);
        } else if (const auto* l = s.as<LetStmtNode>()) {
            body = LetStmtNode::make(l->var, l->value, body);
        } else if (const auto* a = s.as<AttrStmtNode>()) {
            body = AttrStmtNode::make(a->node, a->key, a->value, body);
        } else if (const auto* c = s.as<IfThenElseNode>()) {
            body = IfThenElseNode::make(c->condition, body);
        } else if (const auto* as = s.as<AssertStmtNode>()) {
            body = AssertStmtNode::make(as->condition, as->message, body);
        } else {
            BS_UNREACHABLE("not a nest statement");
        }
    }
    return body;
}

Stmt mergeNest(const LoopNest& nest, Stmt body) {
    for (size_t i = nest.size(); i-- > 0;)
        body = mergeNest(nest[i], body);
    return body;
}

} // namespace bs
