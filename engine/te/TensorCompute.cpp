/// TVM's TensorComputeOp (src/te/operation/tensor_compute_op.cc): the constructor and the
/// outputs, which are the tensor intrinsic's.

#include "ir/Printer.h"
#include "support/Check.h"
#include "te/Operation.h"

namespace bs {

TensorComputeOpNode::TensorComputeOpNode(std::string name, std::string tag)
    : OperationNode(NodeKind::TensorComputeOp, std::move(name), std::move(tag)) {}

Operation TensorComputeOpNode::make(std::string name, std::string tag, std::vector<IterVar> axis,
                                    std::vector<IterVar> reduceAxis, int schedulableNdim,
                                    TensorIntrin intrin, std::vector<Tensor> inputs,
                                    std::vector<Region> inputRegions,
                                    std::vector<Expr> scalarInputs) {
    const std::string what = "'" + name + "' (a call of tensor intrinsic '" +
                             (intrin.defined() ? intrin->name : std::string("?")) + "')";
    if (!intrin.defined())
        throw UserError(what + ": the tensor intrinsic is undefined");
    if (inputs.size() != intrin->inputs.size())
        throw UserError(what + ": called on " + std::to_string(inputs.size()) +
                        " tensors, the intrinsic takes " + std::to_string(intrin->inputs.size()));
    if (inputRegions.size() != inputs.size())
        throw UserError(what + ": " + std::to_string(inputRegions.size()) + " regions for " +
                        std::to_string(inputs.size()) + " tensors");
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputRegions[i].size() != inputs[i].ndim())
            throw UserError(what + ": the region of " + inputs[i].name() + " has " +
                            std::to_string(inputRegions[i].size()) + " ranges, the tensor " +
                            std::to_string(inputs[i].ndim()) + " dimensions");
        if (inputs[i].dtype() != intrin->inputs[i].dtype())
            throw UserError(what + ": " + inputs[i].name() + " is " + inputs[i].dtype().toString() +
                            ", the intrinsic's input " + std::to_string(i) + " is " +
                            intrin->inputs[i].dtype().toString());
    }
    if (scalarInputs.size() != intrin->scalarParams.size())
        throw UserError(what + ": " + std::to_string(scalarInputs.size()) +
                        " scalar arguments, the intrinsic has " +
                        std::to_string(intrin->scalarParams.size()) + " scalar parameters");
    if (schedulableNdim < 0 || size_t(schedulableNdim) > axis.size())
        throw UserError(what + ": " + std::to_string(schedulableNdim) + " schedulable axes of " +
                        std::to_string(axis.size()));
    auto* node = new TensorComputeOpNode(std::move(name), std::move(tag));
    for (const IterVar& iv : axis)
        node->shape.push_back(iv->dom.extent);
    node->axis = std::move(axis);
    node->reduceAxis = std::move(reduceAxis);
    node->schedulableNdim = schedulableNdim;
    node->intrin = std::move(intrin);
    node->inputs = std::move(inputs);
    node->inputRegions = std::move(inputRegions);
    node->scalarInputs = std::move(scalarInputs);
    return Operation(node);
}

int TensorComputeOpNode::numOutputs() const { return int(intrin->buffers.size() - inputs.size()); }

DataType TensorComputeOpNode::outputDType(int i) const {
    BS_CHECK(i >= 0 && i < numOutputs()) << "output " << i << " of " << name;
    return intrin->buffers[inputs.size() + size_t(i)]->dtype;
}

std::vector<IterVar> TensorComputeOpNode::rootIterVars() const {
    std::vector<IterVar> out = axis;
    out.insert(out.end(), reduceAxis.begin(), reduceAxis.end());
    return out;
}

ComputeAxes computeAxesOf(const Operation& op) {
    if (const auto* compute = op.as<ComputeOpNode>())
        return {&compute->axis, &compute->reduceAxis};
    if (const auto* tc = op.as<TensorComputeOpNode>())
        return {&tc->axis, &tc->reduceAxis};
    return {};
}

} // namespace bs
