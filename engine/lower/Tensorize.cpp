/// TVM's tensorize (src/te/operation/tensorize.cc: InferTensorizeRegion,
/// VerifyTensorizeLoopNest, MatchTensorizeBody, VerifyTensorizeBody, MakeTensorize; and
/// compute_op.cc's TransformUpdate).

#include "lower/Tensorize.h"

#include "arith/Analyzer.h"
#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "lower/ComputeStmt.h"
#include "schedule/MessagePassing.h"
#include "support/Check.h"
#include "te/Operation.h"

namespace bs {

namespace {

/// A user error about `stage` calling `intrin`: at the tensorize line, or at the tensor
/// compute stage's.
[[noreturn]] void fail(const Stage& stage, const TensorIntrin& intrin, const std::string& why) {
    int leaf = tensorizedLeaf(stage);
    if (leaf < 0 || stage->op.as<TensorComputeOpNode>())
        throw UserError(Diagnostic{"'" + stage.name() + "' calls tensor intrinsic '" +
                                       intrin->name + "': " + why,
                                   stage->op->location});
    const IterVarAttr* attr = stage.attrOf(stage->leafIterVars[size_t(leaf)]);
    throw UserError(Diagnostic{
        "tensorize of '" + stage.name() + "' with '" + intrin->name + "': " + why, attr->location});
}

/// The intrinsic's statements with its buffers bound (outputs innermost, as TVM nests them)
/// and its own variables (reduce-axis extents, scalar parameters) replaced, then the IterVars'
/// values substituted.
struct BoundCall {
    std::vector<Stmt> inputBinds;
    std::vector<Stmt> outputBinds;
    VarMap<Expr> vars;

    Stmt operator()(Stmt s, bool withInputs, const IterVarMap<Expr>& values) const {
        s = mergeNest(outputBinds, s);
        if (withInputs)
            s = mergeNest(inputBinds, s);
        if (!vars.empty())
            s = substitute(s, vars);
        return substituteValues(s, values);
    }
};

/// Binds the intrinsic's variable `declared` (a Var) to `actual`, or proves a constant equal.
void bindIntrinVar(const Stage& stage, const TensorIntrin& intrin, const Expr& declared,
                   const Expr& actual, const std::string& what, VarMap<Expr>* vars) {
    if (const auto* v = declared.as<VarNode>()) {
        (*vars)[Var(v)] = actual;
        return;
    }
    Analyzer analyzer;
    if (!analyzer.canProveEqual(declared, actual))
        fail(stage, intrin,
             what + " is " + toString(declared) + ", the call gives " + toString(actual));
}

/// The per-axis union of every read of `t` in `body` over `dom`.
Region readRegion(const std::vector<Expr>& body, const Tensor& t, const VarMap<IntSet>& dom,
                  Analyzer& analyzer) {
    std::vector<std::vector<IntSet>> sets(t.ndim());
    for (const auto& indices : distinctReads(body, [&](const Tensor& r) { return r.same_as(t); }))
        for (size_t d = 0; d < indices.size(); ++d)
            sets[d].push_back(analyzer.intSet(indices[d], dom));
    Region region;
    for (size_t d = 0; d < t.ndim(); ++d) {
        Range r = unionSets(sets[d]).coverRange(Range());
        if (!r.defined())
            throw UserError("tensorize: cannot deduce the region of input " + t.name() +
                            " that the tensorized loops read along axis " + std::to_string(d));
        region.push_back(r);
    }
    return region;
}

/// Rewrites the stage's body onto the intrinsic's axes and placeholders (TVM's
/// TensorIntrinMatcher).
class IntrinMatcher : public IRMutator {
public:
    struct Input {
        Tensor tensor;
        size_t start = 0;
        Region region;
    };
    std::unordered_map<Tensor, Input, TensorHash, TensorEqual> inputs;
    VarMap<Expr> vars;
    IterVarMap<IterVar> axes;

protected:
    using IRMutator::visit;
    Expr visit(const ProducerLoadNode* op) override {
        Expr e = IRMutator::visit(op);
        const auto* load = e.as<ProducerLoadNode>();
        auto it = inputs.find(load->tensor);
        if (it == inputs.end())
            return e;
        const Input& in = it->second;
        std::vector<Expr> indices;
        for (size_t i = in.start; i < in.region.size(); ++i)
            indices.push_back(load->indices[i] - in.region[i].min);
        return ProducerLoadNode::make(in.tensor, indices);
    }
    Expr visit(const VarNode* op) override {
        auto it = vars.find(Var(op));
        return it != vars.end() ? it->second : IRMutator::visit(op);
    }
    Expr visit(const ReduceNode* op) override {
        Expr e = IRMutator::visit(op);
        const auto* reduce = e.as<ReduceNode>();
        std::vector<IterVar> axis;
        for (const IterVar& iv : reduce->axis)
            if (auto it = axes.find(iv); it != axes.end())
                axis.push_back(it->second);
        return ReduceNode::make(reduce->combiner, reduce->source, axis, reduce->condition,
                                reduce->valueIndex, reduce->init);
    }
};

/// The conditions of the `if` statements of a nest level (the guards and the store predicate).
std::vector<Expr> conditionsOf(const std::vector<Stmt>& level) {
    std::vector<Expr> out;
    for (const Stmt& s : level)
        if (const auto* branch = s.as<IfThenElseNode>())
            out.push_back(branch->condition);
    return out;
}

bool usesAnyVar(const Expr& e, const VarMap<bool>& vars) {
    bool found = false;
    postOrderVisit(e, [&](const NodeRef& node) {
        if (const auto* v = node.as<VarNode>(); v && vars.count(Var(v)))
            found = true;
    });
    return found;
}

/// TVM's VerifyTensorizeLoopNest: no bound check may use a loop inside the scope (the
/// intrinsic computes the whole region, so it cannot skip some of its elements).
void verifyLoopNest(const Stage& stage, const TensorIntrin& intrin, const ComputeLoopNest& n,
                    size_t leaf) {
    VarMap<bool> banned;
    auto ban = [&](const LoopNest& nest) {
        for (size_t i = leaf + 1; i < nest.size() && i <= stage->leafIterVars.size(); ++i)
            for (const Stmt& s : nest[i]) {
                if (const auto* loop = s.as<ForNode>())
                    banned[loop->loopVar] = true;
                else if (const auto* attr = s.as<AttrStmtNode>())
                    if (const auto* iv = attr->node.as<IterVarNode>())
                        banned[iv->var] = true;
            }
    };
    ban(n.mainNest);
    ban(n.initNest);
    std::vector<Expr> checks = conditionsOf(n.mainNest.back());
    if (!n.initNest.empty()) {
        std::vector<Expr> init = conditionsOf(n.initNest.back());
        checks.insert(checks.end(), init.begin(), init.end());
    }
    for (const Expr& check : checks)
        if (usesAnyVar(check, banned))
            fail(stage, intrin,
                 "the bound check " + toString(check) +
                     " uses a loop inside the tensorized scope, but the intrinsic computes its "
                     "whole region at once (TVM: split condition relies on var defined inside "
                     "tensorize scope); split by a factor that divides the extent");
}

/// TVM's VerifyTensorizeBody: the matched body equals the intrinsic's, after simplification.
void verifyBody(const ComputeOpNode* op, const Stage& stage, const IterVarMap<Expr>& values,
                const IterVarMap<Range>& bounds, const TensorizeRegion& region,
                const TensorIntrin& intrin) {
    VarMap<Range> iterSpace;
    std::vector<Expr> body = matchTensorizeBody(op, stage, bounds, region, intrin, &iterSpace);
    const auto* intrinCompute = intrin->op.as<ComputeOpNode>();
    if (body.size() != intrinCompute->body.size())
        fail(stage, intrin,
             "the stage has " + std::to_string(body.size()) + " outputs, the intrinsic " +
                 std::to_string(intrinCompute->body.size()));
    VarMap<Expr> valueOf;
    for (const auto& [iv, value] : values)
        valueOf[iv->var] = value;
    Analyzer analyzer;
    for (const auto& [v, r] : iterSpace)
        analyzer.bind(v, r, true);
    for (size_t i = 0; i < body.size(); ++i) {
        Expr lhs = analyzer.simplify(substitute(body[i], valueOf));
        Expr rhs = analyzer.simplify(substitute(intrinCompute->body[i], valueOf));
        if (lhs.type() != rhs.type())
            fail(stage, intrin,
                 "the data types differ: the stage computes " + lhs.type().toString() +
                     ", the intrinsic " + rhs.type().toString());
        if (!structuralEqual(lhs, rhs))
            fail(stage, intrin,
                 "the loops compute " + toString(lhs) + ", which is not the intrinsic's " +
                     toString(rhs) + " (TVM: Failed to match the compute with TensorIntrin)");
    }
}

/// The buffer_bind_scope of one of the intrinsic's buffers, marked with the step that says
/// which region of its tensor it is bound to.
Stmt bindScope(const Stage& stage, const TensorIntrin& intrin, const BufferDecl& buffer,
               const Tensor& t, const Region& region, bool isInput, BoundSteps* steps) {
    const int leafIndex = tensorizedLeaf(stage);
    std::vector<Expr> mins;
    for (const Range& r : region)
        mins.push_back(r.min);
    std::vector<Expr> tuple{ProducerLoadNode::make(t, mins)};
    for (const Range& r : region) {
        tuple.push_back(r.min);
        tuple.push_back(r.extent);
    }
    Stmt bind = AttrStmtNode::make(
        buffer, attr::kBufferBindScope,
        CallNode::make(DataType::handle(), "tvm_tuple", tuple, CallKind::Intrinsic),
        EvaluateNode::make(0));
    if (!steps)
        return bind;
    BoundStep step;
    step.phase = StepPhase::Tensorize;
    step.rule = isInput ? "input-region" : "output-region";
    step.stage = stage->op;
    step.tensor = t;
    const std::string regionText = t.name() + "(" + regionToString(region) + ")";
    if (leafIndex >= 0) {
        const IterVar& leaf = stage->leafIterVars[size_t(leafIndex)];
        step.iterVars = {leaf};
        step.location = stage.attrOf(leaf)->location;
        step.text = "Tensorize " + stage.name() + " at " + leaf->var.name() + " with '" +
                    intrin->name + "': the loops from " + leaf->var.name() + " inwards become " +
                    "one call of the intrinsic, whose buffer " + buffer->name + " is bound to " +
                    regionText + ", the region those loops " + (isInput ? "read." : "compute.");
        if (int from = steps->rangeStep(leaf); from >= 0)
            step.from = {from};
    } else {
        step.location = stage->op->location;
        step.text = "'" + stage.name() + "' calls tensor intrinsic '" + intrin->name +
                    "' at each iteration of its loops: its buffer " + buffer->name +
                    " is bound to " + regionText + ", the region the call " +
                    (isInput ? "reads." : "computes.");
    }
    for (size_t d = 0; d < region.size(); ++d)
        step.outputs.push_back(StepValue{t.name() + "[axis " + std::to_string(d) + "]", IterVar(),
                                         std::nullopt, region[d], Expr()});
    return withStep(bind, steps->add(std::move(step)));
}

/// TVM's TransformUpdate: `body` on the first iteration of every reduce leaf outside the
/// scope, `update` on the others.
Stmt firstIterationOr(const Stage& stage, const TensorIntrin& intrin,
                      const IterVarMap<Range>& bounds, const ComputeLoopNest& n, const Stmt& body,
                      const Stmt& update) {
    Expr cond;
    VarMap<bool> banned;
    for (const IterVar& iv : stage->leafIterVars) {
        const IterVarAttr* attr = stage.attrOf(iv);
        if (attr && attr->iterType == IterVarType::Tensorized)
            break;
        if (iv->iterType != IterVarType::CommReduce)
            continue;
        Expr later = likely(iv->var > bounds.at(iv).min);
        cond = cond.defined() ? (cond || later) : later;
        banned[iv->var] = true;
    }
    for (const Expr& check : conditionsOf(n.mainNest.back()))
        if (usesAnyVar(check, banned))
            fail(stage, intrin,
                 "the bound check " + toString(check) +
                     " conflicts with the reset on the first iteration (the "
                     "intrinsic has no reduce_init)");
    if (!cond.defined())
        return body;
    return IfThenElseNode::make(cond, update, body);
}

/// The loops around the calls (the split-reduction and whole branches of TVM's MakeTensorize
/// and TensorComputeOpNode::BuildProvide): the leaves before `end` are loops. When they hold no
/// reduce loop, one call of the body computes each result; otherwise the reduction is split
/// across calls: reduce_init (in the init nest) then reduce_update per outer reduce iteration,
/// or, without reduce_init, the body on the first of them and reduce_update after.
Stmt callNest(const Stage& stage, const TensorIntrin& intrin, const IterVarMap<Range>& bounds,
              const ComputeLoopNest& n, const BoundCall& call, size_t end) {
    const LoopNest& main = n.mainNest;
    auto upTo = [&](const LoopNest& nest, size_t begin) {
        LoopNest out(nest.begin() + long(begin), nest.begin() + long(end) + 1);
        out.push_back(nest.back()); // the bound checks
        return out;
    };
    if (end <= n.numCommonLoops) {
        if (!intrin->body.defined())
            fail(stage, intrin,
                 "the intrinsic has no body (only reduce_update), but each call "
                 "computes a whole reduction");
        return mergeNest(upTo(main, 0), call(intrin->body, true, n.mainValues));
    }
    if (!intrin->reduceUpdate.defined())
        fail(stage, intrin,
             "the reduction is split across calls (a reduce loop is outside "
             "them), but the intrinsic has no reduce_update");
    LoopNest common(main.begin(), main.begin() + long(n.numCommonLoops) + 1);
    LoopNest update = upTo(main, n.numCommonLoops + 1);
    if (intrin->reduceInit.defined()) {
        Stmt init = mergeNest(upTo(n.initNest, 0), call(intrin->reduceInit, false, n.initValues));
        Stmt step = mergeNest(update, call(intrin->reduceUpdate, true, n.mainValues));
        return mergeNest(common, SeqNode::make({init, step}));
    }
    if (!intrin->body.defined())
        fail(stage, intrin,
             "the intrinsic has neither reduce_init nor a body to start the "
             "reduction with");
    Stmt step = firstIterationOr(stage, intrin, bounds, n, intrin->body, intrin->reduceUpdate);
    return mergeNest(common, mergeNest(update, call(step, true, n.mainValues)));
}

} // namespace

int tensorizedLeaf(const Stage& stage) {
    const auto& leaves = stage->leafIterVars;
    for (size_t i = 0; i < leaves.size(); ++i)
        if (const IterVarAttr* attr = stage.attrOf(leaves[i]);
            attr && attr->iterType == IterVarType::Tensorized)
            return int(i);
    return -1;
}

TensorizeRegion inferTensorizeRegion(const ComputeOpNode* op, const Stage& stage,
                                     const IterVarMap<Range>& bounds) {
    TensorizeRegion out;
    IterVarMap<IntSet> up;
    bool found = false;
    const auto& leaves = stage->leafIterVars;
    for (size_t i = leaves.size(); i-- > 0;) {
        const IterVar& iv = leaves[i];
        auto it = bounds.find(iv);
        if (it == bounds.end())
            throw UserError("tensorize of '" + stage.name() + "': loop '" + iv->var.name() +
                            "' has no range in the bounds given");
        const Range& r = it->second;
        const IterVarAttr* attr = stage.attrOf(iv);
        if (isOne(r.extent))
            up[iv] = IntSet::singlePoint(r.min);
        else if (found)
            up[iv] = IntSet::singlePoint(iv->var);
        else
            up[iv] = IntSet::fromRange(r);
        if (!attr)
            continue;
        if (!found && attr->bindThread.defined())
            throw UserError(Diagnostic{
                "tensorize of '" + stage.name() + "': loop '" + iv->var.name() +
                    "' inside the tensorized scope is bound to " + attr->bindThread->threadTag +
                    "; a tensorized scope cannot contain thread loops",
                attr->location});
        if (attr->iterType == IterVarType::Tensorized) {
            if (found)
                throw UserError(Diagnostic{"tensorize of '" + stage.name() +
                                               "': two loops are tensorized; a stage has one "
                                               "tensorized scope",
                                           attr->location});
            found = true;
            out.leaf = i;
        }
    }
    if (!found)
        throw UserError("stage '" + stage.name() + "' has no tensorized loop");
    passUpDomain(stage, bounds, BoundRules::Tvm, &up);
    Analyzer analyzer;
    VarMap<IntSet> dom;
    for (const IterVar& iv : op->rootIterVars()) {
        if (!up.count(iv) || !bounds.count(iv))
            throw UserError("tensorize of '" + stage.name() + "': root '" + iv->var.name() +
                            "' has no range in the bounds given");
        const IntSet& set = up.at(iv);
        Range r = set.coverRange(bounds.at(iv));
        out.outDom[iv] = r;
        analyzer.bind(iv->var, r, true);
        dom[iv->var] = set;
    }
    out.inputs = op->inputTensors();
    for (const Tensor& t : out.inputs)
        out.inRegion.push_back(readRegion(op->body, t, dom, analyzer));
    return out;
}

std::vector<Expr> matchTensorizeBody(const ComputeOpNode* op, const Stage& stage,
                                     const IterVarMap<Range>& bounds, const TensorizeRegion& region,
                                     const TensorIntrin& intrin, VarMap<Range>* iterSpace) {
    for (const IterVar& iv : stage->leafIterVars)
        if (auto it = bounds.find(iv); it != bounds.end())
            (*iterSpace)[iv->var] = it->second;
    Analyzer analyzer;
    for (const auto& [v, r] : *iterSpace)
        analyzer.bind(v, r, true);
    const auto* intrinCompute = intrin->op.as<ComputeOpNode>();
    BS_CHECK(intrinCompute) << "tensor intrinsic without a compute operation";
    if (region.inputs.size() != intrin->inputs.size())
        fail(stage, intrin,
             "the stage reads " + std::to_string(region.inputs.size()) +
                 " tensors, the intrinsic " + std::to_string(intrin->inputs.size()));
    IntrinMatcher matcher;
    for (size_t i = 0; i < region.inputs.size(); ++i) {
        const Tensor& t = region.inputs[i];
        if (t.dtype() != intrin->inputs[i].dtype())
            fail(stage, intrin,
                 "input " + t.name() + " is " + t.dtype().toString() + ", the intrinsic's " +
                     intrin->inputs[i].name() + " is " + intrin->inputs[i].dtype().toString());
        if (region.inRegion[i].size() != t.ndim())
            fail(stage, intrin,
                 "the region of input " + t.name() + " has " +
                     std::to_string(region.inRegion[i].size()) + " ranges for " +
                     std::to_string(t.ndim()) + " dimensions");
        IntrinMatcher::Input in{intrin->inputs[i], 0, region.inRegion[i]};
        if (in.region.size() < in.tensor.ndim())
            fail(stage, intrin,
                 "input " + region.inputs[i].name() +
                     " has fewer dimensions than the "
                     "intrinsic's " +
                     in.tensor.name());
        in.start = in.region.size() - in.tensor.ndim();
        for (size_t d = 0; d < in.start; ++d)
            if (!isOne(analyzer.simplify(in.region[d].extent)))
                fail(stage, intrin,
                     "input " + region.inputs[i].name() + " is read over " +
                         regionToString(in.region) + " but the intrinsic's " + in.tensor.name() +
                         " has " + std::to_string(in.tensor.ndim()) +
                         " dimensions (the leading ones must have extent 1)");
        matcher.inputs.emplace(region.inputs[i], std::move(in));
    }
    auto mapAxes = [&](const std::vector<IterVar>& mine, const std::vector<IterVar>& theirs,
                       const char* what) {
        if (mine.size() < theirs.size())
            fail(stage, intrin, std::string("the stage has fewer ") + what + " than the intrinsic");
        size_t start = mine.size() - theirs.size();
        for (size_t i = 0; i < mine.size(); ++i) {
            const Range& r = region.outDom.at(mine[i]);
            if (i < start) {
                if (!isOne(r.extent))
                    fail(stage, intrin,
                         std::string("the ") + what + " do not match: " + mine[i]->var.name() +
                             " spans " + toString(r.extent) +
                             " under the tensorized loop, the intrinsic has no "
                             "such axis");
                matcher.vars[mine[i]->var] = r.min;
                continue;
            }
            const IterVar& target = theirs[i - start];
            matcher.vars[mine[i]->var] = target->var + r.min;
            matcher.axes[mine[i]] = target;
            (*iterSpace)[target->var] = target->dom;
        }
    };
    for (int k = 0; k < op->numOutputs() && k < intrin->op->numOutputs(); ++k)
        if (op->outputDType(k) != intrin->op->outputDType(k))
            fail(stage, intrin,
                 "output " + std::to_string(k) + " is " + op->outputDType(k).toString() +
                     ", the intrinsic's is " + intrin->op->outputDType(k).toString());
    for (const IterVar& iv : op->rootIterVars())
        if (!region.outDom.count(iv))
            fail(stage, intrin, "the region has no range for " + iv->var.name());
    mapAxes(op->axis, intrinCompute->axis, "axes");
    mapAxes(op->reduceAxis, intrinCompute->reduceAxis, "reduce axes");
    std::vector<Expr> out;
    for (const Expr& e : op->body)
        out.push_back(matcher.visitExpr(e));
    return out;
}

Stmt makeTensorize(const ComputeOpNode* op, const Stage& stage, const IterVarMap<Range>& bounds,
                   const ScheduleOpsOptions& options) {
    TensorizeRegion region = inferTensorizeRegion(op, stage, bounds);
    const TensorIntrin intrin = stage.attrOf(stage->leafIterVars[region.leaf])->tensorIntrin;
    BS_CHECK(intrin.defined()) << "tensorized leaf without an intrinsic";
    ComputeLoopNest n = makeComputeLoopNest(stage, bounds, options);
    verifyLoopNest(stage, intrin, n, region.leaf);
    verifyBody(op, stage, n.mainValues, bounds, region, intrin);
    if (!intrin->scalarParams.empty())
        fail(stage, intrin,
             "the intrinsic has scalar parameters, which tensorize cannot give "
             "values (call it inside te.compute instead)");
    BoundCall call;
    for (size_t i = 0; i < intrin->inputs.size(); ++i)
        call.inputBinds.push_back(bindScope(stage, intrin, intrin->buffers[i], region.inputs[i],
                                            region.inRegion[i], true, options.steps));
    Region outRegion;
    for (const IterVar& iv : op->axis)
        outRegion.push_back(region.outDom.at(iv));
    for (size_t i = intrin->inputs.size(); i < intrin->buffers.size(); ++i)
        call.outputBinds.push_back(bindScope(stage, intrin, intrin->buffers[i],
                                             stage->op.output(int(i - intrin->inputs.size())),
                                             outRegion, false, options.steps));
    // The intrinsic's reduce axes take the extents the scope gives them.
    const auto* intrinCompute = intrin->op.as<ComputeOpNode>();
    size_t start = op->reduceAxis.size() - intrinCompute->reduceAxis.size();
    for (size_t i = start; i < op->reduceAxis.size(); ++i) {
        const IterVar& target = intrinCompute->reduceAxis[i - start];
        const std::string what = "the reduce axis " + target->var.name() + "'s ";
        bindIntrinVar(stage, intrin, target->dom.min, makeZero(target->dom.min.type()),
                      what + "min", &call.vars);
        bindIntrinVar(stage, intrin, target->dom.extent, region.outDom.at(op->reduceAxis[i]).extent,
                      what + "extent", &call.vars);
    }
    return callNest(stage, intrin, bounds, n, call, region.leaf);
}

Stmt makeTensorComputeStmt(const TensorComputeOpNode* op, const Stage& stage,
                           const IterVarMap<Range>& bounds, const ScheduleOpsOptions& options) {
    const TensorIntrin& intrin = op->intrin;
    BoundCall call;
    for (size_t i = 0; i < op->inputs.size(); ++i)
        call.inputBinds.push_back(bindScope(stage, intrin, intrin->buffers[i], op->inputs[i],
                                            op->inputRegions[i], true, options.steps));
    Region outRegion;
    for (size_t d = 0; d < op->axis.size(); ++d) {
        const IterVar& iv = op->axis[d];
        outRegion.push_back(int(d) < op->schedulableNdim ? Range(iv->var, makeOne(iv->var.type()))
                                                         : iv->dom);
    }
    for (int k = 0; k < op->numOutputs(); ++k)
        call.outputBinds.push_back(bindScope(stage, intrin,
                                             intrin->buffers[op->inputs.size() + size_t(k)],
                                             stage->op.output(k), outRegion, false, options.steps));
    // The intrinsic's scalar parameters take the call's values (TVM's binder.BindArray).
    for (size_t i = 0; i < intrin->scalarParams.size(); ++i)
        call.vars[intrin->scalarParams[i]] = op->scalarInputs[i];
    ComputeLoopNest n = makeComputeLoopNest(stage, bounds, options);
    return callNest(stage, intrin, bounds, n, call, stage->leafIterVars.size());
}

} // namespace bs
