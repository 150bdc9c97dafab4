#include "te/Compute.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

namespace bs {
namespace {

std::vector<std::string> names(const std::vector<IterVar>& ivs) {
    std::vector<std::string> out;
    for (const IterVar& iv : ivs)
        out.push_back(iv->var.name());
    return out;
}

std::vector<std::string> tensorNames(const std::vector<Tensor>& tensors) {
    std::vector<std::string> out;
    for (const Tensor& t : tensors)
        out.push_back(t.name());
    return out;
}

TEST(Te, PlaceholderHasShapeDtypeAndNoLoops) {
    Tensor a = placeholder({5, 16}, DataType::int32(), "A");
    const auto* op = a.op.as<PlaceholderOpNode>();
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(a.name(), "A");
    EXPECT_EQ(a.dtype(), DataType::int32());
    ASSERT_EQ(a.ndim(), 2u);
    EXPECT_EQ(toString(a.shape()[1]), "16");
    EXPECT_STREQ(op->typeKey(), "placeholder");
    EXPECT_TRUE(op->rootIterVars().empty());
    EXPECT_TRUE(op->inputTensors().empty());
}

TEST(Te, PlaceholderDefaultsToFloat32NamedPlaceholder) {
    Tensor a = placeholder({4});
    EXPECT_EQ(a.name(), "placeholder");
    EXPECT_EQ(a.dtype(), DataType::float32());
}

TEST(Te, ComputeDefaultAxisNamesAreIJKThenIndexed) {
    Tensor c = compute({2, 3, 4, 5, 6}, [](const std::vector<Var>&) { return Expr(1); });
    const auto* op = c.op.as<ComputeOpNode>();
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(names(op->axis), (std::vector<std::string>{"i", "j", "k", "i3", "i4"}));
    EXPECT_EQ(c.name(), "compute");
    EXPECT_STREQ(op->typeKey(), "compute");
}

TEST(Te, ComputeAxesSpanTheShapeFromZero) {
    Tensor c = compute({5, 16}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "C", "",
                       {"x", "y"});
    const auto* op = c.op.as<ComputeOpNode>();
    EXPECT_EQ(names(op->axis), (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(toString(op->axis[1]->dom), "range(min=0, ext=16)");
    EXPECT_EQ(op->axis[0]->iterType, IterVarType::DataPar);
    EXPECT_EQ(toString(op->body[0]), "(x + y)");
    EXPECT_EQ(c.dtype(), DataType::int32());
    EXPECT_EQ(toString(c.shape()[0]), "5");
    EXPECT_TRUE(op->reduceAxis.empty());
}

TEST(Te, ComputeWithSymbolicShape) {
    Var n = var("n");
    Var m = sizeVar("m");
    Tensor a = placeholder({n, m}, DataType::float32(), "A");
    Tensor b = compute(
        {n, m},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * 2.0f;
        },
        "B");
    const auto* op = b.op.as<ComputeOpNode>();
    EXPECT_TRUE(op->axis[0]->dom.extent.same_as(n));
    EXPECT_TRUE(op->axis[1]->dom.extent.same_as(m));
    EXPECT_TRUE(m->isSizeVar);
    EXPECT_FALSE(n->isSizeVar);
    EXPECT_EQ(toString(op->body[0]), "(A(i, j)*2.000000f)");
}

TEST(Te, InputTensorsInOrderOfFirstRead) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor idx = placeholder({8}, DataType::int32(), "Idx");
    Tensor b = placeholder({8}, DataType::float32(), "B");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return b({v[0]}) + a({idx({v[0]})}) + b({v[0]}); },
        "C");
    EXPECT_EQ(tensorNames(c.op->inputTensors()), (std::vector<std::string>{"B", "Idx", "A"}));
}

TEST(Te, MultiOutputComputeSharesShape) {
    Tensor a = placeholder({4, 4}, DataType::float32(), "A");
    std::vector<Tensor> outs = computeMulti(
        {4, 4},
        [&](const std::vector<Var>& v) {
            return std::vector<Expr>{a({v[0], v[1]}) + 1.0f,
                                     cast(DataType::int32(), a({v[0], v[1]}))};
        },
        "M");
    ASSERT_EQ(outs.size(), 2u);
    EXPECT_TRUE(outs[0].op.same_as(outs[1].op));
    EXPECT_EQ(outs[1].valueIndex, 1);
    EXPECT_EQ(outs[0].dtype(), DataType::float32());
    EXPECT_EQ(outs[1].dtype(), DataType::int32());
    EXPECT_EQ(outs[1].ndim(), 2u);
    EXPECT_EQ(outs[0].op->numOutputs(), 2);
}

TEST(Te, ThreadAxisIsNamedAfterItsTag) {
    IterVar tx = threadAxis("threadIdx.x");
    EXPECT_EQ(tx->var.name(), "threadIdx.x");
    EXPECT_EQ(tx->threadTag, "threadIdx.x");
    EXPECT_EQ(tx->iterType, IterVarType::ThreadIndex);
    EXPECT_FALSE(tx->dom.defined());
    IterVar bx = threadAxis(Range(0, 32), "blockIdx.x", "bx");
    EXPECT_EQ(bx->var.name(), "bx");
    EXPECT_EQ(toString(bx->dom), "range(min=0, ext=32)");
}

TEST(Te, VarDefaults) {
    EXPECT_EQ(var().name(), "tindex");
    EXPECT_EQ(sizeVar().name(), "size");
    EXPECT_EQ(var("x", DataType::int64()).type(), DataType::int64());
}

TEST(Te, CreatingObjectsRecordsTheScriptLine) {
    ScopedSourceLocation at(SourceLocation{"k.py", 7});
    Tensor a = placeholder({4}, DataType::float32(), "A");
    Tensor c = compute(
        {4}, [&](const std::vector<Var>& v) { return a({v[0]}); }, "C");
    EXPECT_EQ(a.op->location.line, 7);
    EXPECT_EQ(c.op.as<ComputeOpNode>()->axis[0]->location.line, 7);
}

TEST(Te, ReplaceInputsRewritesReadsAndKeepsUnchangedOps) {
    Tensor a = placeholder({4}, DataType::float32(), "A");
    Tensor b = placeholder({4}, DataType::float32(), "B");
    Tensor c = compute(
        {4}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "C");
    TensorMap map{{a, b}};
    Operation replaced = replaceInputs(c.op, map);
    EXPECT_FALSE(replaced.same_as(c.op));
    EXPECT_EQ(toString(replaced.as<ComputeOpNode>()->body[0]), "(B(i) + 1.000000f)");
    EXPECT_TRUE(replaced.as<ComputeOpNode>()->axis[0].same_as(c.op.as<ComputeOpNode>()->axis[0]));
    TensorMap unrelated{{b, a}};
    EXPECT_TRUE(replaceInputs(c.op, unrelated).same_as(c.op));
    EXPECT_TRUE(replaceInputs(a.op, map).same_as(a.op));
}

} // namespace
} // namespace bs
