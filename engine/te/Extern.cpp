/// TVM's ExternOp (src/te/operation/extern_op.cc): the constructor's checks and the outputs.

#include "ir/Equality.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "support/Check.h"
#include "te/Operation.h"

namespace bs {

namespace {

void checkBuffer(const std::string& what, const ExternBuffer& buffer) {
    if (!buffer.data.defined() || !buffer.data.type().isHandle())
        throw UserError(what + " '" + buffer.name + "' has no data handle");
    checkShape(what + " '" + buffer.name + "'", buffer.shape);
    // The tensor is bound whole from its element 0 (TVM's binder asserts the same).
    std::optional<int64_t> offset = asConstInt(buffer.elemOffset);
    if (buffer.elemOffset.defined() && !buffer.elemOffset.as<VarNode>() && offset != 0)
        throw UserError(what + " '" + buffer.name + "' has element offset " +
                        toString(buffer.elemOffset) +
                        ": an extern stage's tensor is bound whole, from its element 0");
}

} // namespace

ExternOpNode::ExternOpNode(std::string name, std::string tag)
    : OperationNode(NodeKind::ExternOp, std::move(name), std::move(tag)) {}

Operation ExternOpNode::make(std::string name, std::string tag, std::vector<Tensor> inputs,
                             std::vector<ExternBuffer> inputPlaceholders,
                             std::vector<ExternBuffer> outputPlaceholders, Stmt body) {
    const std::string what = "extern '" + name + "'";
    if (inputs.size() != inputPlaceholders.size())
        throw UserError(what + ": " + std::to_string(inputs.size()) + " inputs but " +
                        std::to_string(inputPlaceholders.size()) + " input buffers");
    if (outputPlaceholders.empty())
        throw UserError(what + ": no output buffer");
    if (!body.defined())
        throw UserError(what + ": the body is undefined");
    for (size_t i = 0; i < inputs.size(); ++i) {
        const Tensor& t = inputs[i];
        const ExternBuffer& buffer = inputPlaceholders[i];
        checkBuffer(what + ": input buffer", buffer);
        if (buffer.dtype != t.dtype())
            throw UserError(what + ": input buffer '" + buffer.name + "' is " +
                            buffer.dtype.toString() + " but its tensor " + t.name() + " is " +
                            t.dtype().toString());
        if (buffer.shape.size() != t.ndim())
            throw UserError(what + ": input buffer '" + buffer.name + "' has " +
                            std::to_string(buffer.shape.size()) + " dimensions but its tensor " +
                            t.name() + " has " + std::to_string(t.ndim()));
        for (size_t d = 0; d < t.ndim(); ++d) {
            if (!structuralEqual(buffer.shape[d], t.shape()[d]))
                throw UserError(what + ": input buffer '" + buffer.name + "' has extent " +
                                toString(buffer.shape[d]) + " in dimension " + std::to_string(d) +
                                " but its tensor " + t.name() + " has " + toString(t.shape()[d]));
        }
        if (!buffer.strides.empty())
            throw UserError(what + ": input buffer '" + buffer.name +
                            "' has strides; an extern stage's inputs are bound whole, row-major");
    }
    for (const ExternBuffer& buffer : outputPlaceholders) {
        checkBuffer(what + ": output buffer", buffer);
        if (!buffer.strides.empty())
            throw UserError(what + ": output buffer '" + buffer.name +
                            "' has strides; an extern stage's outputs are realized whole, "
                            "row-major");
    }
    std::vector<const ExternBuffer*> all;
    for (const ExternBuffer& b : inputPlaceholders)
        all.push_back(&b);
    for (const ExternBuffer& b : outputPlaceholders)
        all.push_back(&b);
    for (size_t i = 0; i < all.size(); ++i)
        for (size_t k = 0; k < i; ++k)
            if (all[i]->data.same_as(all[k]->data))
                throw UserError(what + ": buffer '" + all[i]->name +
                                "' is given twice (as two inputs, or as an input and an output); "
                                "each tensor needs a buffer of its own");
    auto* node = new ExternOpNode(std::move(name), std::move(tag));
    node->inputs = std::move(inputs);
    node->inputPlaceholders = std::move(inputPlaceholders);
    node->outputPlaceholders = std::move(outputPlaceholders);
    node->body = std::move(body);
    return Operation(node);
}

DataType ExternOpNode::outputDType(int i) const {
    BS_CHECK(i >= 0 && i < numOutputs()) << "output " << i << " of extern " << name;
    return outputPlaceholders[size_t(i)].dtype;
}

const std::vector<Expr>& ExternOpNode::outputShape(int i) const {
    BS_CHECK(i >= 0 && i < numOutputs()) << "output " << i << " of extern " << name;
    return outputPlaceholders[size_t(i)].shape;
}

} // namespace bs
