// reverse_compute_inline (seed 004, TVM's ReverseComputeInliner in compute_inline.cc) on
// tensor-expression stages. Everything is checked and every new operation built before the
// schedule changes, so a refusal leaves it as it was.

#include "schedule/ReverseComputeInline.h"

#include "schedule/ScheduleRewrite.h"

#include "arith/Analyzer.h"
#include "arith/IterMap.h"
#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "support/Check.h"
#include "te/Operation.h"

namespace bs {

namespace {

[[noreturn]] void refuse(const Stage& consumer, const std::string& reason) {
    throw UserError("reverse_compute_inline of stage '" + consumer.name() + "': " + reason);
}

std::string loadText(const Tensor& t, const std::vector<Expr>& indices) {
    std::string text = t.name() + "(";
    for (size_t k = 0; k < indices.size(); ++k)
        text += (k ? ", " : "") + toString(indices[k]);
    return text + ")";
}

/// The consumer's loops are replaced by the producer's, so it must carry no schedule. A split
/// that does not divide is the seed's "predicate in the consumer block".
void checkConsumerUnscheduled(const Stage& consumer) {
    for (const IterVarRelation& rel : consumer->relations) {
        const auto* split = rel.as<SplitNode>();
        if (!split || !split->factor.defined() || !split->parent->dom.defined())
            continue;
        Analyzer analyzer;
        if (!analyzer.canProveEqual(floormod(split->parent->dom.extent, split->factor), 0))
            refuse(consumer, "its split of '" + split->parent->var.name() + "' by " +
                                 toString(split->factor) + " does not divide the extent " +
                                 toString(split->parent->dom.extent) +
                                 ", so its loops carry a predicate, which cannot be inlined");
    }
    if (!consumer->relations.empty() || !consumer->iterVarAttrs.empty()) {
        std::string what =
            consumer->relations.empty() ? "loop annotations" : toString(consumer->relations[0]);
        refuse(consumer, "its loops are already scheduled (" + what +
                             "); reverse_compute_inline replaces them by the producer's loops, "
                             "so apply it before scheduling '" +
                             consumer.name() + "'");
    }
    if (consumer->attachType == AttachType::Scope)
        refuse(consumer, "it is computed at stage '" + consumer->attachStage.name() +
                             "'; apply reverse_compute_inline before compute_at");
    if (consumer->group.defined())
        refuse(consumer, "it belongs to " + consumer->group.name() +
                             "; apply reverse_compute_inline before create_group");
    if (consumer->attachType == AttachType::Inline ||
        consumer->attachType == AttachType::InlinedAlready)
        refuse(consumer, "it is marked compute_inline");
    if (!consumer->scope.empty())
        refuse(consumer, "its storage scope is set to '" + consumer->scope + "'");
}

const ComputeOpNode* checkConsumer(const Stage& consumer) {
    const auto* compute = consumer->op.as<ComputeOpNode>();
    if (!compute)
        refuse(consumer, "it is a " + std::string(consumer->op->typeKey()) +
                             ", not a computation that could be inlined");
    if (compute->numOutputs() != 1)
        refuse(consumer, "it has " + std::to_string(compute->numOutputs()) +
                             " outputs; only a single-output computation can be inlined");
    if (compute->isReduction())
        refuse(consumer, "it is a reduction; only a computation that stores one value per "
                         "element (no reduce axes) can be inlined into its producer");
    checkConsumerUnscheduled(consumer);
    return compute;
}

/// The one computed tensor the consumer reads (placeholders are inputs, not producers).
Tensor findProducer(const Stage& consumer, const ComputeOpNode* compute) {
    std::vector<Tensor> produced;
    std::string inputs;
    for (const Tensor& t : compute->inputTensors()) {
        inputs += (inputs.empty() ? "" : ", ") + t.name();
        if (!t.op.as<PlaceholderOpNode>())
            produced.push_back(t);
    }
    if (produced.empty())
        refuse(consumer,
               "it reads no computed tensor (only " +
                   (inputs.empty() ? std::string("constants") : "placeholders " + inputs) +
                   "), so there is no producer to inline it into");
    if (produced.size() > 1) {
        std::string names;
        for (const Tensor& t : produced)
            names += (names.empty() ? "'" : ", '") + t.name() + "'";
        refuse(consumer, "it reads " + std::to_string(produced.size()) + " computed tensors (" +
                             names + "); it must have exactly one producer");
    }
    return produced[0];
}

/// A plain computation, not an output, read by nothing but the consumer, nothing computed at
/// the consumer.
const ComputeOpNode* checkProducer(const Schedule& sch, const Stage& consumer,
                                   const Tensor& producer) {
    const auto* compute = producer.op.as<ComputeOpNode>();
    std::string name = "the producer '" + producer.name() + "'";
    if (!compute)
        refuse(consumer, name + " is a " + producer.op->typeKey() + ", not a plain computation");
    if (compute->numOutputs() != 1)
        refuse(consumer, name + " has several outputs, so it is not a plain computation");
    if (compute->isReduction())
        refuse(consumer, name + " is a reduction (over " + compute->reduceAxis[0]->var.name() +
                             "), not a plain computation: its values are final only after the "
                             "whole reduction; use s['" +
                             producer.name() + "'].compute_at(s['" + consumer.name() +
                             "'], axis) to compute it inside the consumer's "
                             "loops instead");
    Stage stage = sch.findStage(producer.op);
    BS_CHECK(stage.defined()) << "producer " << producer.name() << " has no stage";
    if (stage->attachType == AttachType::Inline || stage->attachType == AttachType::InlinedAlready)
        refuse(consumer, name + " is marked compute_inline");
    if (stage->isOutput)
        refuse(consumer, name + " is an output of the schedule, so its tensor must stay");
    for (const Stage& g : sch.groups())
        if (g->attachStage.same_as(consumer))
            refuse(consumer, g.name() + " is computed at it, and its loops go away");
    for (const Stage& s : sch.stages()) {
        if (s.same_as(consumer))
            continue;
        if (s->attachStage.same_as(consumer))
            refuse(consumer, "stage '" + s.name() + "' is computed at it, and its loops go away");
        for (const Tensor& t : s->op->inputTensors())
            if (t.same_as(producer))
                refuse(consumer,
                       name + " is also read by stage '" + s.name() + "', so its tensor must stay");
    }
    return compute;
}

/// The indices of the consumer's reads of `producer`, which must all be the same.
std::vector<Expr> readIndices(const Stage& consumer, const Expr& body, const Tensor& producer) {
    std::vector<std::vector<Expr>> reads =
        distinctReads({body}, [&](const Tensor& t) { return t.same_as(producer); });
    if (reads.size() > 1)
        refuse(consumer, "it reads '" + producer.name() + "' at different indices (" +
                             loadText(producer, reads[0]) + " and " + loadText(producer, reads[1]) +
                             "); all reads of the producer must be the same");
    return reads.empty() ? std::vector<Expr>{} : reads[0];
}

/// Replaces reads of one tensor: by an expression (the producer's body), or by a read of
/// another tensor at indices computed from the original ones.
class LoadReplacer : public IRMutator {
public:
    using IndexMap = std::function<std::vector<Expr>(const std::vector<Expr>&)>;
    LoadReplacer(Tensor from, Expr value) : m_from(std::move(from)), m_value(std::move(value)) {}
    LoadReplacer(Tensor from, Tensor to, IndexMap map)
        : m_from(std::move(from)), m_to(std::move(to)), m_map(std::move(map)) {}

protected:
    using IRMutator::visit;
    Expr visit(const ProducerLoadNode* node) override {
        Expr e = IRMutator::visit(node);
        const auto* load = e.as<ProducerLoadNode>();
        if (!load->tensor.same_as(m_from))
            return e;
        return m_value.defined() ? m_value : m_to(m_map(load->indices));
    }

private:
    Tensor m_from;
    Expr m_value;
    Tensor m_to;
    IndexMap m_map;
};

/// What the rewrite needs: the new operation and how readers of the consumer read it.
struct Plan {
    Operation fused;
    bool permutation = false;
    std::vector<Expr> indices; ///< the consumer's read indices, over its axis vars
};

/// The seed's CheckConsumerCovered per dimension: the consumer reads [base, base + extent) of
/// each producer dimension; less than the producer computes would need a predicate.
void checkCovered(const Stage& consumer, const ComputeOpNode* producer, const IterMapResult& map,
                  Analyzer& analyzer) {
    for (size_t k = 0; k < map.indices.size(); ++k) {
        const IterSum& sum = map.indices[k];
        Expr base = analyzer.simplify(sum.base);
        Expr extent = sum.args.empty() ? Expr(1) : sum.args[0].extent;
        Expr end = analyzer.simplify(base + extent);
        const Expr& shape = producer->shape[k];
        std::string read = "[" + toString(base) + ", " + toString(end) + ")";
        std::string computed = "[0, " + toString(shape) + ")";
        if (!analyzer.canProve(base >= 0) || !analyzer.canProve(end <= shape))
            refuse(consumer, "it reads dimension " + std::to_string(k) + " of '" + producer->name +
                                 "' over " + read + ", which the producer, computing " + computed +
                                 ", does not cover");
        if (!analyzer.canProveEqual(base, 0) || !analyzer.canProveEqual(end, shape))
            refuse(consumer, "the producer '" + producer->name + "' computes dimension " +
                                 std::to_string(k) + " over " + computed +
                                 " but the consumer reads only " + read +
                                 "; the inlined stage would need a predicate, which a "
                                 "tensor-expression stage cannot carry");
    }
}

/// Each index a distinct axis of the consumer, as many as the producer has.
bool isPermutation(const std::vector<Expr>& indices, const ComputeOpNode* consumer) {
    if (indices.size() != consumer->axis.size())
        return false;
    VarSet seen;
    for (const Expr& index : indices) {
        const auto* v = index.as<VarNode>();
        if (!v || !seen.insert(Var(v)).second)
            return false;
    }
    return true;
}

/// The fused operation's axes: the producer's, listed in the consumer's order when the read is
/// a permutation (so the output keeps the consumer's layout), else in the producer's order.
std::vector<IterVar> fusedAxes(const Stage& consumer, const ComputeOpNode* c,
                               const Tensor& producer, const ComputeOpNode* p, Plan& plan) {
    std::vector<IterVar> axes = p->axis;
    plan.permutation = isPermutation(plan.indices, c);
    if (!plan.permutation && consumer->isOutput)
        refuse(consumer, "its read " + loadText(producer, plan.indices) +
                             " is not a permutation of its axes, so the inlined stage would "
                             "store it in the layout of '" +
                             producer.name() + "', which an output cannot change");
    if (!plan.permutation)
        return axes;
    for (size_t k = 0; k < c->axis.size(); ++k)
        for (size_t q = 0; q < plan.indices.size(); ++q)
            if (plan.indices[q].same_as(c->axis[k]->var))
                axes[k] = p->axis[q];
    return axes;
}

Plan makePlan(const Stage& consumer, const ComputeOpNode* c, const Tensor& producer,
              const ComputeOpNode* p) {
    Plan plan;
    plan.indices = readIndices(consumer, c->body[0], producer);
    BS_CHECK(!plan.indices.empty()) << "producer found but not read";
    Analyzer analyzer;
    VarMap<Range> dom;
    for (const IterVar& iv : c->axis)
        dom[iv->var] = iv->dom;
    IterMapResult map = detectIterMap(plan.indices, dom, analyzer);
    if (!map.ok())
        refuse(consumer, "its read " + loadText(producer, plan.indices) +
                             " is not a bijective affine map of its axes: " + map.error);
    checkCovered(consumer, p, map, analyzer);
    // The consumer's axes as functions of the producer's (the seed's CreateInverseMapping).
    std::vector<Expr> producerVars;
    for (const IterVar& iv : p->axis) {
        analyzer.bind(iv->var, iv->dom);
        producerVars.push_back(iv->var);
    }
    VarMap<Expr> inverse = inverseAffineIterMap(map.indices, producerVars, analyzer);
    for (const IterVar& iv : c->axis)
        inverse.try_emplace(iv->var, iv->dom.min);
    Expr body = LoadReplacer(producer, p->body[0]).visitExpr(c->body[0]);
    body = substitute(body, inverse);
    plan.fused =
        ComputeOpNode::make(c->name, c->tag, fusedAxes(consumer, c, producer, p, plan), {body});
    return plan;
}

/// Every later stage reads the fused operation instead of the consumer (through the map when
/// the layout changed), and the stages after those read the rewritten ones.
std::vector<Operation> rewriteReaders(const Schedule& sch, size_t from, const Stage& consumer,
                                      const Plan& plan) {
    const auto* c = consumer->op.as<ComputeOpNode>();
    LoadReplacer::IndexMap map = [&](const std::vector<Expr>& at) {
        if (plan.permutation)
            return at;
        VarMap<Expr> axes;
        for (size_t k = 0; k < c->axis.size(); ++k)
            axes[c->axis[k]->var] = at[k];
        std::vector<Expr> out;
        for (const Expr& e : plan.indices)
            out.push_back(substitute(e, axes));
        return out;
    };
    LoadReplacer replacer(consumer->op.output(0), plan.fused.output(0), map);
    TensorMap chain;
    std::vector<Operation> ops;
    for (size_t i = from; i < sch->stages.size(); ++i) {
        const Stage& s = sch->stages[i];
        Operation op = replaceInputs(s->op, chain);
        if (const auto* reader = op.as<ComputeOpNode>()) {
            bool changed = false;
            std::vector<Expr> body = replacer.visitExprs(reader->body, &changed);
            if (changed)
                op = ComputeOpNode::make(reader->name, reader->tag, reader->axis, body);
        }
        for (int k = 0; k < s->op->numOutputs() && !op.same_as(s->op); ++k)
            chain[s->op.output(k)] = op.output(k);
        ops.push_back(op);
    }
    return ops;
}

} // namespace

void reverseComputeInline(const Schedule& sch, const Stage& consumer) {
    ScheduleNode& node = *sch.mutableNode();
    const NamesFixedAfter fixed(node);
    size_t position = stagePosition(node, consumer);
    const ComputeOpNode* c = checkConsumer(consumer);
    Tensor producer = findProducer(consumer, c);
    const ComputeOpNode* p = checkProducer(sch, consumer, producer);
    Plan plan = makePlan(consumer, c, producer, p);
    std::vector<Operation> readers = rewriteReaders(sch, position + 1, consumer, plan);

    // Commit: the producer's stage computes the fused op at the consumer's place.
    Stage stage = sch.findStage(producer.op);
    std::vector<Stage> outputs = outputStages(sch);
    for (Stage& out : outputs)
        if (out.same_as(consumer))
            out = stage;
    for (size_t i = 0; i < readers.size(); ++i)
        node.stages[position + 1 + i].mutableNode()->op = readers[i];
    StageNode* s = stage.mutableNode();
    s->op = plan.fused;
    s->originOp = plan.permutation ? consumer->originOp : plan.fused;
    s->isOutput = consumer->isOutput;
    std::vector<IterVar> roots = plan.fused->rootIterVars();
    std::copy(roots.begin(), roots.end(), s->allIterVars.begin());
    node.stageMap[consumer->originOp] = stage;
    node.stageMap[plan.fused] = stage;
    node.stages[position] = stage;
    node.stages.erase(node.stages.begin() + long(stagePosition(node, stage)));
    setOutputs(node, outputs);
}

void Stage::reverseComputeInline(const Schedule& schedule) const {
    bs::reverseComputeInline(schedule, *this);
}

} // namespace bs
