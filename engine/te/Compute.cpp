#include "te/Compute.h"

#include "ir/Op.h"

namespace bs {

namespace {

/// One data-parallel IterVar per dimension, typed like its extent (TVM's `IterVar((0, s), x, 0)`).
std::vector<IterVar> makeAxes(const std::string& name, const std::vector<Expr>& shape,
                              const std::vector<std::string>& axisNames) {
    const std::string what = "compute '" + name + "'";
    checkShape(what, shape);
    if (!axisNames.empty() && axisNames.size() != shape.size())
        throw UserError(what + ": " + std::to_string(axisNames.size()) + " axis names for a " +
                        std::to_string(shape.size()) +
                        "-dimensional shape; the compute function must take one argument per "
                        "dimension");
    std::vector<IterVar> axes;
    for (size_t i = 0; i < shape.size(); ++i) {
        std::string axisName = axisNames.empty() ? defaultAxisName(i) : axisNames[i];
        DataType t = shape[i].type();
        axes.emplace_back(Range(makeZero(t), shape[i]), Var(std::move(axisName), t),
                          IterVarType::DataPar);
    }
    return axes;
}

std::vector<Var> axisVars(const std::vector<IterVar>& axes) {
    std::vector<Var> vars;
    for (const IterVar& iv : axes)
        vars.push_back(iv->var);
    return vars;
}

} // namespace

Tensor placeholder(const std::vector<Expr>& shape, DataType dtype, const std::string& name) {
    return PlaceholderOpNode::make(name, shape, dtype).output(0);
}

std::string defaultAxisName(size_t index) {
    static const char* const kNames[] = {"i", "j", "k"};
    if (index < 3)
        return kNames[index];
    return "i" + std::to_string(index);
}

Tensor compute(const std::vector<Expr>& shape, const FCompute& fcompute, const std::string& name,
               const std::string& tag, const std::vector<std::string>& axisNames) {
    std::vector<IterVar> axes = makeAxes(name, shape, axisNames);
    Expr body = fcompute(axisVars(axes));
    return ComputeOpNode::make(name, tag, std::move(axes), {body}).output(0);
}

std::vector<Tensor> computeMulti(const std::vector<Expr>& shape, const FBatchCompute& fcompute,
                                 const std::string& name, const std::string& tag,
                                 const std::vector<std::string>& axisNames) {
    std::vector<IterVar> axes = makeAxes(name, shape, axisNames);
    std::vector<Expr> body = fcompute(axisVars(axes));
    Operation op = ComputeOpNode::make(name, tag, std::move(axes), std::move(body));
    std::vector<Tensor> outputs;
    for (int i = 0; i < op->numOutputs(); ++i)
        outputs.push_back(op.output(i));
    return outputs;
}

Var var(const std::string& name, DataType dtype) { return Var(name, dtype); }

Var sizeVar(const std::string& name, DataType dtype) { return Var::sizeVar(name, dtype); }

IterVar threadAxis(const std::string& tag, const std::string& name) {
    return threadAxis(Range(), tag, name);
}

IterVar threadAxis(const Range& dom, const std::string& tag, const std::string& name) {
    if (tag.empty())
        throw UserError("thread_axis: a thread tag such as 'threadIdx.x' must be given");
    if (dom.defined() && (!dom.extent.defined() || !dom.extent.type().isIntegral()))
        throw UserError("thread_axis '" + tag + "': the dom must be an integer range");
    DataType t = dom.defined() ? dom.extent.type() : DataType::int32();
    return IterVar(dom, Var(name.empty() ? tag : name, t), IterVarType::ThreadIndex, tag);
}

} // namespace bs
