#include "lower/LoopNest.h"

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/StorageScope.h"
#include "schedule/MessagePassing.h"
#include "schedule/ScheduleErrors.h"
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

/// A vectorized or unrolled loop needs a constant extent (TVM's VectorizeLoop and UnrollLoop
/// fail later on one that is not). Said here, at the script line of the vectorize or unroll.
void requireConstantExtent(const Stage& stage, const IterVar& iv, const Expr& extent) {
    ForKind kind = forKindOf(stage, iv);
    if ((kind != ForKind::Vectorized && kind != ForKind::Unrolled) || asConstInt(extent))
        return;
    const char* what = kind == ForKind::Vectorized ? "vectorize" : "unroll";
    const IterVarAttr* attr = stage.attrOf(iv);
    Diagnostic d{std::string(what) + " of loop '" + iv->var.name() + "' in stage '" + stage.name() +
                     "': its extent must be a constant, but it is " + toString(extent),
                 attr && attr->location.known() ? attr->location : currentSourceLocation()};
    d.subject = loopSubject("symbolic-extent", stage, iv);
    d.fix = "split it by a constant first and " + std::string(what) +
            " the inner loop: outer, inner = s[" + stage.name() + "].split(" +
            scriptNameOf(stage, iv) + ", factor=4); s[" + stage.name() + "]." + what + "(inner)";
    throw UserError(std::move(d));
}

/// TVM's MakeLoopNest for `prefetch`: inside the loop, one `prefetch_scope` attr per tensor
/// (InjectPrefetch reads them). A loop of one iteration has nothing to prefetch ahead of.
void emitPrefetches(const Stage& stage, const IterVar& iv, const Range& dom,
                    const IterVarAttr& attr, const LoopNestOptions& opt, std::vector<Stmt>& level) {
    if (attr.prefetches.empty())
        return;
    if (!opt.keepTrivialLoops && isOne(dom.extent)) {
        Diagnostic d{"prefetch of loop '" + iv->var.name() + "' in stage '" + stage.name() +
                         "': the loop has one iteration, so there is no later iteration to "
                         "prefetch for (TVM: \"Cannot prefetch on trivial loop with extent=1\")",
                     attr.location.known() ? attr.location : currentSourceLocation()};
        d.subject = loopSubject("prefetch-trivial-loop", stage, iv);
        throw UserError(std::move(d));
    }
    for (const auto& [tensor, offset] : attr.prefetches)
        level.push_back(AttrStmtNode::make(tensor.op, attr::kPrefetchScope, offset, noOp()));
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
    const int step = opt.steps ? opt.steps->loopStep(iv) : -1;
    requireConstantExtent(stage, iv, dom.extent);
    if (!opt.keepTrivialLoops && isOne(dom.extent)) {
        level.push_back(LetStmtNode::make(var, dom.min, noOp()));
        (*valueMap)[iv] = dom.min;
    } else if (isZero(dom.min)) {
        level.push_back(
            withStep(ForNode::make(var, 0, dom.extent, forKindOf(stage, iv), noOp()), step));
        (*valueMap)[iv] = var;
    } else {
        Var idx(iv->var.name() + ".idx", iv->var.type());
        level.push_back(
            withStep(ForNode::make(idx, 0, dom.extent, forKindOf(stage, iv), noOp()), step));
        Expr value = dom.min + idx;
        (*valueMap)[iv] = value;
        level.push_back(LetStmtNode::make(var, value, noOp()));
    }
    if (it != stage->iterVarAttrs.end() && !opt.newLoopVars)
        emitPrefetches(stage, iv, dom, it->second, opt, level);
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
    int step = opt.steps ? opt.steps->rangeStep(thread) : -1;
    if (step < 0 && opt.steps)
        step = opt.steps->rangeStep(iv);
    if (tag == "vthread" || tag == "cthread") {
        level.push_back(
            withStep(AttrStmtNode::make(thread, attr::kVirtualThread, dom.extent, noOp()), step));
        if (regionHoldsVirtualThread(stage, bounds, thread))
            (*valueMap)[iv] = dom.min;
        else
            (*valueMap)[iv] = isZero(dom.min) ? Expr(thread->var) : dom.min + thread->var;
        return;
    }
    level.push_back(
        withStep(AttrStmtNode::make(thread, attr::kThreadExtent, dom.extent, noOp()), step));
    if (!opt.keepTrivialLoops && isOne(dom.extent)) {
        (*valueMap)[iv] = dom.min;
        return;
    }
    if (!threadSharesStorage(stage->scope, tag))
        (*valueMap)[iv] = dom.min;
    else
        (*valueMap)[iv] = isZero(dom.min) ? Expr(thread->var) : dom.min + thread->var;
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
        body = withStep(body, s->stepId());
    }
    return body;
}

Stmt mergeNest(const LoopNest& nest, Stmt body) {
    for (size_t i = nest.size(); i-- > 0;)
        body = mergeNest(nest[i], body);
    return body;
}

} // namespace bs
