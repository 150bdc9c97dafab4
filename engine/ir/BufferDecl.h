/// \file
/// TVM's `tir.Buffer` (`tvm.tir.decl_buffer`): a named region of memory reached through its
/// `data` handle, with a shape, an element type, strides (empty: row-major) and an element
/// offset. A tensor intrinsic's body reads and writes its operands through buffers; lowering
/// binds each buffer to the region of a tensor the tensorized loops cover
/// (`buffer_bind_scope`), and StorageFlatten puts that region's layout in the body.
#pragma once

#include "ir/Expr.h"

#include <string>
#include <vector>

namespace bs {

struct BufferDeclNode : Node, KindTag<NodeKind::BufferDecl> {
    std::string name;
    Var data;
    DataType dtype;
    std::vector<Expr> shape;
    /// One per dimension, or empty: the buffer is compact (row-major over `shape`).
    std::vector<Expr> strides;
    /// In elements; a Var is bound to the offset of the region the buffer is bound to.
    Expr elemOffset;
    std::string scope;
    /// The element offset is a multiple of this (0 or 1: any offset).
    int offsetFactor = 0;

    BufferDeclNode() : Node(NodeKind::BufferDecl) {}
};

class BufferDecl : public NodeRef {
public:
    BufferDecl() = default;
    explicit BufferDecl(const BufferDeclNode* node) : NodeRef(node) {}

    /// Checks the handle and the shape; throws UserError naming `name`.
    static BufferDecl make(std::string name, Var data, DataType dtype, std::vector<Expr> shape,
                           std::vector<Expr> strides, Expr elemOffset, std::string scope,
                           int offsetFactor);

    const BufferDeclNode* get() const { return static_cast<const BufferDeclNode*>(NodeRef::get()); }
    const BufferDeclNode* operator->() const { return get(); }
};

} // namespace bs
