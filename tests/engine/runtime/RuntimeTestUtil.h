/// \file
/// Helpers for the interpreter tests: a test-only operation to make tensors from (engine/te is
/// not a dependency of engine/runtime) and short builders for the flat IR the tests write by
/// hand.
#pragma once

#include "ir/Op.h"
#include "ir/OperationNode.h"
#include "ir/Stmt.h"
#include "runtime/Buffer.h"

#include <string>
#include <vector>

namespace bs::test {

/// An operation with one output of a given shape and dtype; it prints as `compute(name)`.
class TestOpNode : public OperationNode {
public:
    TestOpNode(std::string name, std::vector<Expr> shape, DataType dtype)
        : OperationNode(NodeKind::ComputeOp, std::move(name), ""), m_shape(std::move(shape)),
          m_dtype(dtype) {}

    int numOutputs() const override { return 1; }
    DataType outputDType(int) const override { return m_dtype; }
    const std::vector<Expr>& outputShape(int) const override { return m_shape; }
    std::vector<IterVar> rootIterVars() const override { return {}; }
    std::vector<Tensor> inputTensors() const override { return {}; }
    const char* typeKey() const override { return "compute"; }

private:
    std::vector<Expr> m_shape;
    DataType m_dtype;
};

inline Tensor makeTensor(const std::string& name, std::vector<Expr> shape,
                         DataType dtype = DataType::float32()) {
    return Operation(new TestOpNode(name, std::move(shape), dtype)).output(0);
}

/// A buffer Var as storage flattening makes them.
inline Var bufferVar(const std::string& name) { return Var(name, DataType::handle()); }

inline Stmt loop(const Var& v, Expr extent, Stmt body, ForKind kind = ForKind::Serial) {
    return ForNode::make(v, Expr(0), std::move(extent), kind, std::move(body));
}

inline Expr load(const Var& buffer, Expr index, DataType type = DataType::float32()) {
    return LoadNode::make(type, buffer, std::move(index));
}

inline Stmt store(const Var& buffer, Expr value, Expr index) {
    return StoreNode::make(buffer, std::move(value), std::move(index));
}

/// `// attr [B] storage_scope = "scope"` over `allocate B[type * extent] { body }`.
inline Stmt allocate(const Var& buffer, DataType type, Expr extent, Stmt body,
                     const std::string& scope = "global") {
    Stmt alloc = AllocateNode::make(buffer, type, {std::move(extent)}, Expr(), std::move(body));
    return AttrStmtNode::make(buffer, attr::kStorageScope, StringImmNode::make(scope), alloc);
}

inline IterVar threadAxis(const std::string& tag) {
    return IterVar(Range(), Var(tag), IterVarType::ThreadIndex, tag);
}

inline Stmt threadExtent(const IterVar& axis, Expr extent, Stmt body) {
    return AttrStmtNode::make(axis, attr::kThreadExtent, std::move(extent), std::move(body));
}

inline Stmt barrier() {
    return EvaluateNode::make(CallNode::make(DataType::int32(), "tvm_storage_sync",
                                             {StringImmNode::make("shared")}, CallKind::Intrinsic));
}

inline Stmt seq(std::vector<Stmt> parts) { return SeqNode::make(std::move(parts)); }

/// A float32 buffer of `n` elements holding 0, 1, 2, ...
inline Buffer iotaBuffer(const std::string& name, int64_t n, DataType dtype = DataType::float32()) {
    Buffer b(name, dtype, {n});
    for (int64_t i = 0; i < n; ++i)
        b.setDouble(i, double(i));
    return b;
}

} // namespace bs::test
