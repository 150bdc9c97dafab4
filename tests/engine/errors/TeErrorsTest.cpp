// One test per user-facing diagnostic of the tensor-expression builders, with its full message.

#include "ir/Op.h"
#include "ir/Stmt.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

#include <functional>

namespace bs {
namespace {

void expectError(const std::function<void()>& action, const std::string& message) {
    try {
        action();
        ADD_FAILURE() << "expected: " << message;
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()), message);
    }
}

Expr zero(const std::vector<Var>&) { return Expr(0.0f); }

TEST(TeErrors, ComputeWithTheWrongNumberOfAxisNames) {
    expectError(
        [] {
            compute({4, 4}, zero, "C", "", {"x"});
        },
        "compute 'C': 1 axis names for a 2-dimensional shape; the compute function must "
        "take one argument per dimension");
}

TEST(TeErrors, ShapeThatIsNotAnInteger) {
    expectError([] { compute({Expr(2.5f)}, zero, "C"); },
                "compute 'C': dimension 0 of the shape must be an integer, got 2.500000f of type "
                "float32");
}

TEST(TeErrors, NegativeShape) {
    expectError(
        [] {
            placeholder({4, -3}, DataType::float32(), "A");
        },
        "placeholder 'A': dimension 1 of the shape must not be negative, got -3");
}

TEST(TeErrors, ReductionBelowTheTopLevel) {
    Tensor a = placeholder({4, 4}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 4), "k");
    expectError(
        [&] {
            compute(
                {4},
                [&](const std::vector<Var>& v) {
                    return sum(a({v[0], k}), {k}) + 1.0f;
                },
                "C");
        },
        "compute 'C': a reduction is only allowed at the top level of the body; compute it in a "
        "tensor of its own and read that tensor");
}

TEST(TeErrors, MultiOutputMixingReductionAndValue) {
    Tensor a = placeholder({4, 4}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 4), "k");
    expectError(
        [&] {
            computeMulti(
                {4},
                [&](const std::vector<Var>& v) {
                    return std::vector<Expr>{sum(a({v[0], k}), {k}), a({v[0], 0})};
                },
                "M");
        },
        "compute 'M': either every output is a reduction or none is, but output 0 is and output "
        "1 is not");
}

TEST(TeErrors, MultiOutputWithUnrelatedReductions) {
    Tensor a = placeholder({4, 4}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 4), "k");
    expectError(
        [&] {
            computeMulti(
                {4},
                [&](const std::vector<Var>& v) {
                    return std::vector<Expr>{sum(a({v[0], k}), {k}), max(a({v[0], k}), {k})};
                },
                "M");
        },
        "compute 'M': the reductions of a multi-output compute must share their reducer, sources, "
        "axes and condition (output 1 differs from output 0)");
}

TEST(TeErrors, ComputeReturningNothing) {
    expectError(
        [] {
            computeMulti(
                {4}, [](const std::vector<Var>&) { return std::vector<Expr>{}; }, "M");
        },
        "compute 'M': the compute function returned no value");
}

TEST(TeErrors, ReducerReturningTheWrongNumberOfValues) {
    Reducer bad = commReducer(
        [](const std::vector<Var>& x, const std::vector<Var>&) { return std::vector<Expr>{x[0]}; },
        [](const std::vector<DataType>& t) {
            return std::vector<Expr>{makeZero(t[0]), makeZero(t[1])};
        },
        "bad");
    Tensor a = placeholder({4}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 4), "k");
    expectError(
        [&] {
            bad({a({k}), a({k})}, {k});
        },
        "reducer 'bad': the combine function must return 2 values, one per reduced "
        "value, got 1");
}

TEST(TeErrors, ReducerIdentityOfTheWrongType) {
    Reducer bad =
        commReducer([](const std::vector<Var>& x,
                       const std::vector<Var>& y) { return std::vector<Expr>{x[0] + y[0]}; },
                    [](const std::vector<DataType>&) { return std::vector<Expr>{Expr(0)}; }, "bad");
    Tensor a = placeholder({4}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 4), "k");
    expectError(
        [&] { bad(a({k}), {k}); },
        "reducer 'bad': value 0 of the identity function must have type float32, got int32");
}

TEST(TeErrors, ReductionOverADataAxis) {
    Tensor a = placeholder({4}, DataType::float32(), "A");
    IterVar i(Range(0, 4), Var("i"), IterVarType::DataPar);
    expectError([&] { sum(a({i}), {i}); },
                "sum: 'i' is not a reduction axis (kDataPar); create it with reduce_axis");
}

TEST(TeErrors, WhereThatIsNotBoolean) {
    Tensor a = placeholder({4}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 4), "k");
    expectError([&] { sum(a({k}), {k}, Expr(k->var) + 1); },
                "sum: the where condition must be boolean, got (k + 1)");
}

TEST(TeErrors, MaxOfBooleans) {
    Tensor a = placeholder({4}, DataType::boolean(), "A");
    IterVar k = reduceAxis(Range(0, 4), "k");
    expectError([&] { max(a({k}), {k}); }, "max: cannot reduce a value of type bool");
}

TEST(TeErrors, ReduceAxisWithoutADom) {
    expectError([] { reduceAxis(Range(), "k"); },
                "reduce_axis 'k': a dom (min, extent) must be given");
}

TEST(TeErrors, ThreadAxisWithoutATag) {
    expectError([] { threadAxis(""); },
                "thread_axis: a thread tag such as 'threadIdx.x' must be given");
}

TEST(TeErrors, AFloatIndexIsRefusedWhereItIsWritten) {
    // It was accepted, and LLVM refused the kernel ("GEP indexes must be integers").
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Var i("i");
    expectError(
        [&] { a({Expr(i) + Expr(1.5f)}); },
        "tensor 'A' is indexed with '(float32(i) + 1.500000f)', a float32: an index must be "
        "an integer (convert it with .astype(\"int32\"))");
    Var data("data", DataType::handle());
    expectError([&] { LoadNode::make(DataType::float32(), data, Expr(0.5f), Expr()); },
                "buffer 'data' is indexed with '0.500000f', a float32: an index must be an integer "
                "(convert it with .astype(\"int32\"))");
    expectError(
        [&] { ProducerStoreNode::make(a, Expr(1.0f), {Expr(i) + Expr(1.5f)}); },
        "tensor 'A' is indexed with '(float32(i) + 1.500000f)', a float32: an index must be "
        "an integer (convert it with .astype(\"int32\"))");
    expectError([&] { StoreNode::make(data, Expr(1.0f), Expr(0.5f), Expr()); },
                "buffer 'data' is indexed with '0.500000f', a float32: an index must be an integer "
                "(convert it with .astype(\"int32\"))");
}

} // namespace
} // namespace bs
