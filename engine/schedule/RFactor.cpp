// Schedule::rfactor (TVM's schedule_dataflow_rewrite.cc, "Handle reduction factor"). Given a
// leaf `axis` derived from the reduce axes of `B`, builds `B.rf`, which reduces over every other
// reduce IterVar and keeps `axis` as a data axis, and replaces `B` by `B.repl`, which reduces
// `B.rf` over `<axis>.v`. Everything is checked and built before the schedule changes.

#include "schedule/MessagePassing.h"
#include "schedule/ScheduleErrors.h"
#include "schedule/ScheduleRewrite.h"

#include "ir/Op.h"
#include "ir/Substitute.h"
#include "support/Check.h"
#include "te/Compute.h"
#include "te/Reduce.h"

namespace bs {

namespace {

/// What the factored reduction is made of.
struct FactorPlan {
    IterVarMap<int> touched;      ///< IterVars related to `axis` (value != 0)
    IterVarMap<Range> domains;    ///< ranges of the touched reduce IterVars and below
    IterVarMap<Expr> values;      ///< touched roots in terms of the touched leaves
    std::vector<Expr> predicates; ///< where splits of touched IterVars overrun
    int position = 0;             ///< where `axis` goes among the data axes

    bool isTouched(const IterVar& iv) const {
        auto it = touched.find(iv);
        return it != touched.end() && it->second != 0;
    }
};

FactorPlan planFactor(const Stage& stage, const ComputeOpNode* compute, const IterVar& axis,
                      int factorAxis, const std::string& context) {
    FactorPlan plan;
    plan.touched[axis] = 1;
    passUpBitMaskOr(stage, &plan.touched, /*allowMissing=*/true);
    passDownBitMaskOr(stage, &plan.touched, /*allowMissing=*/true);
    IterVarSet skip(compute->axis.begin(), compute->axis.end());
    for (const IterVar& iv : compute->axis)
        if (plan.isTouched(iv))
            failPrimitive(context, "'" + axis->var.name() + "' is fused with the data axis '" +
                                       iv->var.name() +
                                       "'; only reduction IterVars can be factored");
    for (const IterVar& iv : compute->reduceAxis) {
        if (plan.isTouched(iv))
            plan.domains[iv] = iv->dom;
        else
            skip.insert(iv);
    }
    Analyzer analyzer;
    passDownDomain(stage, &plan.domains, &analyzer, BoundRules::Tvm, /*allowMissing=*/true);
    for (const IterVar& iv : stage->leafIterVars) {
        if (!plan.isTouched(iv))
            continue;
        BS_CHECK(plan.domains.count(iv)) << "touched leaf " << iv->var.name() << " has no range";
        const Range& dom = plan.domains.at(iv);
        plan.values[iv] = isOne(dom.extent) ? dom.min : Expr(iv->var);
    }
    passUpIndex(stage, plan.domains, &plan.values, /*allowMissing=*/true);
    for (const BoundCheck& check :
         makeBoundCheck(stage, plan.domains, plan.values, /*skipIterVarDomain=*/true, skip))
        plan.predicates.push_back(check.predicate);
    const int ndim = int(compute->axis.size());
    plan.position = factorAxis >= 0 ? factorAxis : ndim + 1 + factorAxis;
    if (plan.position < 0 || plan.position > ndim)
        failPrimitive(context, "factor_axis must be in [" + std::to_string(-ndim - 1) + ", " +
                                   std::to_string(ndim) + "], got " + std::to_string(factorAxis));
    if (!isZero(plan.domains.at(axis).min))
        failPrimitive(context, "can only factor a reduction domain that starts at 0");
    return plan;
}

template <typename T> std::vector<T> insertAt(std::vector<T> list, int position, T value) {
    list.insert(list.begin() + position, std::move(value));
    return list;
}

/// `B.rf`: data axes plus `axis`; reduces over the untouched reduce axes and the other touched
/// leaves, with the touched roots rewritten in terms of the leaves.
Operation makeFactorOp(const Stage& stage, const ComputeOpNode* compute, const ReduceNode* reduce,
                       const IterVar& axis, const FactorPlan& plan, const std::string& context) {
    IterVar dataAxis(plan.domains.at(axis), axis->var, IterVarType::DataPar);
    std::vector<IterVar> axes = insertAt(compute->axis, plan.position, dataAxis);
    Expr predicate = makeBool(true);
    for (const Expr& p : plan.predicates)
        predicate = predicate && p;
    predicate = likely(predicate && reduce->condition);
    VarMap<Expr> vsub;
    std::vector<IterVar> reduceAxes;
    for (const IterVar& iv : compute->reduceAxis) {
        if (plan.isTouched(iv))
            vsub[iv->var] = plan.values.at(iv);
        else
            reduceAxes.push_back(iv);
    }
    for (const IterVar& iv : stage->leafIterVars) {
        if (!plan.isTouched(iv) || iv.same_as(axis))
            continue;
        if (iv->iterType != IterVarType::CommReduce)
            failPrimitive(context, "leaf '" + iv->var.name() + "' derived from the reduction is " +
                                       iterVarTypeName(iv->iterType) + ", not a reduction IterVar");
        reduceAxes.emplace_back(plan.domains.at(iv), iv->var, iv->iterType, iv->threadTag);
    }
    std::vector<Expr> sources;
    for (const Expr& s : reduce->source)
        sources.push_back(substitute(s, vsub));
    Expr condition = substitute(predicate, vsub);
    std::vector<Expr> body;
    for (size_t i = 0; i < sources.size(); ++i)
        body.push_back(ReduceNode::make(reduce->combiner, sources, reduceAxes, condition, int(i)));
    return ComputeOpNode::make(compute->name + ".rf", "", std::move(axes), std::move(body));
}

/// `B.repl`: reduces the rf tensors over `<axis>.v`, one output per reduced value. A reduction
/// with an init keeps it here (the rf stage starts from the identity), its reads re-indexed by
/// the repl axes as TVM does.
std::vector<Tensor> makeReplacement(const Stage& stage, const ReduceNode* reduce,
                                    const Operation& factorOp, const IterVar& axis,
                                    const FactorPlan& plan) {
    IterVar replAxis = reduceAxis(plan.domains.at(axis), axis->var.name() + ".v");
    const std::vector<Expr>& shape = stage->op.output(0).shape();
    std::vector<std::string> names;
    for (size_t i = 0; i < shape.size(); ++i)
        names.push_back("ax" + std::to_string(i));
    auto body = [&](const std::vector<Var>& vars) {
        std::vector<Expr> indices = insertAt(std::vector<Expr>(vars.begin(), vars.end()),
                                             plan.position, Expr(replAxis->var));
        std::vector<Expr> factored;
        for (int i = 0; i < factorOp->numOutputs(); ++i)
            factored.push_back(factorOp.output(i)(indices));
        VarMap<Expr> initSub;
        const auto* compute = stage->op.as<ComputeOpNode>();
        for (size_t i = 0; i < compute->axis.size() && i < vars.size(); ++i)
            initSub[compute->axis[i]->var] = vars[i];
        std::vector<Expr> init;
        for (const Expr& e : reduce->init)
            init.push_back(substitute(e, initSub));
        std::vector<Expr> reductions;
        for (size_t i = 0; i < factored.size(); ++i)
            reductions.push_back(ReduceNode::make(reduce->combiner, factored, {replAxis},
                                                  makeBool(true), int(i), init));
        return reductions;
    };
    return computeMulti(shape, body, stage->op->name + ".repl", "", names);
}

/// The stage's relations that do not involve the factored IterVars.
std::vector<IterVarRelation> untouchedRelations(const Stage& stage, const FactorPlan& plan) {
    std::vector<IterVarRelation> kept;
    for (const IterVarRelation& rel : stage->relations) {
        bool touched =
            visitRelation(rel, Overloaded{
                                   [&](const SplitNode* s) { return plan.isTouched(s->parent); },
                                   [&](const FuseNode* f) { return plan.isTouched(f->fused); },
                                   [&](const RebaseNode* r) { return plan.isTouched(r->parent); },
                                   [&](const SingletonNode*) { return false; },
                               });
        if (!touched)
            kept.push_back(rel);
    }
    return kept;
}

/// Inserts the factored stage right before the reduction stage and makes that stage compute
/// the replacement, with its loops reset; consumers read the replacement.
void replaceReduction(ScheduleNode& sch, const Stage& stage, const Operation& factorOp,
                      const std::vector<Tensor>& replacement, std::vector<IterVarRelation> kept) {
    Stage factorStage = insertStage(sch, stagePosition(sch, stage), factorOp, "", stage);
    factorStage.mutableNode()->relations = std::move(kept);
    TensorMap vmap, rvmap;
    for (int i = 0; i < stage->op->numOutputs(); ++i) {
        vmap[stage->op.output(i)] = replacement[size_t(i)];
        rvmap[replacement[size_t(i)]] = stage->op.output(i);
    }
    replaceDataFlow(sch.stages, &vmap, &rvmap);
    StageNode* node = stage.mutableNode();
    node->op = replacement[0].op;
    node->allIterVars = node->op->rootIterVars();
    node->leafIterVars = node->allIterVars;
    node->relations.clear();
}

} // namespace

std::vector<Tensor> Schedule::rfactor(const Tensor& tensor, const IterVar& axis,
                                      int factorAxis) const {
    if (!tensor.defined())
        throw UserError("rfactor of an undefined tensor");
    const NamesFixedAfter fixed(*get());
    Stage stage = (*this)[tensor.op];
    if (!axis.defined())
        failPrimitive("rfactor in stage '" + stage.name() + "'", "no iter var given");
    const std::string context = primitiveContext("rfactor", axis, stage.name());
    const auto* compute = stage->op.as<ComputeOpNode>();
    const ReduceNode* reduce =
        compute ? compute->body[size_t(tensor.valueIndex)].as<ReduceNode>() : nullptr;
    if (!reduce)
        failPrimitive(context, "stage '" + stage.name() + "' is not a reduction");
    if (axis->iterType != IterVarType::CommReduce)
        failPrimitive(context, std::string("can only factor a reduction IterVar, but '") +
                                   axis->var.name() + "' is " + iterVarTypeName(axis->iterType));
    if (!stage.isLeaf(axis)) {
        DiagnosticSubject subject = leafSubject(axis, stage->allIterVars, stage.name());
        failPrimitive(context,
                      notLeafReason(axis, stage->allIterVars, stage->relations, stage.name()),
                      subject, leafFix(subject, stage->leafIterVars, stage->relations, axis));
    }

    FactorPlan plan = planFactor(stage, compute, axis, factorAxis, context);
    Operation factorOp = makeFactorOp(stage, compute, reduce, axis, plan, context);
    std::vector<Tensor> replacement = makeReplacement(stage, reduce, factorOp, axis, plan);
    std::vector<IterVarRelation> kept = untouchedRelations(stage, plan);

    std::vector<Stage> outputs = outputStages(*this);
    replaceReduction(*mutableNode(), stage, factorOp, replacement, std::move(kept));
    setOutputs(*mutableNode(), outputs);
    std::vector<Tensor> result;
    for (int i = 0; i < factorOp->numOutputs(); ++i)
        result.push_back(factorOp.output(i));
    return result;
}

} // namespace bs
