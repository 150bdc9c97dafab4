/// TVM's TensorIntrin (src/te/tensor_intrin.cc, python/tvm/te/tensor_intrin.py): the checks
/// of the constructor.

#include "te/TensorIntrin.h"

#include "ir/Printer.h"
#include "te/Operation.h"

namespace bs {

TensorIntrin TensorIntrin::make(std::string name, Operation op, std::vector<Tensor> inputs,
                                std::vector<BufferDecl> buffers, std::vector<Var> scalarParams,
                                Stmt body, Stmt reduceInit, Stmt reduceUpdate) {
    const std::string what = "tensor intrinsic '" + name + "'";
    const auto* compute = op.as<ComputeOpNode>();
    if (!compute)
        throw UserError(what + ": its operation must be a te.compute (got " +
                        std::string(op.defined() ? op->typeKey() : "nothing") + ")");
    const size_t expected = inputs.size() + size_t(op->numOutputs());
    if (buffers.size() != expected)
        throw UserError(what + ": " + std::to_string(buffers.size()) + " buffers for " +
                        std::to_string(inputs.size()) + " inputs and " +
                        std::to_string(op->numOutputs()) + " outputs");
    for (size_t i = 0; i < buffers.size(); ++i) {
        const bool isInput = i < inputs.size();
        const Tensor t = isInput ? inputs[i] : op.output(int(i - inputs.size()));
        const BufferDecl& b = buffers[i];
        if (b->dtype != t.dtype())
            throw UserError(what + ": buffer '" + b->name + "' is " + b->dtype.toString() +
                            " but its tensor " + t.name() + " is " + t.dtype().toString());
        if (b->shape.size() != t.ndim())
            throw UserError(what + ": buffer '" + b->name + "' has " +
                            std::to_string(b->shape.size()) + " dimensions but its tensor " +
                            t.name() + " has " + std::to_string(t.ndim()));
    }
    if (!body.defined() && !reduceUpdate.defined())
        throw UserError(what + ": the compute function returned no statement");
    auto* node = new TensorIntrinNode();
    node->name = std::move(name);
    node->op = std::move(op);
    node->inputs = std::move(inputs);
    node->buffers = std::move(buffers);
    node->scalarParams = std::move(scalarParams);
    node->body = std::move(body);
    node->reduceInit = std::move(reduceInit);
    node->reduceUpdate = std::move(reduceUpdate);
    node->location = currentSourceLocation();
    return TensorIntrin(node);
}

} // namespace bs
