// Kernels of hand-made flattened IR compiled by the LLVM code generator and the JIT, run on
// random data and compared with naive C++ loops.
#include "LlvmTestUtil.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace bs;
using namespace bs::test;

namespace {

const DataType f32 = DataType::float32();

/// C[i] = A[i] + B[i] for i < n, n bound at call time.
Stmt elementwiseAdd(const Var& a, const Var& b, const Var& c, const Var& n) {
    Var i("i");
    return loop(i, 0, n, store(c, load(a, i) + load(b, i), i));
}

/// C[i, j] = sum_k A[i, k] * B[k, j], row-major, with the reduction as a loop.
Stmt matmul(const Var& a, const Var& b, const Var& c, int m, int n, int k) {
    Var i("i"), j("j"), r("k");
    Expr out = i * n + j;
    Stmt init = store(c, Expr(0.0f), out);
    Stmt update =
        loop(r, 0, k, store(c, load(c, out) + load(a, i * k + r) * load(b, r * n + j), out));
    return loop(i, 0, m, loop(j, 0, n, seq({init, update})));
}

} // namespace

TEST(LlvmCodegen, ElementwiseAddMatchesReference) {
    Var a = bufferVar("A"), b = bufferVar("B"), c = bufferVar("C"), n("n");
    JitKernel kernel = compileKernel("add", {a, b, c}, {n}, elementwiseAdd(a, b, c, n));
    for (size_t size : {size_t(1), size_t(7), size_t(1000), size_t(4099)}) {
        std::vector<float> av = randomFloats(size, 1), bv = randomFloats(size, 2), cv(size);
        kernel.run(pointers(av, bv, cv), {int64_t(size)});
        std::vector<float> expected(size);
        for (size_t i = 0; i < size; ++i)
            expected[i] = av[i] + bv[i];
        expectNear(expected, cv, 0.0f);
    }
}

TEST(LlvmCodegen, MatmulWithReductionMatchesReference) {
    const int m = 37, n = 45, k = 29;
    Var a = bufferVar("A"), b = bufferVar("B"), c = bufferVar("C");
    JitKernel kernel = compileKernel("matmul", {a, b, c}, {}, matmul(a, b, c, m, n, k));
    std::vector<float> av = randomFloats(m * k, 3), bv = randomFloats(k * n, 4), cv(m * n, 99.0f);
    kernel.run(pointers(av, bv, cv));
    std::vector<float> expected(m * n, 0.0f);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            for (int r = 0; r < k; ++r)
                expected[i * n + j] += av[i * k + r] * bv[r * n + j];
    expectNear(expected, cv, 1e-5f);
}

namespace {

/// A separable 3x3 box blur of an (h+2) x (w+2) input into h x w, through an intermediate
/// buffer `blur_x` of (h+2) x w (Halide's classic example, flattened by hand).
Stmt blur2d(const Var& input, const Var& output, int h, int w) {
    Var bx("blur_x", DataType::handle()), x("x"), y("y"), x2("x"), y2("y");
    Expr in = y * (w + 2) + x;
    Stmt produceX = loop(
        y, 0, h + 2,
        loop(x, 0, w,
             store(bx, (load(input, in) + load(input, in + 1) + load(input, in + 2)) / Expr(3.0f),
                   y * w + x)));
    Expr at = y2 * w + x2;
    Stmt produceY = loop(
        y2, 0, h,
        loop(x2, 0, w,
             store(output, (load(bx, at) + load(bx, at + w) + load(bx, at + 2 * w)) / Expr(3.0f),
                   at)));
    return AllocateNode::make(bx, f32, {Expr((h + 2) * w)}, Expr(), seq({produceX, produceY}));
}

std::vector<float> blurReference(const std::vector<float>& in, int h, int w) {
    std::vector<float> bx((h + 2) * w), out(h * w);
    for (int y = 0; y < h + 2; ++y)
        for (int x = 0; x < w; ++x) {
            const float* row = &in[y * (w + 2) + x];
            bx[y * w + x] = (row[0] + row[1] + row[2]) / 3.0f;
        }
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            out[y * w + x] = (bx[y * w + x] + bx[(y + 1) * w + x] + bx[(y + 2) * w + x]) / 3.0f;
    return out;
}

} // namespace

TEST(LlvmCodegen, Blur2dWithStackIntermediateMatchesReference) {
    const int h = 17, w = 23; // blur_x is 19*23*4 bytes: on the stack
    Var input = bufferVar("input"), output = bufferVar("output");
    Stmt body = blur2d(input, output, h, w);
    EXPECT_NE(unoptimizedIr("blur", {input, output}, {}, body).find("alloca [437 x float]"),
              std::string::npos);
    JitKernel kernel = compileKernel("blur", {input, output}, {}, body);
    std::vector<float> in = randomFloats((h + 2) * (w + 2), 5), out(h * w);
    kernel.run(pointers(in, out));
    expectNear(blurReference(in, h, w), out, 1e-6f);
}

TEST(LlvmCodegen, Blur2dWithHeapIntermediateMatchesReference) {
    const int h = 64, w = 80;
    Var input = bufferVar("input"), output = bufferVar("output");
    Stmt body = blur2d(input, output, h, w);
    LlvmCodegenOptions options;
    options.maxStackBytes = 1024; // blur_x (66*80 floats) goes to the heap
    std::string ir = printLlvmIr(CpuKernel{"blur_heap", {input, output}, {}, body},
                                 LlvmCodegenOptions{false, 1024});
    EXPECT_NE(ir.find("call i8* @bs_llvm_alloc(i64 21120)"), std::string::npos) << ir;
    EXPECT_NE(ir.find("call void @bs_llvm_free"), std::string::npos);
    JitKernel kernel = compileKernel("blur_heap", {input, output}, {}, body, options);
    std::vector<float> in = randomFloats((h + 2) * (w + 2), 6), out(h * w);
    for (int repeat = 0; repeat < 3; ++repeat) {
        kernel.run(pointers(in, out));
        expectNear(blurReference(in, h, w), out, 1e-6f);
    }
}

// ---------------------------------------------------------------------------------------------
// Vectors

class LlvmVectorWidth : public ::testing::TestWithParam<int> {};

TEST_P(LlvmVectorWidth, RampLoadsAndStoresMatchReference) {
    // C[ramp(o*L, 1, L)] = A[ramp(o*L, 1, L)] * x2(2f) + B[ramp(o*L, 1, L)], o < n / L.
    const int lanes = GetParam();
    Var a = bufferVar("A"), b = bufferVar("B"), c = bufferVar("C"), o("o"), n("n");
    DataType vector = f32.withLanes(lanes);
    Expr index = lanes == 1 ? Expr(o) : RampNode::make(o * lanes, 1, lanes);
    Expr two = lanes == 1 ? Expr(2.0f) : BroadcastNode::make(2.0f, lanes);
    Stmt body = loop(o, 0, floordiv(n, lanes),
                     store(c, load(a, index, vector) * two + load(b, index, vector), index));
    std::string ir = unoptimizedIr("axpb", {a, b, c}, {n}, body);
    if (lanes > 1) {
        std::string vectorType = "<" + std::to_string(lanes) + " x float>";
        EXPECT_NE(ir.find("load " + vectorType), std::string::npos) << ir;
        EXPECT_NE(ir.find("store " + vectorType), std::string::npos) << ir;
    }
    JitKernel kernel = compileKernel("axpb", {a, b, c}, {n}, body);
    const size_t size = 16 * 9;
    std::vector<float> av = randomFloats(size, 7), bv = randomFloats(size, 8), cv(size, 0.0f);
    kernel.run(pointers(av, bv, cv), {int64_t(size)});
    std::vector<float> expected(size);
    for (size_t i = 0; i < size; ++i)
        expected[i] = av[i] * 2.0f + bv[i];
    expectNear(expected, cv, 1e-6f);
}

INSTANTIATE_TEST_SUITE_P(Widths, LlvmVectorWidth, ::testing::Values(1, 4, 8, 16));

TEST(LlvmCodegen, VectorizedLoopBecomesVectorInstructions) {
    // for (i.outer, 0, 32) vectorized (i.inner, 0, 8): C[i.outer*8 + i.inner] = A[..] + 1f
    Var a = bufferVar("A"), c = bufferVar("C"), outer("i.outer"), inner("i.inner");
    Expr index = outer * 8 + inner;
    Stmt body =
        loop(outer, 0, 32,
             loop(inner, 0, 8, store(c, load(a, index) + Expr(1.0f), index), ForKind::Vectorized));
    std::string ir = unoptimizedIr("vadd", {a, c}, {}, body);
    EXPECT_NE(ir.find("load <8 x float>"), std::string::npos) << ir;
    EXPECT_NE(ir.find("fadd <8 x float>"), std::string::npos) << ir;
    JitKernel kernel = compileKernel("vadd", {a, c}, {}, body);
    std::vector<float> av = randomFloats(256, 9), cv(256);
    kernel.run(pointers(av, cv));
    for (size_t i = 0; i < 256; ++i)
        EXPECT_EQ(cv[i], av[i] + 1.0f);
}

TEST(LlvmCodegen, StridedAndPredicatedVectorAccessesMatchReference) {
    // C[ramp(8*o, 1, 8)] = A[ramp(16*o, 2, 8)] (a gather), stored only where lane < n % 8 in
    // the last vector (a masked store), as a split with a tail would.
    Var a = bufferVar("A"), c = bufferVar("C"), o("o"), n("n");
    Expr lanesIdx = RampNode::make(o * 8, 1, 8);
    Expr predicate = lanesIdx < BroadcastNode::make(n, 8);
    Expr gathered = LoadNode::make(f32.withLanes(8), a, RampNode::make(o * 16, 2, 8), predicate);
    Stmt body = loop(o, 0, floordiv(n + 7, 8), StoreNode::make(c, gathered, lanesIdx, predicate));
    std::string ir = unoptimizedIr("strided", {a, c}, {n}, body);
    EXPECT_NE(ir.find("@llvm.masked.gather.v8f32"), std::string::npos) << ir;
    EXPECT_NE(ir.find("@llvm.masked.store.v8f32"), std::string::npos) << ir;
    JitKernel kernel = compileKernel("strided", {a, c}, {n}, body);
    const int count = 21; // 3 vectors, the last with 5 lanes
    std::vector<float> av = randomFloats(2 * 24, 10), cv(24, -7.0f);
    kernel.run(pointers(av, cv), {count});
    for (int i = 0; i < 24; ++i)
        EXPECT_EQ(cv[i], i < count ? av[2 * i] : -7.0f) << "element " << i;
}

TEST(LlvmCodegen, UnrolledLoopIsUnrolledAndSymbolicOneGetsAHint) {
    Var a = bufferVar("A"), k("k"), n("n");
    Stmt constant = loop(k, 0, 4, store(a, cast(f32, k), k), ForKind::Unrolled);
    std::string ir = unoptimizedIr("unrolled", {a}, {}, constant);
    EXPECT_EQ(ir.find("for_header"), std::string::npos) << ir;
    EXPECT_NE(ir.find("store float 3.000000e+00"), std::string::npos) << ir;
    Stmt symbolic = loop(k, 0, n, store(a, cast(f32, k), k), ForKind::Unrolled);
    ir = unoptimizedIr("unroll_hint", {a}, {n}, symbolic);
    EXPECT_NE(ir.find("!\"llvm.loop.unroll.enable\""), std::string::npos) << ir;
    JitKernel kernel = compileKernel("unrolled", {a}, {}, constant);
    std::vector<float> av(4, 0.0f);
    kernel.run(pointers(av));
    EXPECT_EQ(av, (std::vector<float>{0, 1, 2, 3}));
}

TEST(LlvmCodegen, VirtualThreadRunsItsCopiesInTurn) {
    // // attr [iter_var(vthread, , vthread)] virtual_thread = 3
    // for (i, 0, 4) { A[vthread*4 + i] = float32(vthread*10 + i) }
    Var a = bufferVar("A"), i("i"), vt("vthread");
    IterVar thread(Range(), vt, IterVarType::ThreadIndex, "vthread");
    Stmt body = AttrStmtNode::make(thread, attr::kVirtualThread, 3,
                                   loop(i, 0, 4, store(a, cast(f32, vt * 10 + i), vt * 4 + i)));
    JitKernel kernel = compileKernel("vthread", {a}, {}, body);
    std::vector<float> av(12);
    kernel.run(pointers(av));
    for (int t = 0; t < 3; ++t)
        for (int x = 0; x < 4; ++x)
            EXPECT_EQ(av[t * 4 + x], float(t * 10 + x));
}

// ---------------------------------------------------------------------------------------------
// Scalars, control flow and calls

TEST(LlvmCodegen, SymbolicExtentsAreBoundAtCallTime) {
    // A 2-D copy with an offset: B[i*w + j] = A[(i + off)*w + j] for i < h, j < w.
    Var a = bufferVar("A"), b = bufferVar("B"), h("h"), w("w"), off("off", DataType::int64());
    Var i("i"), j("j");
    Expr source = cast(DataType::int32(), off) * w + i * w + j;
    Stmt body = loop(i, 0, h, loop(j, 0, w, store(b, load(a, source), i * w + j)));
    JitKernel kernel = compileKernel("copy2d", {a, b}, {h, w, off}, body);
    std::vector<float> av = randomFloats(100, 11);
    for (auto [hv, wv, offv] : {std::tuple{3, 5, 2}, std::tuple{9, 10, 0}, std::tuple{1, 1, 7}}) {
        std::vector<float> bv(hv * wv);
        kernel.run(pointers(av, bv), {hv, wv, offv});
        for (int x = 0; x < hv * wv; ++x)
            ASSERT_EQ(bv[x], av[offv * wv + x]) << hv << "x" << wv << " offset " << offv;
    }
}

TEST(LlvmCodegen, FloatAndBoolScalarArguments) {
    // A[i] = select(flip, -alpha, alpha) * A[i] with a float64 alpha cast to float32.
    Var a = bufferVar("A"), alpha("alpha", DataType::float64()), flip("flip", DataType::boolean());
    Var i("i");
    Expr scale = cast(f32, select(flip, -Expr(alpha), Expr(alpha)));
    Stmt body = loop(i, 0, 8, store(a, scale * load(a, i), i));
    JitKernel kernel = compileKernel("scale", {a}, {alpha, flip}, body);
    std::vector<float> av(8, 2.0f);
    kernel.run(pointers(av), {packFloatScalar(1.5), 0});
    EXPECT_EQ(av[7], 3.0f);
    kernel.run(pointers(av), {packFloatScalar(0.5), 1});
    EXPECT_EQ(av[0], -1.5f);
}

TEST(LlvmCodegen, LikelyConditionBecomesBranchWeights) {
    Var a = bufferVar("A"), i("i"), n("n");
    Stmt body =
        loop(i, 0, 16,
             IfThenElseNode::make(likely(i < n), store(a, Expr(1.0f), i), store(a, Expr(2.0f), i)));
    std::string ir = unoptimizedIr("guarded", {a}, {n}, body);
    EXPECT_NE(ir.find("!prof"), std::string::npos) << ir;
    EXPECT_NE(ir.find("i32 2000, i32 1"), std::string::npos) << ir;
    JitKernel kernel = compileKernel("guarded", {a}, {n}, body);
    std::vector<float> av(16);
    kernel.run(pointers(av), {10});
    for (int x = 0; x < 16; ++x)
        EXPECT_EQ(av[x], x < 10 ? 1.0f : 2.0f);
}

TEST(LlvmCodegen, IfThenElseIntrinsicOnlyLoadsTheChosenValue) {
    // Padding: B[i] = if_then_else(1 <= i && i <= n, A[i - 1], 0f) reads A only in bounds;
    // A is the last element of an allocation, so a read at -1 or n would be out of bounds.
    // Both spellings: TVM's te.if_then_else (and topi's padding) make `tvm_if_then_else`.
    for (const char* name : {"if_then_else", "tvm_if_then_else"}) {
        Var a = bufferVar("A"), b = bufferVar("B"), i("i"), n("n");
        Expr inside = Expr(1) <= i && i <= n;
        Expr padded =
            CallNode::make(f32, name, {inside, load(a, i - 1), Expr(0.0f)}, CallKind::Intrinsic);
        JitKernel kernel =
            compileKernel("pad", {a, b}, {n}, loop(i, 0, n + 2, store(b, padded, i)));
        std::vector<float> av = {1, 2, 3}, bv(5);
        kernel.run(pointers(av, bv), {3});
        EXPECT_EQ(bv, (std::vector<float>{0, 1, 2, 3, 0})) << name;
    }
}

TEST(LlvmCodegen, MathCallsMatchTheCLibrary) {
    Var a = bufferVar("A"), out = bufferVar("Out"), i("i");
    std::vector<std::string> names = {"exp", "tanh", "sqrt", "sigmoid", "floor", "log"};
    std::vector<Stmt> stores;
    for (size_t f = 0; f < names.size(); ++f)
        stores.push_back(store(out, mathCall(names[f], {load(a, i)}), int(f) * 64 + i));
    JitKernel kernel = compileKernel("math", {a, out}, {}, loop(i, 0, 64, seq(stores)));
    std::vector<float> av = randomFloats(64, 12), outv(64 * names.size());
    for (float& v : av)
        v = std::fabs(v) * 3.0f + 0.01f;
    kernel.run(pointers(av, outv));
    for (int x = 0; x < 64; ++x) {
        float v = av[x];
        float expected[] = {std::exp(v),   std::tanh(v), std::sqrt(v), 1.0f / (1.0f + std::exp(-v)),
                            std::floor(v), std::log(v)};
        for (size_t f = 0; f < names.size(); ++f)
            EXPECT_NEAR(outv[f * 64 + x], expected[f], 1e-5f * std::max(1.0f, expected[f]))
                << names[f] << "(" << v << ")";
    }
}

TEST(LlvmCodegen, FailedAssertStopsTheKernelWithItsMessage) {
    Var a = bufferVar("A"), n("n");
    Stmt body = AssertStmtNode::make(n <= 4, StringImmNode::make("n must be at most 4"),
                                     store(a, Expr(1.0f), 0));
    JitKernel kernel = compileKernel("checked", {a}, {n}, body);
    std::vector<float> av(1, 0.0f);
    kernel.run(pointers(av), {3});
    EXPECT_EQ(av[0], 1.0f);
    av[0] = 0.0f;
    try {
        kernel.run(pointers(av), {5});
        FAIL() << "expected the assert to fail";
    } catch (const UserError& error) {
        EXPECT_EQ(std::string(error.what()), "kernel 'checked' stopped: n must be at most 4");
    }
    EXPECT_EQ(av[0], 0.0f);
}

TEST(LlvmCodegen, TargetsTheHostCpuAndItsFeatures) {
    Var a = bufferVar("A"), b = bufferVar("B"), c = bufferVar("C"), n("n");
    LlvmModule module = generateLlvm(CpuKernel{"add", {a, b, c}, {n}, elementwiseAdd(a, b, c, n)});
    std::string ir = module.printLlvmIr();
    EXPECT_FALSE(module.cpuName().empty());
    EXPECT_NE(ir.find("\"target-cpu\"=\"" + module.cpuName() + "\""), std::string::npos);
    EXPECT_NE(ir.find("define i32 @add(i8**"), std::string::npos) << ir;
    if (__builtin_cpu_supports("avx512f")) {
        EXPECT_NE(ir.find("+avx512f"), std::string::npos);
    }
    // The O3 pipeline vectorized the serial loop for the host.
    EXPECT_NE(ir.find("x float>"), std::string::npos) << ir;
}
