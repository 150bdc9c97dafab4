#include "te/Reduce.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "te/Compute.h"

#include <gtest/gtest.h>

#include <limits>

namespace bs {
namespace {

std::vector<std::string> names(const std::vector<IterVar>& ivs) {
    std::vector<std::string> out;
    for (const IterVar& iv : ivs)
        out.push_back(iv->var.name());
    return out;
}

TEST(TeReduce, ReduceAxisIsCommReduceNamedRvByDefault) {
    IterVar k = reduceAxis(Range(0, 16));
    EXPECT_EQ(k->var.name(), "rv");
    EXPECT_EQ(k->iterType, IterVarType::CommReduce);
    EXPECT_EQ(toString(k->dom), "range(min=0, ext=16)");
}

TEST(TeReduce, SumMakesAReductionComputeWithReduceAxis) {
    Tensor a = placeholder({8, 16}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 16), "k");
    Tensor b = compute(
        {8},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k}), {k});
        },
        "B");
    const auto* op = b.op.as<ComputeOpNode>();
    ASSERT_EQ(op->reduceAxis.size(), 1u);
    EXPECT_TRUE(op->reduceAxis[0].same_as(k));
    EXPECT_EQ(names(op->rootIterVars()), (std::vector<std::string>{"i", "k"}));
    EXPECT_TRUE(op->isReduction());
    const auto* r = op->body[0].as<ReduceNode>();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(toString(r->combiner->result[0]), "(x + y)");
    EXPECT_EQ(toString(r->combiner->identityElement[0]), "0.000000f");
    EXPECT_EQ(toString(r->source[0]), "A(i, k)");
    EXPECT_TRUE(isConstInt(r->condition, 1));
}

TEST(TeReduce, MaxIdentityIsLowestFloat) {
    IterVar k = reduceAxis(Range(0, 4), "k");
    Tensor a = placeholder({4}, DataType::float32(), "A");
    Expr m = max(a({k}), k);
    const auto* r = m.as<ReduceNode>();
    ASSERT_NE(r, nullptr);
    const auto* identity = r->combiner->identityElement[0].as<FloatImmNode>();
    ASSERT_NE(identity, nullptr);
    EXPECT_EQ(identity->value, -double(std::numeric_limits<float>::max()));
    EXPECT_EQ(toString(r->combiner->result[0]), "max(x, y)");
}

TEST(TeReduce, MinIdentityIsHighestInt) {
    IterVar k = reduceAxis(Range(0, 4), "k");
    Tensor a = placeholder({4}, DataType::int32(), "A");
    Expr reduction = min(a({k}), k);
    const auto* r = reduction.as<ReduceNode>();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(asConstInt(r->combiner->identityElement[0]), std::numeric_limits<int32_t>::max());
    EXPECT_EQ(toString(r->combiner->result[0]), "min(x, y)");
}

TEST(TeReduce, WhereBecomesTheCondition) {
    IterVar k = reduceAxis(Range(0, 4), "k");
    Tensor a = placeholder({4}, DataType::float32(), "A");
    Expr reduction = sum(a({k}), {k}, Expr(k->var) < 2);
    const auto* r = reduction.as<ReduceNode>();
    EXPECT_EQ(toString(r->condition), "(k < 2)");
}

TEST(TeReduce, UserReducerOverATupleGivesOneReducePerValue) {
    // argmax over (index, value) pairs, as in TVM's tuple-reducer tutorial.
    Reducer argmax = commReducer(
        [](const std::vector<Var>& x, const std::vector<Var>& y) {
            Expr keepLeft = x[1] >= y[1];
            return std::vector<Expr>{select(keepLeft, x[0], y[0]), select(keepLeft, x[1], y[1])};
        },
        [](const std::vector<DataType>& t) {
            return std::vector<Expr>{makeConst(t[0], int64_t(-1)), lowestValue(t[1])};
        },
        "argmax");
    Tensor idx = placeholder({4, 8}, DataType::int32(), "Idx");
    Tensor val = placeholder({4, 8}, DataType::float32(), "Val");
    IterVar k = reduceAxis(Range(0, 8), "k");
    std::vector<Tensor> t = computeMulti(
        {4},
        [&](const std::vector<Var>& v) {
            return argmax({idx({v[0], k}), val({v[0], k})}, {k});
        },
        "T");
    ASSERT_EQ(t.size(), 2u);
    const auto* op = t[0].op.as<ComputeOpNode>();
    const auto* r0 = op->body[0].as<ReduceNode>();
    const auto* r1 = op->body[1].as<ReduceNode>();
    ASSERT_TRUE(r0 && r1);
    EXPECT_TRUE(r0->combiner.same_as(r1->combiner));
    EXPECT_EQ(r0->valueIndex, 0);
    EXPECT_EQ(r1->valueIndex, 1);
    EXPECT_EQ(r0->combiner->lhs[1].name(), "x_1");
    EXPECT_EQ(r0->combiner->rhs[0].name(), "y_0");
    EXPECT_EQ(t[0].dtype(), DataType::int32());
    EXPECT_EQ(t[1].dtype(), DataType::float32());
    EXPECT_EQ(names(op->reduceAxis), (std::vector<std::string>{"k"}));
}

TEST(TeReduce, UserReducerNamesItsVariables) {
    Reducer product =
        commReducer([](const std::vector<Var>& a,
                       const std::vector<Var>& b) { return std::vector<Expr>{a[0] * b[0]}; },
                    [](const std::vector<DataType>& t) { return std::vector<Expr>{makeOne(t[0])}; },
                    "prod", "a", "b");
    IterVar k = reduceAxis(Range(0, 4), "k");
    Tensor a = placeholder({4}, DataType::float32(), "A");
    Expr reduction = product(a({k}), {k});
    const auto* r = reduction.as<ReduceNode>();
    EXPECT_EQ(toString(r->combiner->result[0]), "(a*b)");
    EXPECT_EQ(toString(r->combiner->identityElement[0]), "1.000000f");
}

} // namespace
} // namespace bs
