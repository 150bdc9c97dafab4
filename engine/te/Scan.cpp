#include "te/Scan.h"

#include "ir/Equality.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "support/Check.h"

#include <unordered_set>

namespace bs {

namespace {

/// Whether two extents are the same: the same constant, the same expression, or the same sum
/// or product with its operands swapped (`k*2` and `2*k`). TVM's checks simplify `lhs - rhs`
/// to 0; te has no simplifier, and this agrees with it on the shapes scripts write.
bool sameExtent(const Expr& a, const Expr& b) {
    const auto* ia = a.as<IntImmNode>();
    const auto* ib = b.as<IntImmNode>();
    if (ia && ib)
        return ia->value == ib->value;
    if (structuralEqual(a, b))
        return true;
    auto swapped = [&](auto* x, auto* y) {
        return x && y && sameExtent(x->a, y->b) && sameExtent(x->b, y->a);
    };
    return swapped(a.as<AddNode>(), b.as<AddNode>()) || swapped(a.as<MulNode>(), b.as<MulNode>());
}

/// Whether `target` is read, directly or through other operations, by `from`.
bool reads(const Tensor& from, const Operation& target) {
    std::vector<Operation> stack{from.op};
    std::unordered_set<const Node*> seen{from.op.get()};
    while (!stack.empty()) {
        Operation op = stack.back();
        stack.pop_back();
        for (const Tensor& t : op->inputTensors()) {
            if (t.op.same_as(target))
                return true;
            if (seen.insert(t.op.get()).second)
                stack.push_back(t.op);
        }
    }
    return false;
}

std::string shapeText(const Tensor& t) {
    std::string text = "(";
    for (size_t k = 0; k < t.ndim(); ++k)
        text += (k ? ", " : "") + toString(t.shape()[k]);
    return text + (t.ndim() == 1 ? ",)" : ")");
}

} // namespace

ScanOpNode::ScanOpNode(std::string name, std::string tag)
    : OperationNode(NodeKind::ScanOp, std::move(name), std::move(tag)) {}

Operation ScanOpNode::make(std::string name, std::string tag, IterVar scanAxis,
                           std::vector<Tensor> init, std::vector<Tensor> update,
                           std::vector<Tensor> statePlaceholder, std::vector<Tensor> inputs) {
    const std::string what = "scan '" + name + "'";
    auto fail = [&](const std::string& why) { throw UserError(what + ": " + why); };
    if (update.empty())
        fail("no update given");
    if (init.size() != update.size() || statePlaceholder.size() != update.size())
        fail(std::to_string(init.size()) + " inits, " + std::to_string(update.size()) +
             " updates and " + std::to_string(statePlaceholder.size()) +
             " state placeholders: one of each per output");
    for (const std::vector<Tensor>* list : {&init, &update, &statePlaceholder, &inputs})
        for (const Tensor& t : *list)
            if (!t.defined())
                fail("an undefined tensor among its arguments");
    auto* node = new ScanOpNode(std::move(name), std::move(tag));
    Operation op(node);
    for (size_t i = 0; i < update.size(); ++i) {
        const Tensor& s = statePlaceholder[i];
        const Tensor& in = init[i];
        const Tensor& up = update[i];
        const std::string which = update.size() > 1 ? " of output " + std::to_string(i) : "";
        if (!s.op.as<PlaceholderOpNode>())
            fail("the state" + which + " must be a te.placeholder, '" + s.name() + "' is a " +
                 s.op->typeKey());
        for (const Tensor* t : {&in, &up})
            if (t->op.as<PlaceholderOpNode>())
                fail(std::string(t == &in ? "the init" : "the update") + which + " '" + t->name() +
                     "' is a placeholder: it must be computed (te.compute), since the scan "
                     "stores it into the state");
        for (const Tensor& input : inputs)
            if (input.op.same_as(s.op))
                fail("state '" + s.name() +
                     "' is also among the inputs: the state stands for "
                     "the scan's own earlier rows, an input for a tensor computed outside it");
        if (in.dtype() != s.dtype() || up.dtype() != s.dtype())
            fail("the init, update and state" + which + " must have one dtype, got " +
                 in.dtype().toString() + ", " + up.dtype().toString() + " and " +
                 s.dtype().toString());
        if (s.ndim() == 0 || in.ndim() != s.ndim() || up.ndim() != s.ndim())
            fail("the init " + shapeText(in) + ", update " + shapeText(up) + " and state " +
                 shapeText(s) + which + " must have the same number of dimensions, at least one");
        if (!sameExtent(in.shape()[0], scanAxis->dom.min))
            fail("init '" + in.name() + "' has " + toString(in.shape()[0]) +
                 " rows, but the scan starts at row " + toString(scanAxis->dom.min) +
                 ": every init needs as many rows");
        if (!sameExtent(up.shape()[0], s.shape()[0]))
            fail("update '" + up.name() + "' " + shapeText(up) + " and state '" + s.name() + "' " +
                 shapeText(s) + " must have the same number of rows");
        for (size_t k = 1; k < s.ndim(); ++k) {
            if (!sameExtent(up.shape()[k], s.shape()[k]) ||
                !sameExtent(in.shape()[k], s.shape()[k]))
                fail("dimension " + std::to_string(k) + " of init '" + in.name() + "' " +
                     shapeText(in) + ", update '" + up.name() + "' " + shapeText(up) +
                     " and state '" + s.name() + "' " + shapeText(s) + " must agree");
            const Expr& extent = up.shape()[k];
            node->spatialAxis.emplace_back(
                Range(makeZero(extent.type()), extent),
                Var(node->name + ".out" + std::to_string(i) + ".i" + std::to_string(k),
                    extent.type()),
                IterVarType::Opaque);
        }
    }
    if (const auto* extent = scanAxis->dom.extent.as<IntImmNode>(); extent && extent->value < 0)
        fail("the inits have " + toString(scanAxis->dom.min) + " rows but the states only " +
             toString(scanAxis->dom.min + scanAxis->dom.extent) +
             ": a state needs the inits' rows and one more per step");
    // Each state stands for rows the updates read; one they never read is a mistake (TVM
    // fails later, looking for the state in the schedule).
    for (size_t i = 0; i < statePlaceholder.size(); ++i) {
        bool read = false;
        for (const Tensor& up : update)
            read = read || reads(up, statePlaceholder[i].op);
        if (!read)
            fail("no update reads state '" + statePlaceholder[i].name() + "': update '" +
                 update[i].name() +
                 "' must read the rows before it through the state (state[t - 1, ...])");
    }
    node->scanAxis = std::move(scanAxis);
    node->init = std::move(init);
    node->update = std::move(update);
    node->statePlaceholder = std::move(statePlaceholder);
    node->inputs = std::move(inputs);
    return op;
}

DataType ScanOpNode::outputDType(int i) const {
    BS_CHECK(i >= 0 && i < numOutputs()) << "scan " << name << " has no output " << i;
    return update[size_t(i)].dtype();
}

const std::vector<Expr>& ScanOpNode::outputShape(int i) const {
    BS_CHECK(i >= 0 && i < numOutputs()) << "scan " << name << " has no output " << i;
    return statePlaceholder[size_t(i)].shape();
}

std::vector<IterVar> ScanOpNode::rootIterVars() const {
    std::vector<IterVar> roots{scanAxis};
    roots.insert(roots.end(), spatialAxis.begin(), spatialAxis.end());
    return roots;
}

std::vector<Tensor> ScanOpNode::inputTensors() const {
    std::vector<Tensor> inputs = init;
    inputs.insert(inputs.end(), update.begin(), update.end());
    return inputs;
}

std::vector<IterVar> ScanOpNode::spatialAxesOf(int i) const {
    size_t first = 0;
    for (int j = 0; j < i; ++j)
        first += update[size_t(j)].ndim() - 1;
    return std::vector<IterVar>(spatialAxis.begin() + long(first),
                                spatialAxis.begin() + long(first + update[size_t(i)].ndim() - 1));
}

std::vector<Tensor> scan(const std::vector<Tensor>& init, const std::vector<Tensor>& update,
                         const std::vector<Tensor>& statePlaceholder,
                         const std::vector<Tensor>& inputs, const std::string& name,
                         const std::string& tag) {
    if (init.empty() || update.empty() || !init[0].defined() || !update[0].defined() ||
        init[0].ndim() == 0 || update[0].ndim() == 0)
        throw UserError("scan '" + name +
                        "': an init and an update with at least one "
                        "dimension are needed");
    const Expr& first = init[0].shape()[0];
    const Expr& rows = update[0].shape()[0];
    IterVar axis(Range(first, rows - first), Var(name + ".idx", first.type()),
                 IterVarType::Ordered);
    Operation op =
        ScanOpNode::make(name, tag, std::move(axis), init, update, statePlaceholder, inputs);
    std::vector<Tensor> outputs;
    for (int i = 0; i < op->numOutputs(); ++i)
        outputs.push_back(op.output(i));
    return outputs;
}

} // namespace bs
