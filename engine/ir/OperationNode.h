/// \file
/// The abstract operation node that tensors refer to. The concrete operations (placeholder,
/// compute, ...) live in engine/te; the IR only needs their names, outputs and shapes.
#pragma once

#include "ir/Expr.h"

namespace bs {

class OperationNode : public Node {
public:
    /// As the script gave it, unless another stage of a schedule has it: then create_schedule
    /// (or the rewrite that adds the stage) renames it `compute_1` (schedule/Schedule.h).
    std::string name;
    std::string tag;
    SourceLocation location; ///< the script line that created it
    /// Set once a schedule holds the operation: no later schedule renames it, so the stages of
    /// the schedules made before keep their names.
    bool nameFixed = false;

    static constexpr bool matches(NodeKind k) {
        return k == NodeKind::PlaceholderOp || k == NodeKind::ComputeOp || k == NodeKind::ScanOp ||
               k == NodeKind::ExternOp || k == NodeKind::TensorComputeOp;
    }

    virtual int numOutputs() const = 0;
    virtual DataType outputDType(int i) const = 0;
    virtual const std::vector<Expr>& outputShape(int i) const = 0;
    /// The root iteration variables (axes, then reduce axes); empty for placeholders.
    virtual std::vector<IterVar> rootIterVars() const = 0;
    /// The tensors this operation reads, each once, in order of first use.
    virtual std::vector<Tensor> inputTensors() const = 0;
    /// `compute`, `placeholder`, ... as TVM prints it in `compute(C, 0x...)`.
    virtual const char* typeKey() const = 0;

protected:
    OperationNode(NodeKind kind, std::string name, std::string tag)
        : Node(kind), name(std::move(name)), tag(std::move(tag)),
          location(currentSourceLocation()) {}
};

} // namespace bs
