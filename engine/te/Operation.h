/// \file
/// The concrete operations of the tensor-expression layer, as TVM's `te` defines them:
/// `PlaceholderOpNode` (an input tensor: a shape and a dtype), `ComputeOpNode` (one
/// expression per output over data-parallel axes, optionally a reduction over reduce axes) and
/// `ScanOpNode` (a recurrence over one axis), `ExternOpNode` (a statement the user wrote,
/// opaque to bound inference) and `TensorComputeOpNode` (a tensor intrinsic called on regions
/// of its inputs at each iteration of its loops).
/// Also the dataflow helpers the schedule rewrites need: replacing the tensors an operation
/// reads (TVM's `ReplaceInputs` / `ReplaceTensor`).
///
/// Builders with TVM's defaults (`placeholder`, `compute`, `reduce_axis`, `scan`, ...) are in
/// te/Compute.h, te/Reduce.h and te/Scan.h.
#pragma once

#include "ir/OperationNode.h"
#include "ir/Stmt.h"
#include "te/TensorIntrin.h"

#include <functional>
#include <unordered_map>

namespace bs {

/// An input tensor: nothing to compute, no loops (`root_iter_vars` is empty).
struct PlaceholderOpNode : OperationNode {
    static constexpr NodeKind kKind = NodeKind::PlaceholderOp;
    static constexpr bool matches(NodeKind k) { return k == kKind; }

    std::vector<Expr> shape;
    DataType dtype;

    /// Checks the shape (integer scalars, constants non-negative); throws UserError.
    static Operation make(std::string name, std::vector<Expr> shape, DataType dtype);

    int numOutputs() const override { return 1; }
    DataType outputDType(int i) const override;
    const std::vector<Expr>& outputShape(int i) const override;
    std::vector<IterVar> rootIterVars() const override { return {}; }
    std::vector<Tensor> inputTensors() const override { return {}; }
    const char* typeKey() const override { return "placeholder"; }

private:
    PlaceholderOpNode(std::string name, std::vector<Expr> shape, DataType dtype);
};

/// `C[i, j] = body`: one expression per output over the data-parallel `axis` (dom [0, shape_i)).
/// When the body is a Reduce, every output is a Reduce sharing reducer, sources, axes and
/// condition (only `valueIndex` differs), and `reduceAxis` is the Reduce's axis list.
struct ComputeOpNode : OperationNode {
    static constexpr NodeKind kKind = NodeKind::ComputeOp;
    static constexpr bool matches(NodeKind k) { return k == kKind; }

    std::vector<IterVar> axis;
    std::vector<IterVar> reduceAxis;
    std::vector<Expr> body;
    /// The extents of `axis`, cached so `outputShape` can return a reference.
    std::vector<Expr> shape;

    /// TVM's `ComputeOp(name, tag, attrs, axis, body)`: derives `reduceAxis` from a top-level
    /// Reduce and verifies the body (TVM's VerifyComputeOp): every output a Reduce or none,
    /// Reduces equal but for their value index, no Reduce below the top level. Throws UserError.
    static Operation make(std::string name, std::string tag, std::vector<IterVar> axis,
                          std::vector<Expr> body);

    int numOutputs() const override { return int(body.size()); }
    DataType outputDType(int i) const override;
    const std::vector<Expr>& outputShape(int i) const override;
    /// `axis` then `reduceAxis`.
    std::vector<IterVar> rootIterVars() const override;
    /// Every tensor read by the body, once, in order of first read (post-order, so in
    /// `A[B[i]]` B comes before A).
    std::vector<Tensor> inputTensors() const override;
    const char* typeKey() const override { return "compute"; }
    /// True when the body is a reduction.
    bool isReduction() const { return !reduceAxis.empty() || body[0].as<ReduceNode>(); }

private:
    ComputeOpNode(std::string name, std::string tag);
};

/// TVM's ScanOp: a recurrence over `scanAxis` (dom [init.shape[0], update.shape[0])). Output i
/// is `statePlaceholder[i]` filled in: its first rows by `init[i]`, then row t by `update[i]`,
/// which reads earlier rows through `statePlaceholder[i]`. Each dimension k >= 1 of an update
/// has an Opaque `spatialAxis` IterVar `<name>.out<i>.i<k>` (dom [0, update.shape[k])), so the
/// scan's stage has one loop, the scan axis; the updates and the stages between them and the
/// states (TVM's ScanGetBody) are computed inside it.
struct ScanOpNode : OperationNode {
    static constexpr NodeKind kKind = NodeKind::ScanOp;
    static constexpr bool matches(NodeKind k) { return k == kKind; }

    IterVar scanAxis;
    std::vector<IterVar> spatialAxis;
    std::vector<Tensor> init;
    std::vector<Tensor> update;
    std::vector<Tensor> statePlaceholder;
    /// Inputs the body reads that are not states (what bounds the scan's body).
    std::vector<Tensor> inputs;

    /// TVM's ScanOp constructor with its checks, as UserErrors naming the scan and the tensor.
    static Operation make(std::string name, std::string tag, IterVar scanAxis,
                          std::vector<Tensor> init, std::vector<Tensor> update,
                          std::vector<Tensor> statePlaceholder, std::vector<Tensor> inputs);

    int numOutputs() const override { return int(update.size()); }
    DataType outputDType(int i) const override;
    /// The shape of state placeholder i.
    const std::vector<Expr>& outputShape(int i) const override;
    /// `scanAxis`, then every spatial axis.
    std::vector<IterVar> rootIterVars() const override;
    /// The inits, then the updates.
    std::vector<Tensor> inputTensors() const override;
    const char* typeKey() const override { return "scan"; }
    /// The spatial axes of output i (dimensions 1.. of its update).
    std::vector<IterVar> spatialAxesOf(int i) const;

private:
    ScanOpNode(std::string name, std::string tag);
};

/// TVM's `tir.Buffer` as an extern stage sees it (`tvm.tir.decl_buffer`): the handle `data`
/// its body reads and writes through, with a shape, an element type, optional strides (empty:
/// row-major) and an element offset (a constant or a Var).
struct ExternBuffer {
    std::string name;
    Var data;
    DataType dtype;
    std::vector<Expr> shape;
    std::vector<Expr> strides;
    Expr elemOffset;
    std::string scope;
};

/// TVM's ExternOp: a statement (`body`, usually a `tvm_call_packed` or an ir_builder program)
/// that reads input i through `inputPlaceholders[i]` and writes output k through
/// `outputPlaceholders[k]`. It has no loops of its own: bound inference asks each input whole
/// and realizes each output whole.
struct ExternOpNode : OperationNode {
    static constexpr NodeKind kKind = NodeKind::ExternOp;
    static constexpr bool matches(NodeKind k) { return k == kKind; }

    std::vector<Tensor> inputs;
    std::vector<ExternBuffer> inputPlaceholders;
    std::vector<ExternBuffer> outputPlaceholders;
    Stmt body;

    /// TVM's ExternOp constructor with its checks (one placeholder per input, of its dtype and
    /// shape, without strides), as UserErrors naming the stage.
    static Operation make(std::string name, std::string tag, std::vector<Tensor> inputs,
                          std::vector<ExternBuffer> inputPlaceholders,
                          std::vector<ExternBuffer> outputPlaceholders, Stmt body);

    int numOutputs() const override { return int(outputPlaceholders.size()); }
    DataType outputDType(int i) const override;
    const std::vector<Expr>& outputShape(int i) const override;
    std::vector<IterVar> rootIterVars() const override { return {}; }
    std::vector<Tensor> inputTensors() const override { return inputs; }
    const char* typeKey() const override { return "extern"; }

private:
    ExternOpNode(std::string name, std::string tag);
};

/// TVM's TensorComputeOp (`te.compute(shape, lambda i: intrin(A[i, 0:16], ...))`): at each
/// iteration of its first `schedulableNdim` axes (its loops) the tensor intrinsic computes the
/// rest of the output, reading `inputRegions[k]` of input k (ranges in terms of those axes and
/// the reduce axes). The other axes (`ax0`, ...) are Opaque: the intrinsic's own.
struct TensorComputeOpNode : OperationNode {
    static constexpr NodeKind kKind = NodeKind::TensorComputeOp;
    static constexpr bool matches(NodeKind k) { return k == kKind; }

    std::vector<IterVar> axis;
    std::vector<IterVar> reduceAxis;
    int schedulableNdim = 0;
    TensorIntrin intrin;
    std::vector<Tensor> inputs;
    std::vector<Region> inputRegions;
    /// The values of the intrinsic's scalar parameters.
    std::vector<Expr> scalarInputs;
    /// The extents of `axis`, cached so `outputShape` can return a reference.
    std::vector<Expr> shape;

    /// TVM's TensorComputeOp constructor, with the checks TVM leaves to later failures
    /// (one region per input, one range per input dimension, one value per scalar parameter),
    /// as UserErrors naming the stage.
    static Operation make(std::string name, std::string tag, std::vector<IterVar> axis,
                          std::vector<IterVar> reduceAxis, int schedulableNdim, TensorIntrin intrin,
                          std::vector<Tensor> inputs, std::vector<Region> inputRegions,
                          std::vector<Expr> scalarInputs);

    int numOutputs() const override;
    DataType outputDType(int i) const override;
    /// Every output has the shape of `axis` (the intrinsic's outputs share it).
    const std::vector<Expr>& outputShape(int) const override { return shape; }
    /// `axis` then `reduceAxis`.
    std::vector<IterVar> rootIterVars() const override;
    std::vector<Tensor> inputTensors() const override { return inputs; }
    const char* typeKey() const override { return "tensor_compute"; }

private:
    TensorComputeOpNode(std::string name, std::string tag);
};

/// The data-parallel and reduce axes of a compute or tensor-compute operation (TVM's
/// BaseComputeOpNode), or nullptr for the other operations.
struct ComputeAxes {
    const std::vector<IterVar>* axis = nullptr;
    const std::vector<IterVar>* reduceAxis = nullptr;
    explicit operator bool() const { return axis != nullptr; }
};
ComputeAxes computeAxesOf(const Operation& op);

using TensorMap = std::unordered_map<Tensor, Tensor, TensorHash, TensorEqual>;
template <typename V> using OpMap = std::unordered_map<Operation, V, NodeHash, NodeEqual>;

/// Replaces every read of a tensor in `map` by a read of its image, transitively (TVM's
/// ReplaceTensor); returns `e` itself when nothing is read from `map`.
Expr replaceTensors(const Expr& e, const TensorMap& map);

/// The index tuples of the reads in `body` of the tensors `reads` accepts, each distinct tuple
/// once (structurally), in the order they are first read.
std::vector<std::vector<Expr>> distinctReads(const std::vector<Expr>& body,
                                             const std::function<bool(const Tensor&)>& reads);

/// TVM's `op->ReplaceInputs(op, map)`: the operation reading the images of `map` instead, or
/// `op` itself when it reads none of them. A reduction's outputs are rebuilt together so they
/// keep sharing their parts. A scan has its inits and updates replaced. Placeholders are
/// returned unchanged. An extern stage has its inputs replaced (its buffers bind to the images).
Operation replaceInputs(const Operation& op, const TensorMap& map);

/// Checks a tensor shape: defined integer scalars, constants not negative. `what` names the
/// tensor in the message (`placeholder 'A'`). Throws UserError.
void checkShape(const std::string& what, const std::vector<Expr>& shape);

/// A copy of `v` named `v.name() + suffix` (TVM's `copy_with_suffix`; size vars stay size vars).
Var copyWithSuffix(const Var& v, const std::string& suffix);

} // namespace bs
