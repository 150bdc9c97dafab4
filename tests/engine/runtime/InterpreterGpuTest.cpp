/// GPU emulation: thread_extent nests run as CUDA would run them, block after block with every
/// thread of a block, shared memory per block, local memory per thread, barriers honoured.
#include "RuntimeTestUtil.h"

#include "runtime/Interpreter.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace bs;
using namespace bs::test;

namespace {

struct Axes {
    IterVar bx = threadAxis("blockIdx.x");
    IterVar by = threadAxis("blockIdx.y");
    IterVar tx = threadAxis("threadIdx.x");
    IterVar ty = threadAxis("threadIdx.y");
};

std::string errorOf(Interpreter& interp, const Stmt& body) {
    try {
        interp.run(body);
    } catch (const UserError& e) {
        return e.what();
    }
    return "";
}

/// Two blocks of 32 threads reverse their slice of A through shared memory:
/// S[tx] = A[bx*32 + tx]; (barrier); C[bx*32 + tx] = S[31 - tx].
Stmt reverseThroughShared(const Axes& ax, const Var& a, const Var& s, const Var& c, bool sync) {
    Expr bx = ax.bx->var, tx = ax.tx->var;
    std::vector<Stmt> steps = {store(s, load(a, bx * 32 + tx), tx)};
    if (sync)
        steps.push_back(barrier());
    steps.push_back(store(c, load(s, Expr(31) - tx), bx * 32 + tx));
    Stmt threads = threadExtent(ax.tx, 32, seq(steps));
    return threadExtent(ax.bx, 2, allocate(s, DataType::float32(), 32, threads, "shared"));
}

} // namespace

TEST(InterpreterGpu, EveryThreadOfEveryBlockRuns) {
    Axes ax;
    Var a = bufferVar("A"), c = bufferVar("C");
    Expr index = Expr(ax.bx->var) * 8 + ax.tx->var;
    Stmt body = threadExtent(ax.bx, 4,
                             threadExtent(ax.tx, 8, store(c, load(a, index) * Expr(2.0f), index)));
    Buffer bufA = iotaBuffer("A", 32);
    Buffer bufC("C", DataType::float32(), {32});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    for (int64_t k = 0; k < 32; ++k)
        ASSERT_EQ(bufC.getDouble(k), 2.0 * double(k)) << k;
    EXPECT_EQ(result.kernelLaunches, 1);
}

TEST(InterpreterGpu, TwoDimensionalGridAndBlockCoordinates) {
    Axes ax;
    Var c = bufferVar("C");
    Expr bx = ax.bx->var, by = ax.by->var, tx = ax.tx->var, ty = ax.ty->var;
    Expr value = cast(DataType::float32(), by * 1000 + ty * 100 + bx * 10 + tx);
    Stmt inner = threadExtent(
        ax.ty, 2, threadExtent(ax.tx, 4, store(c, value, (by * 2 + ty) * 8 + bx * 4 + tx)));
    Stmt body = threadExtent(ax.by, 3, threadExtent(ax.bx, 2, inner));
    Buffer bufC("C", DataType::float32(), {48});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    interp.run(body);
    // by = 2, ty = 1, bx = 1, tx = 3: row 5, column 7.
    EXPECT_EQ(bufC.getDouble(5 * 8 + 7), 2113.0);
    EXPECT_EQ(bufC.getDouble(0), 0.0);
}

TEST(InterpreterGpu, BarrierMakesSharedMemoryExchangeCorrect) {
    Axes ax;
    Var a = bufferVar("A"), s = bufferVar("S"), c = bufferVar("C");
    Buffer bufA = iotaBuffer("A", 64);
    Buffer bufC("C", DataType::float32(), {64});
    InterpreterOptions options;
    options.traceAccesses = true;
    Interpreter interp(options);
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(reverseThroughShared(ax, a, s, c, true));
    for (int64_t k = 0; k < 64; ++k)
        ASSERT_EQ(bufC.getDouble(k), double((k / 32) * 32 + 31 - k % 32)) << k;
    EXPECT_EQ(result.barriers, 2); // once per block
    const BufferTrace* ts = result.find(s);
    ASSERT_NE(ts, nullptr);
    EXPECT_EQ(ts->scope, "shared");
    EXPECT_EQ(ts->entries, 2); // one shared allocation per block
    EXPECT_EQ(ts->peakTouched, 32);
    EXPECT_EQ(ts->stores, 64);
}

TEST(InterpreterGpu, WithoutTheBarrierThreadsReadUnwrittenSharedMemory) {
    // The same exchange without the barrier: thread 0 reads S[31] before thread 31 wrote it.
    Axes ax;
    Var a = bufferVar("A"), s = bufferVar("S"), c = bufferVar("C");
    Buffer bufA = iotaBuffer("A", 64);
    Buffer bufC("C", DataType::float32(), {64});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    interp.run(reverseThroughShared(ax, a, s, c, false));
    EXPECT_TRUE(std::isnan(bufC.getDouble(0)));
}

TEST(InterpreterGpu, LocalMemoryIsPerThread) {
    // Each thread keeps A[tx] in its own L[0] across a barrier.
    Axes ax;
    Var a = bufferVar("A"), l = bufferVar("L"), c = bufferVar("C");
    Expr tx = ax.tx->var;
    Stmt body = threadExtent(ax.bx, 1,
                             threadExtent(ax.tx, 4,
                                          allocate(l, DataType::float32(), 1,
                                                   seq({store(l, load(a, tx), 0), barrier(),
                                                        store(c, load(l, 0) * Expr(10.0f), tx)}),
                                                   "local")));
    Buffer bufA = iotaBuffer("A", 4);
    Buffer bufC("C", DataType::float32(), {4});
    InterpreterOptions options;
    options.traceAccesses = true;
    Interpreter interp(options);
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    EXPECT_EQ(bufC.getDouble(3), 30.0);
    EXPECT_EQ(bufC.getDouble(1), 10.0);
    const BufferTrace* tl = result.find(l);
    ASSERT_NE(tl, nullptr);
    EXPECT_EQ(tl->entries, 4);
    EXPECT_EQ(tl->peakTouched, 1);
}

TEST(InterpreterGpu, BarrierInsideALoopSynchronisesEveryIteration) {
    // A tiled sum: for k in 4 { S[tx] = A[k*8 + tx]; sync; acc += S[(tx + 1) % 8]; sync }.
    Axes ax;
    Var a = bufferVar("A"), s = bufferVar("S"), acc = bufferVar("acc"), c = bufferVar("C"), k("k");
    Expr tx = ax.tx->var;
    Stmt step = seq({store(s, load(a, k * 8 + tx), tx), barrier(),
                     store(acc, load(acc, 0) + load(s, floormod(tx + 1, 8)), 0), barrier()});
    Stmt thread = allocate(
        acc, DataType::float32(), 1,
        seq({store(acc, Expr(0.0f), 0), loop(k, 4, step), store(c, load(acc, 0), tx)}), "local");
    Stmt body = threadExtent(
        ax.bx, 1, allocate(s, DataType::float32(), 8, threadExtent(ax.tx, 8, thread), "shared"));
    Buffer bufA = iotaBuffer("A", 32);
    Buffer bufC("C", DataType::float32(), {8});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    for (int t = 0; t < 8; ++t) {
        double expected = 0;
        for (int kk = 0; kk < 4; ++kk)
            expected += kk * 8 + (t + 1) % 8;
        EXPECT_EQ(bufC.getDouble(t), expected) << t;
    }
    EXPECT_EQ(result.barriers, 8);
}

TEST(InterpreterGpu, BarrierNotReachedByAllThreadsIsAnError) {
    Axes ax;
    Var c = bufferVar("C");
    Expr tx = ax.tx->var;
    Stmt body = threadExtent(
        ax.tx, 32, seq({IfThenElseNode::make(tx < 16, barrier()), store(c, Expr(1.0f), tx)}));
    Buffer bufC("C", DataType::float32(), {32});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    EXPECT_EQ(errorOf(interp, body),
              "barrier reached by 16 of 32 threads of block (0, 0, 0), the others finished without "
              "it (a barrier in divergent control flow) at: tvm_storage_sync(\"shared\")");
}

TEST(InterpreterGpu, ThreadsWaitingAtDifferentBarriersIsAnError) {
    Axes ax;
    Expr tx = ax.tx->var;
    Stmt body = threadExtent(ax.tx, 4, IfThenElseNode::make(tx < 2, barrier(), barrier()));
    Interpreter interp;
    std::string message = errorOf(interp, body);
    EXPECT_EQ(message.rfind("threads of block (0, 0, 0) wait at different barriers (a barrier in "
                            "divergent control flow): thread (0, 0, 0) at: ",
                            0),
              0u)
        << message;
}

TEST(InterpreterGpu, ErrorsInsideAKernelNameBlockAndThread) {
    Axes ax;
    Var c = bufferVar("C");
    Expr index = Expr(ax.bx->var) * 4 + ax.tx->var;
    Stmt body = threadExtent(
        ax.bx, 2, threadExtent(ax.tx, 4, seq({barrier(), store(c, Expr(1.0f), index + 1)})));
    Buffer bufC("C", DataType::float32(), {8});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    EXPECT_EQ(
        errorOf(interp, body),
        "out-of-bounds write of C[8] in argument buffer of 8 elements at: "
        "C[(((blockIdx.x*4) + threadIdx.x) + 1)] = 1.000000f (block (1, 0, 0), thread (3, 0, 0))");
}

TEST(InterpreterGpu, SmallerThreadExtentGuardsItsBody) {
    // Two nests bind threadIdx.x with 8 and 4: the launch has 8 threads, the second nest runs
    // on the first 4 only (as SplitHostDevice launches and the code generators guard).
    Axes ax;
    Var c = bufferVar("C"), d = bufferVar("D");
    Expr tx = ax.tx->var;
    Stmt body = threadExtent(ax.bx, 1,
                             seq({threadExtent(ax.tx, 8, store(c, Expr(1.0f), tx)),
                                  threadExtent(ax.tx, 4, store(d, Expr(2.0f), tx))}));
    Buffer bufC("C", DataType::float32(), {8}), bufD("D", DataType::float32(), {4});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    interp.bindBuffer(d, bufD);
    RunResult result = interp.run(body);
    EXPECT_EQ(bufC.getDouble(7), 1.0);
    EXPECT_EQ(bufD.getDouble(3), 2.0);
    EXPECT_EQ(result.stores, 12);
}

TEST(InterpreterGpu, VirtualThreadsAreSerialLoops) {
    IterVar vt = threadAxis("vthread");
    Var c = bufferVar("C");
    Stmt body = AttrStmtNode::make(vt, attr::kVirtualThread, Expr(3),
                                   store(c, cast(DataType::float32(), vt->var), vt->var));
    Buffer bufC("C", DataType::float32(), {3});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    EXPECT_EQ(bufC.getDouble(2), 2.0);
    EXPECT_EQ(result.kernelLaunches, 0);
}

TEST(InterpreterGpu, KernelsInAHostLoopLaunchEachIteration) {
    // for (r, 0, 3): launch with n threads, n bound as a scalar; shared memory is fresh per block.
    Axes ax;
    Var c = bufferVar("C"), s = bufferVar("S"), r("r"), n("n");
    Expr tx = ax.tx->var;
    Stmt kernel = threadExtent(
        ax.bx, 1,
        allocate(s, DataType::float32(), n,
                 threadExtent(ax.tx, n,
                              seq({store(s, cast(DataType::float32(), r), tx), barrier(),
                                   store(c, load(s, n - 1 - tx), r * n + tx)})),
                 "shared"));
    Buffer bufC("C", DataType::float32(), {12});
    InterpreterOptions options;
    options.traceAccesses = true;
    Interpreter interp(options);
    interp.bindBuffer(c, bufC);
    interp.bindScalar(n, 4);
    RunResult result = interp.run(loop(r, 3, kernel));
    EXPECT_EQ(result.kernelLaunches, 3);
    EXPECT_EQ(bufC.getDouble(11), 2.0);
    EXPECT_EQ(result.find(s)->entries, 3);
}

TEST(InterpreterGpu, TiledMatmulWithSharedTilesAndBarriers) {
    // C = A * B (32x32) in 8x8 tiles: a 4x4 grid of 8x8-thread blocks, each staging tiles of A
    // and B in shared memory between two barriers per step, accumulating in local memory.
    const int n = 32, t = 8;
    IterVar bx = threadAxis("blockIdx.x"), by = threadAxis("blockIdx.y");
    IterVar tx = threadAxis("threadIdx.x"), ty = threadAxis("threadIdx.y");
    Var a = bufferVar("A"), b = bufferVar("B"), c = bufferVar("C");
    Var as = bufferVar("As"), bs = bufferVar("Bs"), acc = bufferVar("acc"), ko("ko"), ki("ki");
    Expr x = tx->var, y = ty->var, bxv = bx->var, byv = by->var;
    Stmt step =
        seq({store(as, load(a, (byv * t + y) * n + ko * t + x), y * t + x),
             store(bs, load(b, (ko * t + y) * n + bxv * t + x), y * t + x), barrier(),
             loop(ki, t, store(acc, load(acc, 0) + load(as, y * t + ki) * load(bs, ki * t + x), 0)),
             barrier()});
    Stmt thread = allocate(acc, DataType::float32(), 1,
                           seq({store(acc, Expr(0.0f), 0), loop(ko, n / t, step),
                                store(c, load(acc, 0), (byv * t + y) * n + bxv * t + x)}),
                           "local");
    Stmt tiles = allocate(as, DataType::float32(), t * t,
                          allocate(bs, DataType::float32(), t * t,
                                   threadExtent(ty, t, threadExtent(tx, t, thread)), "shared"),
                          "shared");
    Stmt body = threadExtent(by, n / t, threadExtent(bx, n / t, tiles));
    Buffer bufA("A", DataType::float32(), {n, n}), bufB("B", DataType::float32(), {n, n});
    Buffer bufC("C", DataType::float32(), {n, n});
    bufA.fillRandom(5);
    bufB.fillRandom(6);
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(b, bufB);
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            float expected = 0; // the same float32 accumulation order as the kernel
            for (int k = 0; k < n; ++k)
                expected += float(bufA.at({i, k})) * float(bufB.at({k, j}));
            ASSERT_EQ(bufC.at({i, j}), double(expected)) << i << "," << j;
        }
    }
    EXPECT_EQ(result.barriers, 16 * (n / t) * 2);
}

TEST(InterpreterGpu, ThreadIndexIsDefinedThroughoutItsKernel) {
    // As CUDA's threadIdx.x, the index holds its value before its own thread_extent: a local
    // stage computed at threadIdx.y reads A[ty * 4 + tx] before the threadIdx.x nest starts.
    Axes ax;
    Var a = bufferVar("A"), l = bufferVar("L"), c = bufferVar("C");
    Expr index = ax.ty->var * 4 + ax.tx->var;
    Stmt body = threadExtent(
        ax.bx, 1,
        threadExtent(
            ax.ty, 2,
            allocate(l, DataType::float32(), 1,
                     seq({store(l, load(a, index), 0),
                          threadExtent(ax.tx, 4, store(c, load(l, 0) + Expr(1.0f), index))}),
                     "local")));
    Buffer bufA = iotaBuffer("A", 8);
    Buffer bufC("C", DataType::float32(), {8});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    interp.run(body);
    for (int64_t i = 0; i < 8; ++i)
        EXPECT_EQ(bufC.getDouble(i), double(i) + 1) << i;
}

TEST(InterpreterGpu, SharedAllocationThatChangesSizeIsAnError) {
    // One block's shared buffer is entered once per iteration of i with i + 1 elements: a GPU
    // has no such memory (the CUDA backend asks for a constant size too).
    Axes ax;
    Var s = bufferVar("S"), c = bufferVar("C"), i("i");
    Stmt body = threadExtent(
        ax.bx, 1,
        threadExtent(
            ax.tx, 2,
            loop(i, 3,
                 allocate(s, DataType::float32(), i + 1,
                          seq({store(s, Expr(1.0f), 0), store(c, load(s, 0), i)}), "shared"))));
    Buffer bufC("C", DataType::float32(), {3});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    EXPECT_NE(
        errorOf(interp, body)
            .find("allocation S of a block changes size between entries (1 elements, then 2)"),
        std::string::npos)
        << errorOf(interp, body);
}

TEST(InterpreterGpu, SharedRealizeMovesWithItsLoop) {
    // Unflattened IR: the block's shared tile T is realized at [i*2, 2) inside the loop over i,
    // so each entry indexes the same memory from a new min.
    Axes ax;
    Tensor a = makeTensor("A", {6}), t = makeTensor("T", {6}), c = makeTensor("C", {6});
    Var i("i");
    Expr tx = ax.tx->var, index = i * 2 + tx;
    Stmt fill = ProducerStoreNode::make(t, a({index}) * Expr(2.0f), {index});
    Stmt use = ProducerStoreNode::make(c, t({index}) + Expr(1.0f), {index});
    Stmt realize =
        ProducerRealizeNode::make(t, {Range(i * 2, 2)}, Expr(), seq({fill, use}), "shared");
    Stmt body = threadExtent(ax.bx, 1, threadExtent(ax.tx, 2, loop(i, 3, realize)));
    Buffer bufA = iotaBuffer("A", 6);
    Buffer bufC("C", DataType::float32(), {6});
    Interpreter interp;
    interp.bindTensor(a, bufA);
    interp.bindTensor(c, bufC);
    interp.run(body);
    for (int64_t k = 0; k < 6; ++k)
        EXPECT_EQ(bufC.getDouble(k), 2.0 * double(k) + 1) << k;
}

TEST(InterpreterGpu, LaunchExtentDefinedInsideTheKernelIsAnError) {
    // The nest of threadIdx.x inside the block loop over i has extent i + 1: the launch cannot
    // know it before the kernel starts.
    Axes ax;
    Var c = bufferVar("C"), i("i");
    Stmt body = threadExtent(
        ax.bx, 1, loop(i, 2, threadExtent(ax.tx, i + 1, store(c, Expr(1.0f), ax.tx->var))));
    Buffer bufC("C", DataType::float32(), {2});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    EXPECT_NE(errorOf(interp, body)
                  .find("the launch extent (i + 1) of threadIdx.x uses 'i', which "
                        "only the kernel defines"),
              std::string::npos)
        << errorOf(interp, body);
}
