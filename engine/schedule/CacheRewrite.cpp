// Schedule::cacheRead and Schedule::cacheWrite (TVM's schedule_dataflow_rewrite.cc). Both
// validate everything and build the new operations before they change the schedule.

#include "schedule/MessagePassing.h"
#include "schedule/ScheduleErrors.h"
#include "schedule/ScheduleRewrite.h"

#include "ir/Op.h"
#include "ir/Substitute.h"
#include "support/Check.h"
#include "te/Compute.h"

#include <algorithm>

namespace bs {

namespace {

/// TVM's internal computes name their axes `ax0`, `ax1`, ... (C++ `te::compute`).
std::vector<std::string> internalAxisNames(size_t n) {
    std::vector<std::string> names;
    for (size_t i = 0; i < n; ++i)
        names.push_back("ax" + std::to_string(i));
    return names;
}

/// `A.shared`, `A.v1.shared` for output 1 of a multi-output op, `.d` added until unique.
std::string cacheReadName(const ScheduleNode& sch, const Tensor& tensor, const std::string& scope) {
    std::string base = tensor.name();
    if (tensor.op->numOutputs() != 1)
        base += ".v" + std::to_string(tensor.valueIndex);
    auto taken = [&](const std::string& name) {
        return std::any_of(sch.stages.begin(), sch.stages.end(),
                           [&](const Stage& s) { return s->op->name == name; });
    };
    while (taken(base + "." + scope))
        base += ".d";
    return base + "." + scope;
}

/// TVM's InjectPredicate: a reduction's condition gains the predicates; any other value is
/// selected against zero.
Expr injectPredicate(const std::vector<Expr>& predicates, const Expr& body) {
    if (predicates.empty())
        return body;
    if (const auto* r = body.as<ReduceNode>()) {
        Expr condition = r->condition;
        for (const Expr& p : predicates)
            condition = condition && p;
        return ReduceNode::make(r->combiner, r->source, r->axis, condition, r->valueIndex, r->init);
    }
    Expr condition = makeBool(true);
    for (const Expr& p : predicates)
        condition = condition && p;
    return select(condition, body, makeZero(body.type()));
}

void mapOutputs(const Operation& from, const Operation& to, TensorMap* vmap, TensorMap* rvmap) {
    for (int i = 0; i < from->numOutputs(); ++i) {
        (*vmap)[from.output(i)] = to.output(i);
        (*rvmap)[to.output(i)] = from.output(i);
    }
}

/// What cache_write needs from the original stage's loops (TVM's PrepareAxisMapping).
struct AxisMapping {
    IterVarMap<Range> domains;
    std::vector<IterVar> cacheAxes; ///< one `.c` axis per data-parallel leaf
    VarMap<Expr> rootToLeaves;      ///< root axis var -> its value from the leaves
    VarMap<Expr> leafToCacheAxis;   ///< leaf var -> the cache axis var
    std::vector<Expr> predicates;
};

AxisMapping prepareAxisMapping(const Stage& stage, ComputeAxes compute,
                               const std::string& context) {
    AxisMapping m;
    IterVarSet reduceAxes(compute.reduceAxis->begin(), compute.reduceAxis->end());
    for (const IterVar& iv : *compute.axis)
        m.domains[iv] = iv->dom;
    Analyzer analyzer;
    passDownDomain(stage, &m.domains, &analyzer, BoundRules::Tvm, /*allowMissing=*/true);
    IterVarMap<Expr> values;
    for (const IterVar& iv : stage->leafIterVars) {
        if (reduceAxes.count(iv))
            continue;
        if (iv->iterType != IterVarType::DataPar || !m.domains.count(iv))
            failPrimitive(context, std::string("the cache can only be laid out along data-parallel "
                                               "leaves, but leaf '") +
                                       iv->var.name() + "' of stage '" + stage.name() + "' is " +
                                       iterVarTypeName(iv->iterType));
        IterVar cacheAxis(m.domains.at(iv), copyWithSuffix(iv->var, ".c"), iv->iterType);
        m.cacheAxes.push_back(cacheAxis);
        values[iv] = iv->var;
        m.leafToCacheAxis[iv->var] = cacheAxis->var;
    }
    passUpIndex(stage, m.domains, &values, /*allowMissing=*/true);
    for (const BoundCheck& check :
         makeBoundCheck(stage, m.domains, values, /*skipIterVarDomain=*/true, reduceAxes))
        m.predicates.push_back(check.predicate);
    for (const IterVar& iv : *compute.axis)
        if (values.count(iv))
            m.rootToLeaves[iv->var] = values.at(iv);
    return m;
}

/// The cache's body: the original body over the leaves, predicated where splits overrun,
/// renamed to the cache axes; the outputs of one reduction keep sharing its parts.
std::vector<Expr> cacheBody(const ComputeOpNode* compute, const AxisMapping& m) {
    std::vector<Expr> bodies;
    const ReduceNode* firstReduce = nullptr;
    for (const Expr& original : compute->body) {
        Expr body = substitute(original, m.rootToLeaves);
        body = injectPredicate(m.predicates, body);
        body = substitute(body, m.leafToCacheAxis);
        if (const auto* r = body.as<ReduceNode>()) {
            if (firstReduce)
                body =
                    ReduceNode::make(firstReduce->combiner, firstReduce->source, firstReduce->axis,
                                     firstReduce->condition, r->valueIndex, firstReduce->init);
            else
                firstReduce = r;
        }
        bodies.push_back(body);
    }
    return bodies;
}

/// The indices at which the original stage reads the cache: each data-parallel leaf's value
/// in terms of the root axes.
std::vector<Expr> cacheReadIndices(const Stage& stage, ComputeAxes compute, const AxisMapping& m) {
    IterVarSet reduceAxes(compute.reduceAxis->begin(), compute.reduceAxis->end());
    IterVarMap<Expr> values;
    for (const IterVar& iv : *compute.axis)
        values[iv] = iv->var;
    passDownIndex(stage, m.domains, &values, /*allowMissing=*/true);
    std::vector<Expr> indices;
    for (const IterVar& iv : stage->leafIterVars)
        if (!reduceAxes.count(iv))
            indices.push_back(values.at(iv));
    return indices;
}

/// The checks of cache_write: a compute (or tensor compute) stage, tensors that are its outputs
/// (one or all).
void checkCacheWrite(const Schedule& sch, const Stage& stage, const std::vector<Tensor>& tensors,
                     const std::string& scope, const std::string& context) {
    if (scope.empty())
        failPrimitive(context, "the storage scope must not be empty");
    const Operation& compute = stage->op;
    if (!computeAxesOf(compute))
        failPrimitive(context, "only a compute can be cached for writing, '" + stage.name() +
                                   "' is a " + stage->op->typeKey());
    for (const Tensor& t : tensors)
        if (!t.defined() || !sch[t.op].same_as(stage))
            failPrimitive(context,
                          "every tensor must be an output of stage '" + stage.name() + "'");
    if (tensors.size() != 1 && tensors.size() != size_t(compute->numOutputs()))
        failPrimitive(context, "give one tensor or all " + std::to_string(compute->numOutputs()) +
                                   " outputs of '" + stage.name() + "', not " +
                                   std::to_string(tensors.size()));
}

/// TVM's CacheWriteWithReLayoutTensor: the cache is the tensor compute over one axis per
/// data-parallel leaf (then the intrinsic's own axes), its regions rewritten onto them; the
/// original stage copies from it.
std::pair<Operation, Operation> cacheTensorCompute(const Stage& stage,
                                                   const TensorComputeOpNode* tc,
                                                   const std::string& scope,
                                                   const std::string& context) {
    if (tc->numOutputs() != 1)
        failPrimitive(context, "a tensor compute stage with several outputs cannot be cached for "
                               "writing (TVM: cache write only support single output "
                               "tensor_compute_op)");
    if (!stage->relations.empty())
        failPrimitive(context, "the loops of tensor compute stage '" + stage.name() +
                                   "' were split or fused, so the cache would not call "
                                   "the intrinsic once per iteration of its axes; call cache_write "
                                   "first");
    AxisMapping m = prepareAxisMapping(stage, computeAxesOf(stage->op), context);
    std::vector<IterVar> cacheAxes = m.cacheAxes;
    for (size_t i = size_t(tc->schedulableNdim); i < tc->axis.size(); ++i) {
        const IterVar& iv = tc->axis[i];
        cacheAxes.emplace_back(iv->dom, copyWithSuffix(iv->var, ".c"), iv->iterType);
    }
    auto onCacheAxes = [&](const Expr& e) {
        return substitute(substitute(e, m.rootToLeaves), m.leafToCacheAxis);
    };
    std::vector<Region> regions;
    for (const Region& region : tc->inputRegions) {
        regions.emplace_back();
        for (const Range& r : region)
            regions.back().push_back(Range(onCacheAxes(r.min), onCacheAxes(r.extent)));
    }
    std::vector<Expr> scalars;
    for (const Expr& e : tc->scalarInputs)
        scalars.push_back(onCacheAxes(e));
    Operation cacheOp =
        TensorComputeOpNode::make(tc->name + "." + scope, tc->tag, cacheAxes, tc->reduceAxis,
                                  tc->schedulableNdim, tc->intrin, tc->inputs, regions, scalars);
    // The original stage copies every axis, the intrinsic's too, so they become loops.
    std::vector<IterVar> copyAxes(tc->axis.begin(), tc->axis.begin() + tc->schedulableNdim);
    std::vector<Expr> indices = cacheReadIndices(stage, computeAxesOf(stage->op), m);
    for (size_t i = size_t(tc->schedulableNdim); i < tc->axis.size(); ++i) {
        const IterVar& iv = tc->axis[i];
        copyAxes.emplace_back(iv->dom, iv->var, IterVarType::DataPar);
        indices.push_back(iv->var);
    }
    Operation copyOp =
        ComputeOpNode::make(tc->name, tc->tag, copyAxes, {cacheOp.output(0)(indices)});
    return {cacheOp, copyOp};
}

/// TVM's ReplaceOriginalOp: consumers read `copyOp`, the stage computes it over its root axes
/// with its loops reset, and the cache stage goes right before it. Every output is remapped
/// (TVM remaps output 0 only, which leaves readers of other outputs dangling).
void replaceOriginalOp(ScheduleNode& sch, const Stage& stage, const Operation& copyOp,
                       const Operation& cacheOp, const std::string& scope) {
    TensorMap vmap, rvmap;
    mapOutputs(stage->op, copyOp, &vmap, &rvmap);
    replaceDataFlow(sch.stages, &vmap, &rvmap);
    StageNode* node = stage.mutableNode();
    node->op = copyOp;
    node->allIterVars = copyOp->rootIterVars();
    node->leafIterVars = node->allIterVars;
    node->relations.clear();
    insertStage(sch, stagePosition(sch, stage), cacheOp, scope, stage);
}

} // namespace

Tensor Schedule::cacheRead(const Tensor& tensor, const std::string& scope,
                           const std::vector<Operation>& readers) const {
    if (!tensor.defined())
        throw UserError("cache_read of an undefined tensor");
    const std::string context = "cache_read of '" + tensor.name() + "' into '" + scope + "'";
    if (scope.empty())
        failPrimitive(context, "the storage scope must not be empty");
    ScheduleNode& sch = *mutableNode();
    const NamesFixedAfter fixed(sch);
    Stage source = (*this)[tensor.op];
    Tensor sugar = source->op.output(tensor.valueIndex);
    Tensor cache = compute(
        sugar.shape(),
        [&](const std::vector<Var>& i) { return sugar(std::vector<Expr>(i.begin(), i.end())); },
        cacheReadName(sch, tensor, scope), "", internalAxisNames(sugar.ndim()));
    TensorMap vsub{{sugar, cache}};
    // Check every reader before changing anything.
    std::vector<std::pair<Stage, Operation>> rewritten;
    for (const Operation& reader : readers) {
        Stage s = (*this)[reader];
        auto same = [&](const auto& entry) { return entry.first.same_as(s); };
        if (std::any_of(rewritten.begin(), rewritten.end(), same))
            continue;
        Operation replaced = replaceInputs(s->op, vsub);
        if (replaced.same_as(s->op))
            failPrimitive(context,
                          "stage '" + s.name() + "' does not read '" + tensor.name() + "'");
        rewritten.emplace_back(s, replaced);
    }
    std::vector<Stage> outputs = outputStages(*this);
    TensorMap vmap, rvmap;
    for (const auto& [s, replaced] : rewritten) {
        mapOutputs(s->op, replaced, &vmap, &rvmap);
        s.mutableNode()->op = replaced;
    }
    replaceDataFlow(sch.stages, &vmap, &rvmap);
    insertStage(sch, stagePosition(sch, source) + 1, cache.op, scope, source);
    setOutputs(sch, outputs);
    return cache;
}

Tensor Schedule::cacheWrite(const Tensor& tensor, const std::string& scope) const {
    return cacheWrite(std::vector<Tensor>{tensor}, scope)[0];
}

std::vector<Tensor> Schedule::cacheWrite(const std::vector<Tensor>& tensors,
                                         const std::string& scope) const {
    if (tensors.empty() || !tensors[0].defined())
        throw UserError("cache_write: no tensor given");
    const std::string context = "cache_write of '" + tensors[0].name() + "' into '" + scope + "'";
    const NamesFixedAfter fixed(*get());
    Stage stage = (*this)[tensors[0].op];
    checkCacheWrite(*this, stage, tensors, scope, context);
    if (const auto* tc = stage->op.as<TensorComputeOpNode>()) {
        auto [cacheOp, copyOp] = cacheTensorCompute(stage, tc, scope, context);
        std::vector<Stage> outputs = outputStages(*this);
        replaceOriginalOp(*mutableNode(), stage, copyOp, cacheOp, scope);
        setOutputs(*mutableNode(), outputs);
        return {cacheOp.output(0)};
    }
    const auto* compute = stage->op.as<ComputeOpNode>();
    AxisMapping mapping = prepareAxisMapping(stage, computeAxesOf(stage->op), context);
    Operation cacheOp = ComputeOpNode::make(compute->name + "." + scope, compute->tag,
                                            mapping.cacheAxes, cacheBody(compute, mapping));
    std::vector<Expr> indices = cacheReadIndices(stage, computeAxesOf(stage->op), mapping);
    std::vector<Expr> copyBody;
    for (int i = 0; i < cacheOp->numOutputs(); ++i)
        copyBody.push_back(cacheOp.output(i)(indices));
    Operation copyOp = ComputeOpNode::make(compute->name, compute->tag, compute->axis, copyBody);

    std::vector<Stage> outputs = outputStages(*this);
    replaceOriginalOp(*mutableNode(), stage, copyOp, cacheOp, scope);
    setOutputs(*mutableNode(), outputs);
    std::vector<Tensor> result;
    for (const Tensor& t : tensors)
        result.push_back(cacheOp.output(t.valueIndex));
    return result;
}

} // namespace bs
