// runKernel (issue 6): schedules built as the examples build them, run on the CPU (LLVM JIT) and
// in the GPU emulation, timed and checked against the interpreter or the unscheduled program.
#include "run/RunKernel.h"

#include "lower/ThreadSync.h"
#include "run/RunInternal.h"

#include "ir/Op.h"
#include "runtime/CudaRuntime.h"
#include "support/Cancellation.h"
#include "te/Compute.h"
#include "te/Operation.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

Expr f32(double v) { return makeConst(DataType::float32(), v); }

IterVar axis(const Tensor& t, size_t i) { return t.op.as<ComputeOpNode>()->axis[i]; }

/// C = A x B, n x n x n float32, the TVM CPU tutorial's blocking: tiled, k split and unrolled,
/// the inner columns vectorized, the outer rows parallel.
struct Matmul {
    int n;
    Tensor a, b, c;
    IterVar k;
    Schedule s;

    explicit Matmul(int size, bool scheduled = true) : n(size) {
        a = placeholder({n, n}, DataType::float32(), "A");
        b = placeholder({n, n}, DataType::float32(), "B");
        k = reduceAxis(Range(0, n), "k");
        c = compute(
            {n, n},
            [&](const std::vector<Var>& v) {
                return sum(a({v[0], k}) * b({k, v[1]}), k);
            },
            "C");
        s = createSchedule(c.op);
        if (!scheduled)
            return;
        TileResult tile = s[c].tile(axis(c, 0), axis(c, 1), 16, 16);
        auto [ko, ki] = s[c].split(k, 4);
        s[c].reorder({tile.xOuter, tile.yOuter, ko, ki, tile.xInner, tile.yInner});
        s[c].vectorize(tile.yInner);
        s[c].unroll(ki);
        s[c].parallel(tile.xOuter);
    }
    LowerResult lowered() const { return lower(s, {a, b, c}); }
};

/// Seed 002's Ex. 6 with a neighbour read: C[i, j] = B[i, j] + B[i, j + 1], B in shared memory
/// per block, so threads read elements other threads wrote (a barrier is needed).
LowerResult sharedNeighbourKernel() {
    Tensor a = placeholder({64, 33}, DataType::float32(), "A");
    Tensor b = compute(
        {64, 33},
        [&](const std::vector<Var>& v) {
            return f32(3.0) * a({v[0], v[1]});
        },
        "B");
    Tensor c = compute(
        {64, 32},
        [&](const std::vector<Var>& v) {
            return b({v[0], v[1]}) + b({v[0], v[1] + 1});
        },
        "C");
    Schedule s = createSchedule(c.op);
    IterVar blockX = threadAxis("blockIdx.x"), threadX = threadAxis("threadIdx.x");
    s[c].bind(axis(c, 0), blockX);
    s[c].bind(axis(c, 1), threadX);
    s[b].setScope("shared");
    s[b].computeAt(s[c], axis(c, 0));
    auto [outer, inner] = s[b].split(axis(b, 1), 32);
    s[b].bind(inner, threadX);
    return lower(s, {a, c});
}

/// B = A * 2 + 1 over n (symbolic), split by 8, vectorized and parallel.
LowerResult symbolicKernel() {
    Var n = sizeVar("n");
    Tensor a = placeholder({n}, DataType::float32(), "A");
    Tensor b = compute(
        {n}, [&](const std::vector<Var>& v) { return a({v[0]}) * f32(2.0) + f32(1.0); }, "B");
    Schedule s = createSchedule(b.op);
    auto [outer, inner] = s[b].split(axis(b, 0), 8);
    s[b].vectorize(inner);
    s[b].parallel(outer);
    return lower(s, {a, b});
}

/// A request for `repeat` timed runs on `target`; tests change the other fields as they need.
RunRequest request(int repeat, RunTarget target = RunTarget::Cpu) {
    RunRequest r;
    r.repeat = repeat;
    r.target = target;
    return r;
}

RunRequest withSizes(RunRequest r, std::map<std::string, int64_t> sizes) {
    r.sizes = std::move(sizes);
    return r;
}

RunRequest withCheckLimit(RunRequest r, int64_t limit) {
    r.interpreterCheckLimit = limit;
    return r;
}

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const UserError& e) {
        return e.what();
    }
    return "no error";
}

#define SKIP_WITHOUT_LLVM()                                                                        \
    if (!runHasLlvm())                                                                             \
    GTEST_SKIP() << "built without LLVM"

} // namespace

TEST(RunKernel, TargetNamesRoundTrip) {
    for (RunTarget t : {RunTarget::Cpu, RunTarget::Cuda, RunTarget::Emulate})
        EXPECT_EQ(parseRunTarget(runTargetName(t)), t);
    EXPECT_FALSE(parseRunTarget("tpu").has_value());
}

TEST(RunKernel, CpuMatmulIsTimedAndPassesTheInterpreterCheck) {
    SKIP_WITHOUT_LLVM();
    RunReport report = runKernel(Matmul(64).lowered(), request(3));
    EXPECT_EQ(report.timesMs.size(), 3u);
    EXPECT_GT(report.bestMs, 0);
    EXPECT_LE(report.bestMs, report.medianMs);
    EXPECT_GE(report.spread, 0);
    EXPECT_GT(report.compileMs, 0);
    EXPECT_NE(report.device.find("LLVM JIT"), std::string::npos) << report.device;
    EXPECT_EQ(report.flops, 2 * 64 * 64 * 64);
    EXPECT_EQ(report.bytes, 3 * 64 * 64 * 4);
    EXPECT_NEAR(report.gflops, report.flops / (report.bestMs * 1e6), 1e-9);
    EXPECT_TRUE(report.checked);
    EXPECT_TRUE(report.passed) << report.checkDetail;
    EXPECT_EQ(report.reference, "interpreter");
    EXPECT_NE(report.checkDetail.find("C: max abs error"), std::string::npos) << report.checkDetail;
}

TEST(RunKernel, LargeWorkIsCheckedAgainstTheUnscheduledProgram) {
    SKIP_WITHOUT_LLVM();
    RunReport report = runKernel(Matmul(128).lowered(), withCheckLimit(request(1), 1000));
    EXPECT_EQ(report.reference, "unscheduled program (LLVM JIT)");
    EXPECT_TRUE(report.passed) << report.checkDetail;
}

TEST(RunKernel, WrongKernelFailsTheCheckWithTheFirstMismatch) {
    SKIP_WITHOUT_LLVM();
    // The lowered code of D = A + 2 passed off as C = A + 1: the unscheduled C differs.
    Tensor a = placeholder({40}, DataType::float32(), "A");
    Tensor c = compute(
        {40}, [&](const std::vector<Var>& v) { return a({v[0]}) + f32(1.0); }, "C");
    Tensor d = compute(
        {40}, [&](const std::vector<Var>& v) { return a({v[0]}) + f32(2.0); }, "D");
    LowerResult wrong = lower(createSchedule(d.op), {a, d});
    wrong.func.args = {a, c};
    RunReport report = runKernel(wrong, withCheckLimit(request(1), 0));
    EXPECT_TRUE(report.checked);
    EXPECT_FALSE(report.passed);
    EXPECT_NE(report.checkDetail.find("first mismatch C[0]"), std::string::npos)
        << report.checkDetail;
    EXPECT_NE(report.checkDetail.find("max abs error 1"), std::string::npos) << report.checkDetail;
}

TEST(RunKernel, WithoutCheckNothingIsCompared) {
    SKIP_WITHOUT_LLVM();
    RunRequest noCheck = request(2);
    noCheck.check = false;
    RunReport report = runKernel(Matmul(32).lowered(), noCheck);
    EXPECT_FALSE(report.checked);
    EXPECT_TRUE(report.reference.empty());
    EXPECT_EQ(report.timesMs.size(), 2u);
}

TEST(RunKernel, SymbolicSizesGetTheDefaultOrTheGivenValue) {
    SKIP_WITHOUT_LLVM();
    LowerResult lowered = symbolicKernel();
    RunReport byDefault = runKernel(lowered, request(1));
    ASSERT_EQ(byDefault.sizes.size(), 1u);
    EXPECT_EQ(byDefault.sizes[0], std::make_pair(std::string("n"), kDefaultSymbolicSize));
    EXPECT_EQ(byDefault.bytes, 2 * kDefaultSymbolicSize * 4);
    EXPECT_TRUE(byDefault.passed) << byDefault.checkDetail;
    for (int64_t n : {1, 37, 1000}) {
        RunReport report = runKernel(lowered, withSizes(request(1), {{"n", n}}));
        EXPECT_EQ(report.sizes[0].second, n);
        EXPECT_EQ(report.flops, 2 * n);
        EXPECT_TRUE(report.passed) << n << ": " << report.checkDetail;
    }
}

TEST(RunKernel, BadSizeBindingsAreUserErrors) {
    LowerResult lowered = symbolicKernel();
    EXPECT_EQ(errorOf([&] {
                  runKernel(lowered, withSizes(request(1), {{"m", 4}}));
              }),
              "size 'm' names no symbolic size of 'main' (it has n)");
    EXPECT_EQ(errorOf([&] {
                  runKernel(lowered, withSizes(request(1), {{"n", 0}}));
              }),
              "size 'n' must be positive, got 0");
    EXPECT_EQ(errorOf([&] { runKernel(lowered, request(0)); }),
              "the number of timed runs must be at least 1, got 0");
}

TEST(RunKernel, ArgumentsLargerThanTheMachinesMemoryAreRefusedBeforeAllocating) {
    // n x n float32 with n = 2^20: 4 TiB per argument, 24 TiB in the three copies of a run.
    Var n = sizeVar("n");
    Tensor a = placeholder({n, n}, DataType::float32(), "A");
    Tensor b = compute(
        {n, n},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * f32(2.0);
        },
        "B");
    Schedule s = createSchedule(b.op);
    LowerResult lowered = lower(s, {a, b});
    std::string error = errorOf([&] {
        runKernel(lowered, withSizes(request(1), {{"n", int64_t(1) << 20}}));
    });
    EXPECT_NE(error.find("running 'main' needs 24 TiB (the three copies of its arguments"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("the largest is A (1048576 x 1048576 float32, 4 TiB)"), std::string::npos)
        << error;
    EXPECT_NE(error.find("run smaller shapes (give symbolic sizes smaller values)"),
              std::string::npos)
        << error;
}

TEST(RunKernel, SizesTheirTypeCannotHoldAreRefused) {
    EXPECT_EQ(errorOf([&] {
                  runKernel(symbolicKernel(), withSizes(request(1), {{"n", int64_t(1) << 40}}));
              }),
              "size 'n' is int32, which cannot hold 1099511627776");
}

TEST(RunKernel, EmulationRunsASharedMemoryKernelWithItsBarriers) {
    RunReport report = runKernel(sharedNeighbourKernel(), request(1, RunTarget::Emulate));
    EXPECT_TRUE(report.passed) << report.checkDetail;
    if (!runHasLlvm()) {
        EXPECT_EQ(report.device, "interpreter (GPU emulation)");
        EXPECT_EQ(report.reference, "unscheduled program (interpreter)");
        EXPECT_EQ(report.compileMs, 0);
        return;
    }
    // Compiled for the CPU (lower/GpuOnCpu.h), so the interpreter running the same program is
    // the reference.
    EXPECT_NE(report.device.find(" (GPU emulation compiled by LLVM, "), std::string::npos)
        << report.device;
    EXPECT_EQ(report.reference, "interpreter");
    EXPECT_GT(report.compileMs, 0);
}

TEST(RunKernel, EmulationInterpretsWhatTheCpuRewriteRefusesAndSaysWhy) {
    // A barrier under a condition on the thread: no loop fission can express it. The
    // interpreter runs it (and finds the divergence).
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = placeholder({8}, DataType::float32(), "B");
    Var aData("A", DataType::handle()), bData("B", DataType::handle());
    IterVar tx(Range(), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x");
    Stmt body = AttrStmtNode::make(
        tx, attr::kThreadExtent, makeConst(DataType::int32(), int64_t(8)),
        IfThenElseNode::make(
            tx->var < makeConst(DataType::int32(), int64_t(4)),
            SeqNode::make(
                {makeStorageSync("shared"),
                 StoreNode::make(bData, LoadNode::make(DataType::float32(), aData, tx->var),
                                 tx->var)})));
    LoweredFunc func;
    func.args = {a, b};
    func.argBuffers = {aData, bData};
    func.final = func.device = body;
    std::unique_ptr<run_detail::Executor> executor = run_detail::makeEmulationExecutor(func, {});
    EXPECT_TRUE(executor->interpreted);
    if (runHasLlvm()) {
        EXPECT_EQ(executor->device,
                  "interpreter (GPU emulation); not compiled: kernel 'main_kernel0': a "
                  "barrier under a condition that differs between the threads of a "
                  "block ((threadIdx.x < 4))");
    }
    std::vector<Buffer> args = run_detail::makeArgumentBuffers(func, {}, 1);
    EXPECT_NE(
        errorOf([&] { executor->run(args, 0, 0); }).find("a barrier in divergent control flow"),
        std::string::npos);
}

TEST(RunKernel, TargetsThatDoNotFitTheScheduleSaySo) {
    EXPECT_NE(errorOf([] { runKernel(sharedNeighbourKernel()); })
                  .find("binds loops to GPU threads (blockIdx/threadIdx), so it cannot run on the "
                        "CPU target; run it on the cuda target"),
              std::string::npos);
    EXPECT_NE(errorOf([] {
                  runKernel(Matmul(16).lowered(), request(1, RunTarget::Cuda));
              }).find("binds no loop to a GPU thread"),
              std::string::npos);
    EXPECT_NE(
        errorOf([] { printKernelCudaSource(Matmul(16).lowered()); }).find("the cpu target runs it"),
        std::string::npos);
    EXPECT_NE(errorOf([] {
                  printKernelLlvmIr(sharedNeighbourKernel());
              }).find("run it on the cuda target, or on the emulate target"),
              std::string::npos);
}

/// B = A + 1 over 64 x `columns`, rows on blockIdx.x and the columns split by `factor`, the
/// inner part on threadIdx.x and the outer on threadIdx.y.
LowerResult blockKernel(int columns, int factor) {
    Tensor a = placeholder({64, columns}, DataType::float32(), "A");
    Tensor b = compute(
        {64, columns},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) + f32(1.0);
        },
        "B");
    Schedule s = createSchedule(b.op);
    auto [outer, inner] = s[b].split(axis(b, 1), factor);
    s[b].bind(axis(b, 0), threadAxis("blockIdx.x"));
    s[b].bind(outer, threadAxis("threadIdx.y"));
    s[b].bind(inner, threadAxis("threadIdx.x"));
    return lower(s, {a, b});
}

TEST(RunKernel, ABlockLargerThanCudaLaunchesIsRefusedAtItsBind) {
    // 2,048 threads along x: more than CUDA's 1,024 along one axis.
    std::string wide =
        errorOf([] { runKernel(blockKernel(2048, 2048), request(1, RunTarget::Emulate)); });
    EXPECT_NE(wide.find("stage 'B' runs in a thread block of 2048 threads (threadIdx.x 2048, "
                        "threadIdx.y 1); CUDA launches at most 1024 threads along threadIdx.x"),
              std::string::npos)
        << wide;
    // 64 x 32 = 2,048 threads: each axis fits, the block does not.
    std::string many =
        errorOf([] { runKernel(blockKernel(2048, 32), request(1, RunTarget::Emulate)); });
    EXPECT_NE(many.find("stage 'B' runs in a thread block of 2048 threads (threadIdx.x 32, "
                        "threadIdx.y 64); CUDA launches at most 1024 threads in a block"),
              std::string::npos)
        << many;
    try {
        runKernel(blockKernel(2048, 32), request(1, RunTarget::Cuda));
        FAIL() << "the cuda target ran an oversized block";
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().subject.kind, "block-too-large");
        EXPECT_EQ(e.diagnostic().subject.stage, "B");
        EXPECT_NE(e.diagnostic().fix.find("split"), std::string::npos) << e.diagnostic().fix;
    }
    // The block is the kernel's: here each stage binds fewer than 1,024 threads, B 64 along y
    // and C 32 along x, but they share one kernel, launched 32 x 64.
    std::string shared = errorOf([] {
        Tensor a = placeholder({64, 64}, DataType::float32(), "A");
        Tensor b = compute(
            {64, 64},
            [&](const std::vector<Var>& v) {
                return a({v[0], v[1]}) * f32(2.0);
            },
            "B");
        Tensor c = compute(
            {64, 64},
            [&](const std::vector<Var>& v) {
                return b({v[0], v[1]}) + f32(1.0);
            },
            "C");
        Schedule s = createSchedule(c.op);
        auto [outer, inner] = s[c].split(axis(c, 1), 32);
        s[c].bind(axis(c, 0), threadAxis("blockIdx.x"));
        s[c].bind(inner, threadAxis("threadIdx.x"));
        s[b].setScope("shared");
        s[b].computeAt(s[c], axis(c, 0));
        s[b].bind(axis(b, 1), threadAxis("threadIdx.y"));
        runKernel(lower(s, {a, c}), request(1, RunTarget::Emulate));
    });
    EXPECT_NE(shared.find("stage 'B' runs in a thread block of 2048 threads (threadIdx.x 32, "
                          "threadIdx.y 64); CUDA launches at most 1024 threads in a block"),
              std::string::npos)
        << shared;
    // A symbolic extent is the run's size.
    auto symbolic = [] {
        Var n = sizeVar("n");
        Tensor a = placeholder({64, n}, DataType::float32(), "A");
        Tensor b = compute(
            {64, n},
            [&](const std::vector<Var>& v) {
                return a({v[0], v[1]}) + f32(1.0);
            },
            "B");
        Schedule s = createSchedule(b.op);
        s[b].bind(axis(b, 0), threadAxis("blockIdx.x"));
        s[b].bind(axis(b, 1), threadAxis("threadIdx.x"));
        return lower(s, {a, b});
    };
    EXPECT_NE(errorOf([&] {
                  runKernel(symbolic(), withSizes(request(1, RunTarget::Emulate), {{"n", 2048}}));
              }).find("a thread block of 2048 threads (threadIdx.x 2048)"),
              std::string::npos);
    RunReport symbolicFits =
        runKernel(symbolic(), withSizes(request(1, RunTarget::Emulate), {{"n", 100}}));
    EXPECT_TRUE(symbolicFits.checked && symbolicFits.passed) << symbolicFits.checkDetail;
    // The source of an oversized kernel is still there to read, and a block that fits runs.
    EXPECT_NE(printKernelCudaSource(blockKernel(2048, 32)).find("threadIdx.y"), std::string::npos);
    RunReport fits = runKernel(blockKernel(1024, 32), request(1, RunTarget::Emulate));
    EXPECT_TRUE(fits.checked && fits.passed) << fits.checkDetail;
}

TEST(RunKernel, CudaTargetWithoutAGpuSaysSo) {
    std::string reason;
    if (CudaRuntime::isAvailable(&reason))
        GTEST_SKIP() << "a GPU is available";
    std::string error =
        errorOf([] { runKernel(sharedNeighbourKernel(), request(1, RunTarget::Cuda)); });
    EXPECT_NE(error.find("the cuda target needs"), std::string::npos) << error;
}

TEST(RunKernel, CudaTargetRunsAndPassesOnAGpu) {
    if (!CudaRuntime::isAvailable())
        GTEST_SKIP() << "no GPU";
    RunReport report = runKernel(sharedNeighbourKernel(), request(3, RunTarget::Cuda));
    EXPECT_EQ(report.timesMs.size(), 3u);
    EXPECT_NE(report.device.find("CUDA"), std::string::npos);
    EXPECT_TRUE(report.passed) << report.checkDetail;
}

TEST(RunKernel, GeneratedSourcesForEachTarget) {
    EXPECT_NE(printKernelCudaSource(sharedNeighbourKernel()).find("__shared__ float B["),
              std::string::npos);
    if (runHasLlvm())
        EXPECT_NE(printKernelLlvmIr(Matmul(16).lowered()).find("define"), std::string::npos);
    else
        EXPECT_NE(errorOf([] { printKernelLlvmIr(Matmul(16).lowered()); }).find("no LLVM"),
                  std::string::npos);
}

TEST(RunKernel, WorkCountsFloatOperationsTimesIterations) {
    // softmax-like: exp and a division per element, a max and a sum reduction per row.
    Tensor x = placeholder({8, 16}, DataType::float32(), "X");
    IterVar k1 = reduceAxis(Range(0, 16), "k1");
    Tensor e = compute(
        {8, 16},
        [&](const std::vector<Var>& v) {
            return CallNode::make(DataType::float32(), "exp", {x({v[0], v[1]})},
                                  CallKind::PureExtern);
        },
        "E");
    Tensor s = compute(
        {8},
        [&](const std::vector<Var>& v) {
            return sum(e({v[0], k1}), k1);
        },
        "S");
    Tensor y = compute(
        {8, 16},
        [&](const std::vector<Var>& v) {
            return e({v[0], v[1]}) / s({v[0]});
        },
        "Y");
    LowerResult lowered = lower(createSchedule(y.op), {x, y});
    WorkCount work = countWork(lowered.func, {});
    EXPECT_EQ(work.iterations, 8 * 16 + 8 * 16 + 8 * 16);
    EXPECT_EQ(work.flops, 8 * 16 * 1 + 8 * 16 * 1 + 8 * 16 * 1);
    EXPECT_EQ(work.bytes, 2 * 8 * 16 * 4);
}

TEST(RunKernel, TolerancesPerElementType) {
    EXPECT_EQ(checkTolerance(DataType::float32()), std::make_pair(1e-4, 1e-5));
    EXPECT_EQ(checkTolerance(DataType::float64()), std::make_pair(1e-9, 1e-12));
    EXPECT_EQ(checkTolerance(DataType::int32()), std::make_pair(0.0, 0.0));
}

TEST(RunKernel, IntegerKernelsMustMatchExactly) {
    SKIP_WITHOUT_LLVM();
    Tensor a = placeholder({100}, DataType::int32(), "A");
    Tensor b = compute(
        {100}, [&](const std::vector<Var>& v) { return floordiv(a({v[0]}) * 7, Expr(3)); }, "B");
    Schedule s = createSchedule(b.op);
    auto [outer, inner] = s[b].split(axis(b, 0), 16);
    s[b].vectorize(inner);
    RunReport report = runKernel(lower(s, {a, b}), request(1));
    EXPECT_TRUE(report.passed) << report.checkDetail;
    EXPECT_EQ(report.flops, 0);
    EXPECT_NE(report.checkDetail.find("B: max abs error 0"), std::string::npos)
        << report.checkDetail;
}

TEST(RunKernel, TimedRunsStopOnceTheTimeBudgetIsSpent) {
    RunRequest slow = request(5, RunTarget::Emulate);
    slow.check = false;
    slow.timeBudgetMs = 0;
    EXPECT_EQ(runKernel(sharedNeighbourKernel(), slow).timesMs.size(), 1u);
    slow.timeBudgetMs = 1e9;
    EXPECT_EQ(runKernel(sharedNeighbourKernel(), slow).timesMs.size(), 5u);
}

TEST(RunKernel, OutputElementsTheKernelNeverWritesFailTheCheck) {
    SKIP_WITHOUT_LLVM();
    // The code of a 20-element C run on a 40-element C: the interpreter, running the same code,
    // leaves the same elements unwritten, and they must still show.
    Tensor a = placeholder({40}, DataType::float32(), "A");
    Tensor half = compute(
        {20}, [&](const std::vector<Var>& v) { return a({v[0]}) + f32(1.0); }, "C");
    Tensor c = compute(
        {40}, [&](const std::vector<Var>& v) { return a({v[0]}) + f32(1.0); }, "C");
    LowerResult partial = lower(createSchedule(half.op), {a, half});
    partial.func.args = {a, c};
    RunReport report = runKernel(partial, request(1));
    EXPECT_EQ(report.reference, "interpreter");
    EXPECT_FALSE(report.passed);
    EXPECT_NE(report.checkDetail.find("first mismatch C[20]"), std::string::npos)
        << report.checkDetail;
}

TEST(RunKernel, CodeTheBackendCannotCompileIsAUserErrorNotACrash) {
    SKIP_WITHOUT_LLVM();
    LowerResult lowered = Matmul(8).lowered();
    lowered.func.final = EvaluateNode::make(
        CallNode::make(DataType::float32(), "no_such_intrinsic", {f32(1.0)}, CallKind::Intrinsic));
    EXPECT_NE(errorOf([&] {
                  runKernel(lowered, request(1));
              }).find("unknown intrinsic 'no_such_intrinsic'"),
              std::string::npos);
    // The process's JIT still compiles and runs the next kernel.
    EXPECT_TRUE(runKernel(Matmul(8).lowered(), request(1)).passed);
}

TEST(RunKernel, ACancelledRunStopsAndProgressCountsTheRuns) {
    LowerResult lowered = symbolicKernel();
    RunRequest r = request(3, RunTarget::Emulate);
    r.check = false;
    std::vector<std::pair<int, int>> seen;
    r.progress = [&seen](int done, int total) { seen.emplace_back(done, total); };
    runKernel(lowered, r);
    EXPECT_EQ(seen, (std::vector<std::pair<int, int>>{{1, 3}, {2, 3}, {3, 3}}));
    std::atomic<bool> cancelled{true};
    CancellationScope scope(&cancelled);
    EXPECT_THROW(runKernel(lowered, r), Cancelled);
}

TEST(RunKernel, WarpMemoryIsOneBufferPerGroupOfThreadIdxXLanes) {
    // A warp-scope cache read by each lane's neighbours, 16 lanes in threadIdx.x and 8 rows in
    // threadIdx.y: each row has its own buffer (TVM's LowerWarpMemory groups threadIdx.x's
    // lanes), not each 32-thread warp, where two rows would overwrite each other. Checked
    // against the unscheduled program, compiled and interpreted alike.
    constexpr int kLanes = 16, kRows = 8, kBlocks = 6, m = kLanes * kRows * kBlocks;
    Tensor a = placeholder({m}, DataType::float32(), "A");
    Tensor b = compute(
        {m},
        [&](const std::vector<Var>& v) {
            Expr base = floordiv(v[0], kLanes) * kLanes;
            return a({v[0]}) * a({base + floormod(v[0] + 3, kLanes)}) -
                   a({base + floormod(v[0] + 7, kLanes)});
        },
        "B");
    Schedule s = createSchedule(b.op);
    Tensor aa = s.cacheRead(a, "warp", {b.op});
    auto [xo, xi] = s[b].split(axis(b, 0), kLanes * kRows);
    auto [row, lane] = s[b].split(xi, kLanes);
    IterVar tx = threadAxis("threadIdx.x");
    s[b].bind(lane, tx);
    s[b].bind(row, threadAxis("threadIdx.y"));
    s[b].bind(xo, threadAxis("blockIdx.x"));
    s[aa].computeAt(s[b], row);
    s[aa].bind(axis(aa, 0), tx);
    LowerResult lowered = lower(s, {a, b});
    RunRequest r = request(1, RunTarget::Emulate);
    r.interpreterCheckLimit = 0; // against the unscheduled program
    RunReport report = runKernel(lowered, r);
    EXPECT_TRUE(report.passed) << report.device << ": " << report.checkDetail;
    // The interpreter gives the compiled emulation's result.
    std::vector<Buffer> compiled = run_detail::makeArgumentBuffers(lowered.func, {}, 7);
    std::vector<Buffer> interpreted = compiled;
    run_detail::makeEmulationExecutor(lowered.func, {})->run(compiled, 0, 0);
    run_detail::makeInterpreterExecutor(lowered.func, {})->run(interpreted, 0, 0);
    std::string mismatch;
    EXPECT_TRUE(Buffer::allClose(interpreted[1], compiled[1], 1e-5, 1e-6, &mismatch)) << mismatch;
}
