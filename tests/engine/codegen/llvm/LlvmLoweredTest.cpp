// Schedules lowered by engine/lower (tvm.lower), compiled by the LLVM backend and run on
// random inputs, against the reference interpreter running the same lowered IR.
#include "LlvmTestUtil.h"

#include "lower/Lower.h"
#include "runtime/Interpreter.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

/// Runs `func` compiled by the JIT and in the interpreter on the same random contents of every
/// argument and compares every argument afterwards (an element the kernel fails to write keeps
/// its random value and shows).
void expectJitMatchesInterpreter(const LoweredFunc& func,
                                 const std::vector<std::vector<int64_t>>& shapes,
                                 const std::vector<int64_t>& scalars = {}) {
    ASSERT_EQ(func.args.size(), shapes.size());
    std::vector<Buffer> jitBuffers, refBuffers;
    for (size_t i = 0; i < shapes.size(); ++i) {
        jitBuffers.emplace_back(func.args[i].name(), func.args[i].dtype(), shapes[i]);
        jitBuffers.back().fillRandom(100 + i);
        refBuffers.push_back(jitBuffers.back());
    }
    Interpreter interpreter;
    std::vector<void*> data;
    for (size_t i = 0; i < shapes.size(); ++i) {
        interpreter.bindBuffer(func.argBuffers[i], refBuffers[i]);
        data.push_back(jitBuffers[i].data());
    }
    for (size_t i = 0; i < scalars.size(); ++i)
        interpreter.bindScalar(func.scalarParams[i], scalars[i]);
    interpreter.run(func.final);

    JitKernel kernel = compileKernel(func.name, func.argBuffers, func.scalarParams, func.final);
    kernel.run(data, scalars);
    for (size_t i = 0; i < shapes.size(); ++i) {
        std::string mismatch;
        EXPECT_TRUE(Buffer::allClose(jitBuffers[i], refBuffers[i], 1e-5, 1e-5, &mismatch))
            << mismatch << "\n"
            << toString(func.final);
    }
}

IterVar axis(const Tensor& t, size_t i) { return t.op.as<ComputeOpNode>()->axis[i]; }

} // namespace

TEST(LlvmLowered, MatmulWithTheTvmTutorialScheduleMatchesTheInterpreter) {
    // TVM's "How to optimize GEMM on CPU": blocking, k split and unrolled, the inner column
    // vectorized, the outer rows parallel.
    const int n = 64;
    Tensor a = placeholder({n, n}, DataType::float32(), "A");
    Tensor b = placeholder({n, n}, DataType::float32(), "B");
    IterVar k = reduceAxis(Range(0, n), "k");
    Tensor c = compute(
        {n, n},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k->var}) * b({k->var, v[1]}), k);
        },
        "C");
    Schedule s = createSchedule(c.op);
    TileResult tile = s[c].tile(axis(c, 0), axis(c, 1), 16, 16);
    auto [ko, ki] = s[c].split(k, 4);
    s[c].reorder({tile.xOuter, tile.yOuter, ko, ki, tile.xInner, tile.yInner});
    s[c].vectorize(tile.yInner);
    s[c].unroll(ki);
    s[c].parallel(tile.xOuter);
    LowerResult lowered = lower(s, {a, b, c});
    std::string ir = printLlvmIr(cpuKernelOf(lowered.func), LlvmCodegenOptions{false, 64 * 1024});
    EXPECT_NE(ir.find("@bs_llvm_parallel_for"), std::string::npos);
    EXPECT_NE(ir.find("<16 x float>"), std::string::npos);
    expectJitMatchesInterpreter(lowered.func, {{n, n}, {n, n}, {n, n}});
}

TEST(LlvmLowered, SymbolicShapeWithVectorizedTailMatchesTheInterpreter) {
    Var len = sizeVar("n");
    Tensor a = placeholder({len}, DataType::float32(), "A");
    Tensor b = compute(
        {len},
        [&](const std::vector<Var>& v) {
            return a({v[0]}) * makeConst(DataType::float32(), 2.0) +
                   makeConst(DataType::float32(), 1.0);
        },
        "B");
    Schedule s = createSchedule(b.op);
    auto [outer, inner] = s[b].split(axis(b, 0), 8);
    s[b].vectorize(inner);
    s[b].parallel(outer);
    LowerResult lowered = lower(s, {a, b});
    ASSERT_EQ(lowered.func.scalarParams.size(), 1u);
    for (int64_t size : {1, 37, 64})
        expectJitMatchesInterpreter(lowered.func, {{size}, {size}}, {size});
}

TEST(LlvmLowered, BlurWithComputeAtMatchesTheInterpreter) {
    const int h = 30, w = 44;
    Tensor in = placeholder({h + 2, w + 2}, DataType::float32(), "In");
    Expr third = makeConst(DataType::float32(), 1.0 / 3.0);
    Tensor bx = compute(
        {h + 2, w},
        [&](const std::vector<Var>& v) {
            return (in({v[0], v[1]}) + in({v[0], v[1] + 1}) + in({v[0], v[1] + 2})) * third;
        },
        "BlurX");
    Tensor by = compute(
        {h, w},
        [&](const std::vector<Var>& v) {
            return (bx({v[0], v[1]}) + bx({v[0] + 1, v[1]}) + bx({v[0] + 2, v[1]})) * third;
        },
        "BlurY");
    Schedule s = createSchedule(by.op);
    TileResult tile = s[by].tile(axis(by, 0), axis(by, 1), 8, 4);
    s[by].vectorize(tile.yInner);
    s[by].parallel(tile.xOuter);
    s[bx].computeAt(s[by], tile.yOuter);
    s[bx].vectorize(axis(bx, 1));
    LowerResult lowered = lower(s, {in, by});
    expectJitMatchesInterpreter(lowered.func, {{h + 2, w + 2}, {h, w}});
}

// Vector widths 1, 4, 8 and 16 through the whole pipeline: te split + vectorize + parallel,
// lowered, compiled and run, on an extent the width divides (the vector type shows in the IR)
// and on one it does not (the guarded tail must still match).
class LlvmLoweredVectorWidth : public ::testing::TestWithParam<int> {};

TEST_P(LlvmLoweredVectorWidth, SplitVectorizedParallelStencilMatchesTheInterpreter) {
    const int lanes = GetParam();
    for (int width : {48, 45}) {
        Tensor a = placeholder({12, width + 1}, DataType::float32(), "A");
        Tensor b = compute(
            {12, width},
            [&](const std::vector<Var>& v) {
                return a({v[0], v[1]}) * makeConst(DataType::float32(), 2.0) + a({v[0], v[1] + 1});
            },
            "B");
        Schedule s = createSchedule(b.op);
        auto [outer, inner] = s[b].split(axis(b, 1), lanes);
        s[b].vectorize(inner);
        s[b].parallel(axis(b, 0));
        LowerResult lowered = lower(s, {a, b});
        std::string ir =
            printLlvmIr(cpuKernelOf(lowered.func), LlvmCodegenOptions{false, 64 * 1024});
        EXPECT_NE(ir.find("@bs_llvm_parallel_for"), std::string::npos);
        if (lanes > 1 && width % lanes == 0) {
            EXPECT_NE(ir.find("<" + std::to_string(lanes) + " x float>"), std::string::npos) << ir;
        }
        expectJitMatchesInterpreter(lowered.func, {{12, width + 1}, {12, width}});
    }
}

INSTANTIATE_TEST_SUITE_P(Widths, LlvmLoweredVectorWidth, ::testing::Values(1, 4, 8, 16));
