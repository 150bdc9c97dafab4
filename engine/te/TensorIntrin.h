/// \file
/// TVM's TensorIntrin (`te.decl_tensor_intrin`): a computation (a compute operation over
/// placeholders) paired with the statements that perform it in one step on hardware or in a
/// library (`body`, and for a reduction split across calls `reduce_init` / `reduce_update`).
/// `s[C].tensorize(loop, intrin)` replaces the loops of C from `loop` inwards by the
/// intrinsic's statements (lower/Tensorize.cpp), once the computation under those loops is
/// proven to be the intrinsic's.
#pragma once

#include "ir/BufferDecl.h"
#include "ir/OperationNode.h"
#include "ir/Stmt.h"
#include "support/Diagnostic.h"

namespace bs {

struct TensorIntrinNode : Node, KindTag<NodeKind::TensorIntrin> {
    std::string name;
    /// The computation the intrinsic performs: a compute operation.
    Operation op;
    /// The tensors `op` reads, in its order.
    std::vector<Tensor> inputs;
    /// One per input, then one per output of `op`: what the statements read and write.
    std::vector<BufferDecl> buffers;
    /// Scalars the statements use (`scalar_params`), given per call.
    std::vector<Var> scalarParams;
    Stmt body;         ///< computes the whole result; may be undefined
    Stmt reduceInit;   ///< resets the output of a reduction; may be undefined
    Stmt reduceUpdate; ///< adds one part of a reduction to the output; may be undefined
    SourceLocation location;

    TensorIntrinNode() : Node(NodeKind::TensorIntrin) {}
};

class TensorIntrin : public NodeRef {
public:
    TensorIntrin() = default;
    explicit TensorIntrin(const TensorIntrinNode* node) : NodeRef(node) {}

    /// TVM's TensorIntrin constructor with its checks, as UserErrors naming the intrinsic: `op`
    /// is a compute operation, one buffer per input and output of the matching dtype and
    /// dimensions, at least one statement. Records `currentSourceLocation()`.
    static TensorIntrin make(std::string name, Operation op, std::vector<Tensor> inputs,
                             std::vector<BufferDecl> buffers, std::vector<Var> scalarParams,
                             Stmt body, Stmt reduceInit, Stmt reduceUpdate);

    const TensorIntrinNode* get() const {
        return static_cast<const TensorIntrinNode*>(NodeRef::get());
    }
    const TensorIntrinNode* operator->() const { return get(); }
};

} // namespace bs
