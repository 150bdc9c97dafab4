// Parallel loops: outlined into closures, run on runtime/ThreadPool, with the values they
// capture (buffers, scalars, lets), their own allocations and their failures.
#include "LlvmTestUtil.h"

#include "runtime/ThreadPool.h"

#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <thread>

using namespace bs;
using namespace bs::test;

namespace {

const DataType f32 = DataType::float32();

std::mutex gThreadsMutex;
std::set<std::thread::id> gThreads;

/// Called by the kernels below (an extern call): records the thread running the iteration.
int32_t bsTestRecordThread(int32_t iteration) {
    std::lock_guard lock(gThreadsMutex);
    gThreads.insert(std::this_thread::get_id());
    return iteration;
}

Expr recordThread(const Expr& iteration) {
    return CallNode::make(DataType::int32(), "bsTestRecordThread", {iteration}, CallKind::Extern);
}

LlvmJit& jitWithRecorder() {
    static bool defined = [] {
        testJit().defineSymbol("bsTestRecordThread", reinterpret_cast<void*>(&bsTestRecordThread));
        return true;
    }();
    (void)defined;
    return testJit();
}

} // namespace

TEST(LlvmParallel, ParallelLoopMatchesReferenceAndUsesEveryThread) {
    // parallel (i, 0, n) { C[i] = A[i]*2f + float32(record(i) - i) }
    Var a = bufferVar("A"), c = bufferVar("C"), i("i"), n("n");
    Expr recorded = cast(f32, recordThread(i) - i);
    Stmt body = loop(i, 0, n, store(c, load(a, i) * Expr(2.0f) + recorded, i), ForKind::Parallel);
    std::string ir = unoptimizedIr("par", {a, c}, {n}, body);
    EXPECT_NE(ir.find("call i32 @bs_llvm_parallel_for(i32 (i64, i64, i8*)* @par_parallel_0"),
              std::string::npos)
        << ir;
    EXPECT_NE(ir.find("define internal i32 @par_parallel_0_body(i64 %0, i64 %1, i8* noalias %A"),
              std::string::npos)
        << ir;

    JitKernel kernel = jitWithRecorder().compile(CpuKernel{"par", {a, c}, {n}, body});
    const int count = 1000;
    std::vector<float> av = randomFloats(count, 21), cv(count);
    gThreads.clear();
    kernel.run(pointers(av, cv), {count});
    for (int x = 0; x < count; ++x)
        ASSERT_EQ(cv[x], av[x] * 2.0f) << "element " << x;
    unsigned threads = ThreadPool::global().threadCount();
    EXPECT_EQ(gThreads.size(), size_t(threads));
    EXPECT_EQ(ThreadPool::global().lastChunkCount(), threads);
    if (std::thread::hardware_concurrency() > 1) {
        EXPECT_GT(gThreads.size(), 1u);
    }
}

TEST(LlvmParallel, NestedParallelLoopRunsInsideItsChunk) {
    Var c = bufferVar("C"), i("i"), j("j");
    Stmt inner = loop(j, 0, 8, store(c, cast(f32, i * 8 + j), i * 8 + j), ForKind::Parallel);
    JitKernel kernel = compileKernel("nested", {c}, {}, loop(i, 0, 5, inner, ForKind::Parallel));
    std::vector<float> cv(40, -1.0f);
    kernel.run(pointers(cv));
    for (int x = 0; x < 40; ++x)
        ASSERT_EQ(cv[x], float(x));
}

TEST(LlvmParallel, ClosureCapturesLetsScalarsAndOuterAllocations) {
    // let scale = float32(n)
    // allocate T[float32 * 16]  (outer, shared)       T[k] = k for k < 16
    // parallel (i, 0, 64) {
    //   allocate U[float32 * 4096] (inner, on the heap: per chunk)  U[0] = T[i % 16]
    //   C[i] = U[0] * scale
    // }
    Var c = bufferVar("C"), t = bufferVar("T"), u = bufferVar("U"), i("i"), k("k"), n("n");
    Var scale("scale", f32);
    Stmt inner = AllocateNode::make(
        u, f32, {Expr(4096)}, Expr(),
        seq({store(u, load(t, floormod(i, 16)), 0), store(c, load(u, 0) * scale, i)}));
    Stmt body =
        LetStmtNode::make(scale, cast(f32, n),
                          AllocateNode::make(t, f32, {Expr(16)}, Expr(),
                                             seq({loop(k, 0, 16, store(t, cast(f32, k), k)),
                                                  loop(i, 0, 64, inner, ForKind::Parallel)})));
    LlvmCodegenOptions options;
    options.maxStackBytes = 1024;
    JitKernel kernel = compileKernel("captures", {c}, {n}, body, options);
    std::vector<float> cv(64);
    kernel.run(pointers(cv), {3});
    for (int x = 0; x < 64; ++x)
        ASSERT_EQ(cv[x], float(x % 16) * 3.0f) << "element " << x;
}

TEST(LlvmParallel, FailedAssertInsideAChunkStopsTheKernel) {
    Var c = bufferVar("C"), i("i"), limit("limit");
    Stmt checked = AssertStmtNode::make(i < limit, StringImmNode::make("i reached the limit"),
                                        store(c, Expr(1.0f), i));
    JitKernel kernel =
        compileKernel("par_assert", {c}, {limit}, loop(i, 0, 100, checked, ForKind::Parallel));
    std::vector<float> cv(100, 0.0f);
    kernel.run(pointers(cv), {100});
    EXPECT_EQ(cv[99], 1.0f);
    try {
        kernel.run(pointers(cv), {50});
        FAIL() << "expected the assert to fail";
    } catch (const UserError& error) {
        EXPECT_EQ(std::string(error.what()), "kernel 'par_assert' stopped: i reached the limit");
    }
}
