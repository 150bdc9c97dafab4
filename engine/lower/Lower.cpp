#include "lower/Lower.h"

#include "ir/Functor.h"
#include "ir/Substitute.h"
#include "lower/CommonSubexprElim.h"
#include "lower/HoistIfThenElse.h"
#include "lower/InjectDoubleBuffer.h"
#include "lower/InjectPrefetch.h"
#include "lower/LoopAnnotations.h"
#include "lower/LowerThreadAllreduce.h"
#include "lower/RemoveNoOp.h"
#include "lower/ScheduleOps.h"
#include "lower/Simplify.h"
#include "lower/ThreadSync.h"
#include "lower/VerifyVars.h"
#include "support/Cancellation.h"
#include "te/Operation.h"

#include <algorithm>

namespace bs {

const char* lowerPassName(LowerPass pass) {
    switch (pass) {
    case LowerPass::ScheduleOps:
        return "schedule_ops";
    case LowerPass::Flatten:
        return "flatten";
    case LowerPass::Simplify:
        return "simplify";
    case LowerPass::Cse:
        return "cse";
    case LowerPass::Final:
        return "final";
    }
    return "final";
}

std::optional<LowerPass> parseLowerPass(const std::string& name) {
    for (LowerPass p : {LowerPass::ScheduleOps, LowerPass::Flatten, LowerPass::Simplify,
                        LowerPass::Cse, LowerPass::Final})
        if (name == lowerPassName(p))
            return p;
    return std::nullopt;
}

const Stmt& LoweredFunc::after(LowerPass pass) const {
    switch (pass) {
    case LowerPass::ScheduleOps:
        return afterScheduleOps;
    case LowerPass::Flatten:
        return afterFlatten;
    case LowerPass::Simplify:
        return afterSimplify;
    case LowerPass::Cse:
        return afterCse;
    case LowerPass::Final:
        return final;
    }
    return final;
}

namespace {

/// The variables of the shapes of the arguments: the function's scalar parameters.
std::vector<Var> shapeVars(const std::vector<Tensor>& args) {
    std::vector<Var> vars;
    for (const Tensor& t : args)
        for (const Expr& e : t.shape())
            for (const Var& v : usedVars(e))
                if (std::none_of(vars.begin(), vars.end(),
                                 [&](const Var& x) { return x.same_as(v); }))
                    vars.push_back(v);
    return vars;
}

void addUnique(std::vector<Var>& vars, const Var& v) {
    if (std::none_of(vars.begin(), vars.end(), [&](const Var& x) { return x.same_as(v); }))
        vars.push_back(v);
}

/// The parameters of `func`: the shape variables of its arguments, the scalars given, and with
/// `freeScalarsAsParams` the program's other scalars that the body uses.
std::vector<Var> scalarParameters(const Schedule& sch, const std::vector<Tensor>& args,
                                  const LowerOptions& options, const Stmt& body) {
    std::vector<Var> params = shapeVars(args);
    for (const Var& v : options.scalarArgs)
        addUnique(params, v);
    if (!options.freeScalarsAsParams)
        return params;
    VarMap<bool> used;
    postOrderVisit(body, [&used](const NodeRef& node) {
        if (const auto* v = node.as<VarNode>())
            used[Var(v)] = true;
    });
    for (const Var& v : programScalars(sch))
        if (used.count(v))
            addUnique(params, v);
    return params;
}

} // namespace

std::vector<Var> programScalars(const Schedule& sch) {
    VarMap<bool> loopVars;
    for (const Stage& stage : sch->stages) {
        for (const IterVar& iv : stage->allIterVars)
            loopVars[iv->var] = true;
        for (const auto& [iv, attr] : stage->iterVarAttrs)
            if (attr.bindThread.defined())
                loopVars[attr.bindThread->var] = true;
    }
    std::vector<Var> scalars;
    auto collect = [&](const Expr& e) {
        if (!e.defined())
            return;
        for (const Var& v : usedVars(e))
            if (!v.type().isHandle() && !loopVars.count(v))
                addUnique(scalars, v);
    };
    auto collectRange = [&](const Range& r) {
        if (r.defined()) {
            collect(r.min);
            collect(r.extent);
        }
    };
    for (const Stage& stage : sch->stages) {
        for (int i = 0; i < stage->op->numOutputs(); ++i)
            for (const Expr& e : stage->op.output(i).shape())
                collect(e);
        for (const IterVar& iv : stage->allIterVars)
            collectRange(iv->dom);
        for (const IterVarRelation& rel : stage->relations)
            if (const auto* split = rel.as<SplitNode>()) {
                collect(split->factor);
                collect(split->nparts);
            }
        if (const auto* compute = stage->op.as<ComputeOpNode>())
            for (const Expr& body : compute->body)
                collect(body);
        if (const auto* tc = stage->op.as<TensorComputeOpNode>()) {
            for (const Region& region : tc->inputRegions)
                for (const Range& r : region)
                    collectRange(r);
            for (const Expr& e : tc->scalarInputs)
                collect(e);
        }
    }
    return scalars;
}

namespace {

/// Runs the user passes of `phase` on `s`, recording each result.
Stmt runUserPasses(int phase, Stmt s, const LowerOptions& options, LoweredFunc& f) {
    for (const UserPass& pass : options.userPasses) {
        if (pass.phase != phase && !(phase == 3 && pass.phase > 3))
            continue;
        s = pass.run(s);
        if (!s.defined())
            throw UserError("lower: the pass '" + pass.name + "' (phase " +
                            std::to_string(pass.phase) + ") returned no statement");
        f.afterUserPasses.emplace_back(pass.name, s);
    }
    return s;
}

} // namespace

LowerResult lower(const Schedule& sch, const std::vector<Tensor>& args,
                  const LowerOptions& options) {
    for (const UserPass& pass : options.userPasses)
        if (pass.phase < 0)
            throw UserError("lower: the pass '" + pass.name + "' has phase " +
                            std::to_string(pass.phase) + "; phases are 0 to 3");
    LowerResult result;
    throwIfCancelled();
    result.normalized = sch.normalize();
    result.bounds =
        inferBound(result.normalized, options.rules, normalizeSteps(sch, result.normalized));
    ScheduleOpsOptions opsOptions;
    opsOptions.steps = &result.bounds.steps;
    opsOptions.keepTrivialLoops = options.keepTrivialLoops;
    if (!result.bounds.realizeBounds.empty())
        opsOptions.realizeBounds = &result.bounds.realizeBounds;
    if (!result.bounds.loopExtents.empty())
        opsOptions.loopExtents = &result.bounds.loopExtents;
    if (!result.bounds.provenInRange.empty())
        opsOptions.provenInRange = &result.bounds.provenInRange;
    LoweredFunc& f = result.func;
    f.args = args;
    throwIfCancelled();
    f.afterScheduleOps = scheduleOps(result.normalized, result.bounds.bounds, opsOptions);
    throwIfCancelled();
    if (options.rules == BoundRules::Compact) {
        CompactResult compact = compactStorage(f.afterScheduleOps, args, &result.bounds.steps);
        f.afterScheduleOps = compact.body;
        result.compactions = std::move(compact.compactions);
    }
    f.scalarParams = scalarParameters(result.normalized, args, options, f.afterScheduleOps);
    // TVM runs InjectPrefetch just before StorageFlatten.
    Stmt phase0 = runUserPasses(0, f.afterScheduleOps, options, f);
    FlattenResult flat = storageFlatten(injectPrefetch(phase0), args, &result.bounds.steps);
    // TVM's InjectDoubleBuffer follows StorageFlatten (it works on flat buffers).
    f.afterFlatten = injectDoubleBuffer(flat.body);
    f.allocations = flat.allocations;
    for (const Tensor& t : args) {
        for (const auto& [tensor, buffer] : flat.buffers)
            if (tensor.same_as(t))
                f.argBuffers.push_back(buffer);
    }
    throwIfCancelled();
    f.afterSimplify = removeNoOp(simplifyStmt(f.afterFlatten));
    throwIfCancelled();
    auto cse = [&](const Stmt& s) { return options.commonSubexprElim ? commonSubexprElim(s) : s; };
    const Stmt phase1 = runUserPasses(1, f.afterSimplify, options, f);
    f.afterCse = cse(phase1);
    // TVM's order: conditions hoisted out of the loops they do not depend on, loop annotations,
    // simplify and clean-up, then CSE last, so that unrolled copies and vector indices are shared
    // rather than recomputed.
    Stmt hoisted = options.hoistIfThenElse ? hoistIfThenElse(phase1) : phase1;
    Stmt phase2 = runUserPasses(2, vectorizeLoops(unrollLoops(hoisted)), options, f);
    throwIfCancelled();
    Stmt annotated = runUserPasses(3, removeNoOp(simplifyStmt(phase2)), options, f);
    throwIfCancelled();
    // TVM runs ThreadSync on the device code after lowering (build_module's device passes):
    // barriers go between the shared-memory writes and reads of each kernel.
    f.final = insertThreadSync(cse(annotated));
    // TVM's MakeAPI, the end of tvm.lower, rejects bodies with free variables.
    verifyDefinedVars(f.final, f.scalarParams);
    f.device = lowerThreadAllreduce(f.final);
    return result;
}

} // namespace bs
