/// \file
/// Test helpers for the lowering passes: a minimal operation to make tensors from (engine/te is
/// not a dependency of these tests) and a tiny evaluator of flat IR, so that passes can be
/// checked to keep the values a program computes.
#pragma once

#include "ir/OperationNode.h"
#include "ir/Stmt.h"

#include <string>
#include <vector>

namespace bs::test {

/// An operation with given output shapes and one dtype; it prints as `compute(name)`.
class FakeOpNode : public OperationNode {
public:
    FakeOpNode(std::string name, std::vector<std::vector<Expr>> shapes, DataType dtype)
        : OperationNode(NodeKind::ComputeOp, std::move(name), ""), m_shapes(std::move(shapes)),
          m_dtype(dtype) {}

    int numOutputs() const override { return int(m_shapes.size()); }
    DataType outputDType(int) const override { return m_dtype; }
    const std::vector<Expr>& outputShape(int i) const override { return m_shapes[size_t(i)]; }
    std::vector<IterVar> rootIterVars() const override { return {}; }
    std::vector<Tensor> inputTensors() const override { return {}; }
    const char* typeKey() const override { return "compute"; }

private:
    std::vector<std::vector<Expr>> m_shapes;
    DataType m_dtype;
};

/// A single-output tensor `name` of `shape`.
Tensor makeTensor(const std::string& name, std::vector<Expr> shape,
                  DataType dtype = DataType::float32());
/// An operation with one output per shape.
Operation makeOp(const std::string& name, std::vector<std::vector<Expr>> shapes,
                 DataType dtype = DataType::float32());

/// Runs flat IR (Store/Load on buffers, loops, lets, ifs, allocations, vectors) on doubles,
/// with integer semantics (truncating and floor division) for integer types. Unknown
/// variables and out-of-range accesses fail the current test.
class MiniInterpreter {
public:
    /// Gives `buffer` (a handle Var) its contents.
    void setBuffer(const Var& buffer, std::vector<double> data);
    const std::vector<double>& buffer(const Var& buffer) const;
    /// Gives a free scalar variable its value.
    void setScalar(const Var& var, double value);

    void run(const Stmt& stmt);
    /// The lanes of `e`'s value.
    std::vector<double> eval(const Expr& e);

private:
    struct Impl;
    std::vector<std::pair<Var, std::vector<double>>> m_buffers;
    std::vector<std::pair<Var, std::vector<double>>> m_scalars;
    friend struct Impl;
};

} // namespace bs::test
