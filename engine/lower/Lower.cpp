#include "lower/Lower.h"

#include "ir/Functor.h"
#include "ir/Substitute.h"
#include "lower/CommonSubexprElim.h"
#include "lower/LoopAnnotations.h"
#include "lower/RemoveNoOp.h"
#include "lower/ScheduleOps.h"
#include "lower/Simplify.h"
#include "lower/ThreadSync.h"
#include "lower/VerifyVars.h"

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
                if (std::none_of(vars.begin(), vars.end(), [&](const Var& x) { return x.same_as(v); }))
                    vars.push_back(v);
    return vars;
}

} // namespace

LowerResult lower(const Schedule& sch, const std::vector<Tensor>& args, const LowerOptions& options) {
    LowerResult result;
    result.normalized = sch.normalize();
    result.bounds = inferBound(result.normalized, options.rules);
    ScheduleOpsOptions opsOptions;
    opsOptions.keepTrivialLoops = options.keepTrivialLoops;
    if (!result.bounds.realizeBounds.empty())
        opsOptions.realizeBounds = &result.bounds.realizeBounds;
    if (!result.bounds.loopExtents.empty())
        opsOptions.loopExtents = &result.bounds.loopExtents;
    if (!result.bounds.provenInRange.empty())
        opsOptions.provenInRange = &result.bounds.provenInRange;
    LoweredFunc& f = result.func;
    f.args = args;
    f.scalarParams = shapeVars(args);
    f.afterScheduleOps = scheduleOps(result.normalized, result.bounds.bounds, opsOptions);
    FlattenResult flat = storageFlatten(f.afterScheduleOps, args);
    f.afterFlatten = flat.body;
    for (const Tensor& t : args) {
        for (const auto& [tensor, buffer] : flat.buffers)
            if (tensor.same_as(t))
                f.argBuffers.push_back(buffer);
    }
    f.afterSimplify = removeNoOp(simplifyStmt(f.afterFlatten));
    f.afterCse = commonSubexprElim(f.afterSimplify);
    // TVM's order: loop annotations, simplify and clean-up, then CSE last, so that unrolled
    // copies and vector indices are shared rather than recomputed.
    Stmt annotated = removeNoOp(simplifyStmt(vectorizeLoops(unrollLoops(f.afterSimplify))));
    // TVM runs ThreadSync on the device code after lowering (build_module's device passes):
    // barriers go between the shared-memory writes and reads of each kernel.
    f.final = insertThreadSync(commonSubexprElim(annotated));
    // TVM's MakeAPI, the end of tvm.lower, rejects bodies with free variables.
    verifyDefinedVars(f.final, f.scalarParams);
    return result;
}

} // namespace bs
