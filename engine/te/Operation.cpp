#include "te/Operation.h"

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Printer.h"
#include "support/Check.h"

#include <unordered_set>

namespace bs {

void checkShape(const std::string& what, const std::vector<Expr>& shape) {
    for (size_t i = 0; i < shape.size(); ++i) {
        const Expr& dim = shape[i];
        if (!dim.defined())
            throw UserError(what + ": dimension " + std::to_string(i) +
                            " of the shape is undefined");
        if (!dim.type().isIntegral() || !dim.type().isScalar())
            throw UserError(what + ": dimension " + std::to_string(i) +
                            " of the shape must be an integer, got " + toString(dim) + " of type " +
                            dim.type().toString());
        if (const auto* imm = dim.as<IntImmNode>(); imm && imm->value < 0)
            throw UserError(what + ": dimension " + std::to_string(i) +
                            " of the shape must not be negative, got " +
                            std::to_string(imm->value));
    }
}

namespace {

bool containsReduce(const Expr& e) {
    bool found = false;
    postOrderVisit(e, [&found](const NodeRef& n) { found = found || n.as<ReduceNode>(); });
    return found;
}

/// The parts of a top-level Reduce below it: its sources, condition and axis bounds.
bool reduceHasNestedReduce(const ReduceNode* r) {
    for (const Expr& s : r->source)
        if (containsReduce(s))
            return true;
    for (const IterVar& iv : r->axis)
        if (iv->dom.defined() && (containsReduce(iv->dom.min) || containsReduce(iv->dom.extent)))
            return true;
    return containsReduce(r->condition);
}

/// TVM's ReduceEqual: two outputs of one reduction differ only in their value index.
bool reduceEqualButIndex(const ReduceNode* a, const ReduceNode* b) {
    if (a == b)
        return true;
    Expr ea = ReduceNode::make(a->combiner, a->source, a->axis, a->condition, 0, a->init);
    Expr eb = ReduceNode::make(b->combiner, b->source, b->axis, b->condition, 0, b->init);
    return structuralEqual(ea, eb);
}

/// TVM's VerifyComputeOp, with one clear message per rule.
void verifyComputeBody(const std::string& name, const std::vector<Expr>& body) {
    const std::string what = "compute '" + name + "'";
    if (body.empty())
        throw UserError(what + ": the compute function returned no value");
    const auto* first = body[0].defined() ? body[0].as<ReduceNode>() : nullptr;
    for (size_t i = 0; i < body.size(); ++i) {
        const Expr& e = body[i];
        if (!e.defined())
            throw UserError(what + ": output " + std::to_string(i) + " of the body is undefined");
        if (e.type().isHandle())
            throw UserError(what + ": output " + std::to_string(i) +
                            " of the body is not a value: " + toString(e));
        const auto* reduce = e.as<ReduceNode>();
        if (bool(reduce) != bool(first))
            throw UserError(what +
                            ": either every output is a reduction or none is, but output 0 " +
                            (first ? "is" : "is not") + " and output " + std::to_string(i) +
                            (reduce ? " is" : " is not"));
        if (reduce && !reduceEqualButIndex(reduce, first))
            throw UserError(what +
                            ": the reductions of a multi-output compute must share their "
                            "reducer, sources, axes and condition (output " +
                            std::to_string(i) + " differs from output 0)");
        if (reduce ? reduceHasNestedReduce(reduce) : containsReduce(e))
            throw UserError(what + ": a reduction is only allowed at the top level of the body; "
                                   "compute it in a tensor of its own and read that tensor");
    }
}

/// Rewrites reads of the tensors in a map (TVM's TensorReplacer), following chains a -> b -> c.
class TensorReplacer : public IRMutator {
public:
    explicit TensorReplacer(const TensorMap& map) : m_map(map) {}

protected:
    using IRMutator::visit;
    Expr visit(const ProducerLoadNode* op) override {
        Expr e = IRMutator::visit(op);
        const auto* load = e.as<ProducerLoadNode>();
        auto it = m_map.find(load->tensor);
        if (it == m_map.end() || it->second.same_as(load->tensor))
            return e;
        return visitExpr(ProducerLoadNode::make(it->second, load->indices));
    }

private:
    const TensorMap& m_map;
};

} // namespace

// ---------------------------------------------------------------------------------------------
// Placeholder

PlaceholderOpNode::PlaceholderOpNode(std::string name, std::vector<Expr> shape, DataType dtype)
    : OperationNode(NodeKind::PlaceholderOp, std::move(name), ""), shape(std::move(shape)),
      dtype(dtype) {}

Operation PlaceholderOpNode::make(std::string name, std::vector<Expr> shape, DataType dtype) {
    checkShape("placeholder '" + name + "'", shape);
    return Operation(new PlaceholderOpNode(std::move(name), std::move(shape), dtype));
}

DataType PlaceholderOpNode::outputDType(int i) const {
    BS_CHECK(i == 0) << "placeholder " << name << " has one output, asked for " << i;
    return dtype;
}

const std::vector<Expr>& PlaceholderOpNode::outputShape(int i) const {
    BS_CHECK(i == 0) << "placeholder " << name << " has one output, asked for " << i;
    return shape;
}

// ---------------------------------------------------------------------------------------------
// Compute

ComputeOpNode::ComputeOpNode(std::string name, std::string tag)
    : OperationNode(NodeKind::ComputeOp, std::move(name), std::move(tag)) {}

Operation ComputeOpNode::make(std::string name, std::string tag, std::vector<IterVar> axis,
                              std::vector<Expr> body) {
    for (const IterVar& iv : axis)
        BS_CHECK(iv.defined() && iv->dom.defined()) << "compute " << name << ": axis without a dom";
    verifyComputeBody(name, body);
    auto* node = new ComputeOpNode(std::move(name), std::move(tag));
    Operation op(node);
    node->axis = std::move(axis);
    node->body = std::move(body);
    if (const auto* reduce = node->body[0].as<ReduceNode>())
        node->reduceAxis = reduce->axis;
    for (const IterVar& iv : node->axis)
        node->shape.push_back(iv->dom.extent);
    return op;
}

DataType ComputeOpNode::outputDType(int i) const {
    BS_CHECK(i >= 0 && i < numOutputs()) << "compute " << name << " has no output " << i;
    return body[size_t(i)].type();
}

const std::vector<Expr>& ComputeOpNode::outputShape(int i) const {
    BS_CHECK(i >= 0 && i < numOutputs()) << "compute " << name << " has no output " << i;
    return shape;
}

std::vector<IterVar> ComputeOpNode::rootIterVars() const {
    std::vector<IterVar> roots = axis;
    roots.insert(roots.end(), reduceAxis.begin(), reduceAxis.end());
    return roots;
}

std::vector<Tensor> ComputeOpNode::inputTensors() const {
    std::vector<Tensor> inputs;
    std::unordered_set<Tensor, TensorHash, TensorEqual> seen;
    for (const Expr& e : body) {
        postOrderVisit(e, [&](const NodeRef& n) {
            const auto* load = n.as<ProducerLoadNode>();
            if (load && seen.insert(load->tensor).second)
                inputs.push_back(load->tensor);
        });
    }
    return inputs;
}

// ---------------------------------------------------------------------------------------------
// Dataflow helpers

std::vector<std::vector<Expr>> distinctReads(const std::vector<Expr>& body,
                                             const std::function<bool(const Tensor&)>& reads) {
    std::vector<std::vector<Expr>> out;
    auto same = [](const std::vector<Expr>& a, const std::vector<Expr>& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                          [](const Expr& x, const Expr& y) { return structuralEqual(x, y); });
    };
    for (const Expr& e : body)
        postOrderVisit(e, [&](const NodeRef& n) {
            const auto* load = n.as<ProducerLoadNode>();
            if (!load || !reads(load->tensor))
                return;
            if (std::none_of(out.begin(), out.end(),
                             [&](const std::vector<Expr>& r) { return same(r, load->indices); }))
                out.push_back(load->indices);
        });
    return out;
}

Expr replaceTensors(const Expr& e, const TensorMap& map) {
    if (map.empty())
        return e;
    TensorReplacer replacer(map);
    return replacer.visitExpr(e);
}

namespace {

/// The image of `t` under `map`, following chains a -> b -> c.
Tensor replacedTensor(Tensor t, const TensorMap& map) {
    for (auto it = map.find(t); it != map.end() && !it->second.same_as(t); it = map.find(t))
        t = it->second;
    return t;
}

/// A scan reading the images of its inits and updates (TVM's ScanOpNode::ReplaceInputs).
Operation replaceScanInputs(const Operation& op, const ScanOpNode* scan, const TensorMap& map) {
    std::vector<Tensor> init;
    std::vector<Tensor> update;
    bool changed = false;
    for (size_t i = 0; i < scan->update.size(); ++i) {
        init.push_back(replacedTensor(scan->init[i], map));
        update.push_back(replacedTensor(scan->update[i], map));
        changed = changed || !init.back().same_as(scan->init[i]) ||
                  !update.back().same_as(scan->update[i]);
    }
    if (!changed)
        return op;
    auto* node = new ScanOpNode(*scan);
    node->init = std::move(init);
    node->update = std::move(update);
    return Operation(node);
}

/// The images of `tensors` under `map`; sets `changed` when one differs.
std::vector<Tensor> replacedTensors(const std::vector<Tensor>& tensors, const TensorMap& map,
                                    bool* changed) {
    std::vector<Tensor> out;
    for (const Tensor& t : tensors) {
        out.push_back(replacedTensor(t, map));
        *changed = *changed || !out.back().same_as(t);
    }
    return out;
}

/// An operation whose body reads buffers bound to its inputs (TVM's ExternOpNode and
/// TensorComputeOpNode ReplaceInputs): only the inputs change.
template <typename OpNode>
Operation replaceBoundInputs(const Operation& op, const OpNode* node, const TensorMap& map) {
    bool changed = false;
    std::vector<Tensor> inputs = replacedTensors(node->inputs, map, &changed);
    if (!changed)
        return op;
    auto* copy = new OpNode(*node);
    copy->inputs = std::move(inputs);
    return Operation(copy);
}

} // namespace

Operation replaceInputs(const Operation& op, const TensorMap& map) {
    if (const auto* scan = op.as<ScanOpNode>())
        return replaceScanInputs(op, scan, map);
    if (const auto* ext = op.as<ExternOpNode>())
        return replaceBoundInputs(op, ext, map);
    if (const auto* tc = op.as<TensorComputeOpNode>())
        return replaceBoundInputs(op, tc, map);
    const auto* compute = op.as<ComputeOpNode>();
    if (!compute)
        return op;
    std::vector<Expr> body;
    if (compute->isReduction()) {
        // Rebuild every output from the one replaced Reduce so they keep sharing its parts.
        Expr replaced = replaceTensors(compute->body[0], map);
        if (replaced.same_as(compute->body[0]))
            return op;
        const auto* r = replaced.as<ReduceNode>();
        for (size_t k = 0; k < compute->body.size(); ++k)
            body.push_back(
                ReduceNode::make(r->combiner, r->source, r->axis, r->condition, int(k), r->init));
    } else {
        bool changed = false;
        for (const Expr& e : compute->body) {
            body.push_back(replaceTensors(e, map));
            changed = changed || !body.back().same_as(e);
        }
        if (!changed)
            return op;
    }
    return ComputeOpNode::make(compute->name, compute->tag, compute->axis, std::move(body));
}

Var copyWithSuffix(const Var& v, const std::string& suffix) {
    if (v->isSizeVar)
        return Var::sizeVar(v.name() + suffix, v.type());
    return Var(v.name() + suffix, v.type());
}

} // namespace bs
