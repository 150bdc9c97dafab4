#include "lower/ComputeStmt.h"

#include "lower/Tensorize.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "schedule/MessagePassing.h"
#include "support/Check.h"

namespace bs {

Stmt substituteValues(const Stmt& s, const IterVarMap<Expr>& values) {
    VarMap<Expr> map;
    for (const auto& [iv, value] : values)
        map[iv->var] = value;
    return substitute(s, map);
}

LoopNestOptions mainNestOptions(const ScheduleOpsOptions& options) {
    LoopNestOptions nest;
    nest.keepTrivialLoops = options.keepTrivialLoops;
    nest.loopExtents = options.loopExtents;
    nest.steps = options.steps;
    return nest;
}

std::vector<Expr> axisVars(const ComputeOpNode* op) {
    std::vector<Expr> args;
    for (const IterVar& iv : op->axis)
        args.push_back(iv->var);
    return args;
}

namespace {

/// Why a guard is needed, in the seed's terms.
std::string guardText(const Stage& stage, const BoundCheck& check,
                      const IterVarMap<Range>& bounds) {
    const IterVar& iv = check.iv;
    const std::string name = iv->var.name();
    if (check.kind != BoundCheck::Kind::Extent)
        return "Guard likely(" + toString(check.predicate) + ") in '" + stage->op->name +
               "': root " + name + " is computed over " + toString(bounds.at(iv)) +
               ", which is not its domain " + toString(iv->dom) + ", and the loops may leave the " +
               "domain, so the body is kept inside it (MakeBoundCheck).";
    std::string text = "Guard likely(" + toString(check.predicate) + ") in '" + stage->op->name +
                       "': " + name + " may run past its extent " + toString(bounds.at(iv).extent);
    for (const IterVarRelation& rel : stage->relations) {
        const auto* split = rel.as<SplitNode>();
        if (!split || !split->parent.same_as(iv) || !bounds.count(split->outer) ||
            !bounds.count(split->inner))
            continue;
        text += " because its split into " + split->outer->var.name() + " (extent " +
                toString(bounds.at(split->outer).extent) + ") x " + split->inner->var.name() +
                " (extent " + toString(bounds.at(split->inner).extent) + ") covers more";
        break;
    }
    return text + " (PassUpBoundCheck, MakeBoundCheck).";
}

} // namespace

std::vector<Stmt> makeGuards(const Stage& stage, const std::vector<BoundCheck>& checks,
                             const IterVarMap<Range>& bounds, BoundSteps* steps) {
    std::vector<Stmt> nest;
    for (const BoundCheck& check : checks) {
        int id = -1;
        if (steps) {
            BoundStep step;
            step.phase = StepPhase::BoundCheck;
            step.rule = boundCheckKindName(check.kind);
            step.stage = stage->op;
            step.iterVars = {check.iv};
            step.location = check.iv->location;
            step.text = guardText(stage, check, bounds);
            step.outputs.push_back(
                StepValue{"predicate", check.iv, std::nullopt, std::nullopt, check.predicate});
            if (int from = steps->rangeStep(check.iv); from >= 0)
                step.from = {from};
            id = steps->add(std::move(step));
        }
        nest.push_back(
            withStep(IfThenElseNode::make(likely(check.predicate), EvaluateNode::make(0)), id));
    }
    return nest;
}

namespace {

/// The loop nests of a compute stage (TVM's ComputeLoopNest): the main nest with its bound
/// checks, and for reductions the init nest, placed after the leading leaves that touch no
/// reduce axis.
/// The init and update statements of a reduction (TVM's MakeReduction): the init stores the
/// reduction's init values when it has them, else the reducer's identity.
void makeReduction(const ComputeOpNode* op, const Operation& self, Stmt* init, Stmt* update) {
    std::vector<Expr> args = axisVars(op);
    const auto* reduce = op->body[0].as<ReduceNode>();
    BS_CHECK(reduce) << "reduction body expected";
    std::vector<Expr> lhs;
    for (size_t i = 0; i < op->body.size(); ++i)
        lhs.push_back(self.output(int(i))(args));
    std::vector<Expr> updated = reduce->combiner.combine(lhs, reduce->source);
    const std::vector<Expr>& start =
        reduce->init.empty() ? reduce->combiner->identityElement : reduce->init;
    std::vector<Stmt> inits, updates;
    for (size_t i = 0; i < op->body.size(); ++i) {
        Tensor t = self.output(int(i));
        inits.push_back(ProducerStoreNode::make(t, start[i], args));
        updates.push_back(ProducerStoreNode::make(t, updated[i], args));
    }
    *init = SeqNode::make(inits);
    *update = SeqNode::make(updates);
    if (!isOne(reduce->condition))
        *update = IfThenElseNode::make(reduce->condition, *update);
}

} // namespace

ComputeLoopNest makeComputeLoopNest(const Stage& stage, const IterVarMap<Range>& bounds,
                                    const ScheduleOpsOptions& options) {
    const ComputeAxes op = computeAxesOf(stage->op);
    BS_CHECK(op) << "stage " << stage.name() << " has no compute axes";
    ComputeLoopNest n;
    static const IterVarSet kNone;
    const IterVarSet& proven = options.provenInRange ? *options.provenInRange : kNone;
    n.mainNest = makeLoopNest(stage, bounds, mainNestOptions(options), &n.mainValues);
    n.mainNest.push_back(makeGuards(
        stage, makeBoundCheck(stage, bounds, n.mainValues, false, proven, options.iterVarOfVar),
        bounds, options.steps));
    // TVM adds the store predicate to the main nest's predicates, unwrapped (ComputeLoopNest).
    if (stage->storePredicate.defined())
        n.mainNest.back().push_back(
            IfThenElseNode::make(stage->storePredicate, EvaluateNode::make(0)));
    if ((*op.reduceAxis).empty()) {
        n.numCommonLoops = stage->leafIterVars.size();
        return n;
    }
    IterVarMap<int> mask;
    for (const IterVar& iv : (*op.reduceAxis))
        mask[iv] = 2;
    for (const IterVar& iv : (*op.axis))
        mask[iv] = 1;
    passDownBitMaskOr(stage, &mask);
    const auto& leaves = stage->leafIterVars;
    size_t begin = leaves.size();
    for (size_t i = 0; i < leaves.size(); ++i) {
        if (mask[leaves[i]] & 2) {
            begin = i;
            break;
        }
        n.initValues[leaves[i]] = n.mainValues.at(leaves[i]);
    }
    n.numCommonLoops = begin;
    LoopNestOptions initOptions;
    initOptions.beginLeaf = begin;
    initOptions.newLoopVars = true;
    initOptions.keepTrivialLoops = options.keepTrivialLoops;
    initOptions.loopExtents = options.loopExtents;
    initOptions.steps = options.steps;
    for (const auto& [iv, flag] : mask)
        if (flag == 2)
            initOptions.skip.insert(iv);
    n.initNest = makeLoopNest(stage, bounds, initOptions, &n.initValues);
    IterVarSet initSkip = initOptions.skip;
    initSkip.insert(proven.begin(), proven.end());
    n.initNest.push_back(makeGuards(
        stage, makeBoundCheck(stage, bounds, n.initValues, true, initSkip, options.iterVarOfVar),
        bounds, options.steps));
    return n;
}

Stmt makeComputeStmt(const ComputeOpNode* op, const Stage& stage, const IterVarMap<Range>& bounds,
                     const ScheduleOpsOptions& options) {
    if (isCrossThreadReduction(op, stage)) {
        if (int leaf = tensorizedLeaf(stage); leaf >= 0)
            throw UserError(Diagnostic{"tensorize of '" + stage.name() +
                                           "': its reduction is "
                                           "across threads (a reduce loop is bound to a thread), "
                                           "which a tensor intrinsic cannot compute (TVM: Cannot "
                                           "mix cross thread reduction with Tensorize)",
                                       stage.attrOf(stage->leafIterVars[size_t(leaf)])->location});
        return makeCrossThreadReduction(op, stage, bounds, options);
    }
    if (tensorizedLeaf(stage) >= 0)
        return makeTensorize(op, stage, bounds, options);
    ComputeLoopNest n = makeComputeLoopNest(stage, bounds, options);
    if (op->reduceAxis.empty()) {
        std::vector<Stmt> provides;
        for (size_t i = 0; i < op->body.size(); ++i)
            provides.push_back(
                ProducerStoreNode::make(stage->op.output(int(i)), op->body[i], axisVars(op)));
        Stmt provide = mergeNest(n.mainNest, SeqNode::make(provides));
        return substituteValues(provide, n.mainValues);
    }
    Stmt init, update;
    makeReduction(op, stage->op, &init, &update);
    init = substituteValues(mergeNest(n.initNest, init), n.initValues);
    LoopNest common(n.mainNest.begin(), n.mainNest.begin() + long(n.numCommonLoops) + 1);
    LoopNest reduce(n.mainNest.begin() + long(n.numCommonLoops) + 1, n.mainNest.end());
    update = mergeNest(reduce, update);
    Stmt body = mergeNest(common, SeqNode::make({init, update}));
    return substituteValues(body, n.mainValues);
}

} // namespace bs
