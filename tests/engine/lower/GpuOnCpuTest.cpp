// GPU kernels rewritten as CPU loops (lower/GpuOnCpu.h): the shape of the rewrite on small
// hand-written kernels, and what it refuses. tests/engine/run/GpuEmulationTest.cpp runs the
// rewritten programs against the interpreter.
#include "lower/GpuOnCpu.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/ThreadSync.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

const DataType kInt = DataType::int32();
const DataType kFloat = DataType::float32();

IterVar threadIv(const char* tag) {
    return IterVar(Range(), Var(tag), IterVarType::ThreadIndex, tag);
}

Stmt launch(const IterVar& iv, int64_t extent, Stmt body) {
    return AttrStmtNode::make(iv, attr::kThreadExtent, makeConst(kInt, extent), std::move(body));
}

/// A warp shuffle of `value` (full mask, warp size 32): `tvm_warp_shuffle_down` reads lane +
/// `lane`, `tvm_warp_shuffle` lane `lane`, within groups of `width`.
Expr warpShuffle(const char* name, Expr value, int64_t lane, int64_t width) {
    const DataType type = value.type();
    return CallNode::make(type, name,
                          {makeConst(DataType{DataType::Code::UInt, 32}, int64_t(0xFFFFFFFF)),
                           std::move(value), makeConst(kInt, lane), makeConst(kInt, width),
                           makeConst(kInt, int64_t(32))},
                          CallKind::Intrinsic);
}

Stmt scoped(const Var& buffer, const char* scope, int64_t size, Stmt body) {
    return AttrStmtNode::make(buffer, attr::kStorageScope, StringImmNode::make(scope),
                              AllocateNode::make(buffer, kFloat, {makeConst(kInt, size)},
                                                 makeBool(true), std::move(body)));
}

/// A kernel of `blocks` blocks of `threads` threads over buffers A and B.
struct Kernel {
    Var a{"A", DataType::handle()};
    Var b{"B", DataType::handle()};
    IterVar bx = threadIv("blockIdx.x");
    IterVar tx = threadIv("threadIdx.x");
    Expr global() const { return bx->var * makeConst(kInt, int64_t(64)) + tx->var; }
    Stmt wrap(Stmt body, int64_t blocks = 4, int64_t threads = 64) const {
        return launch(bx, blocks, launch(tx, threads, std::move(body)));
    }
    GpuOnCpu rewrite(const Stmt& body) const { return lowerGpuForCpu(body, "f", {a, b}); }
};

int count(const Stmt& s, const std::function<bool(const NodeRef&)>& pred) {
    int n = 0;
    postOrderVisit(s, [&](const NodeRef& node) { n += pred(node); });
    return n;
}

int loopsOver(const Stmt& s, const std::string& name, ForKind kind) {
    return count(s, [&](const NodeRef& node) {
        const auto* f = node.as<ForNode>();
        return f && f->loopVar.name() == name && f->kind == kind;
    });
}

bool hasGpuLeft(const Stmt& s) {
    return count(s, [](const NodeRef& node) {
               const auto* a = node.as<AttrStmtNode>();
               const auto* call = node.as<CallNode>();
               return (a && a->key == attr::kThreadExtent) ||
                      (call && (call->name == kStorageSyncIntrinsic ||
                                call->name.rfind("tvm_warp_", 0) == 0));
           }) > 0;
}

} // namespace

TEST(GpuOnCpu, BlocksBecomeAParallelLoopAndThreadsASerialOne) {
    Kernel k;
    Stmt body = k.wrap(StoreNode::make(k.b, LoadNode::make(kFloat, k.a, k.global()), k.global()));
    GpuOnCpu cpu = k.rewrite(body);
    ASSERT_TRUE(cpu.body.defined()) << cpu.refusal;
    EXPECT_EQ(cpu.kernels, 1);
    EXPECT_EQ(cpu.barriers, 0);
    EXPECT_EQ(toString(cpu.body),
              "parallel (blockIdx.x, 0, 4) {\n"
              "  for (threadIdx.x, 0, 64) {\n"
              "    B[((blockIdx.x*64) + threadIdx.x)] = A[((blockIdx.x*64) + threadIdx.x)]\n"
              "  }\n"
              "}\n");
}

TEST(GpuOnCpu, ABarrierSplitsTheThreadLoopAndSharedMemoryIsOnePerBlock) {
    Kernel k;
    Var shared("S", DataType::handle());
    Expr mirrored = makeConst(kInt, int64_t(63)) - k.tx->var;
    Stmt body = k.wrap(
        scoped(shared, "shared", 64,
               SeqNode::make(
                   {StoreNode::make(shared, LoadNode::make(kFloat, k.a, k.global()), k.tx->var),
                    makeStorageSync("shared"),
                    StoreNode::make(k.b, LoadNode::make(kFloat, shared, mirrored), k.global())})));
    GpuOnCpu cpu = k.rewrite(body);
    ASSERT_TRUE(cpu.body.defined()) << cpu.refusal;
    EXPECT_EQ(cpu.barriers, 1);
    EXPECT_FALSE(hasGpuLeft(cpu.body)) << toString(cpu.body);
    EXPECT_EQ(loopsOver(cpu.body, "threadIdx.x", ForKind::Serial), 2) << toString(cpu.body);
    // The shared buffer is allocated inside the block loop, outside both thread loops.
    const std::string text = toString(cpu.body);
    EXPECT_LT(text.find("parallel (blockIdx.x"), text.find("allocate S[float32 * 64]")) << text;
    EXPECT_LT(text.find("allocate S[float32 * 64]"), text.find("for (threadIdx.x")) << text;
}

TEST(GpuOnCpu, ALocalBufferAcrossABarrierHasOneCopyPerThread) {
    Kernel k;
    Var local("L", DataType::handle());
    Var shared("S", DataType::handle());
    Expr zero = makeZero(kInt), one = makeConst(kInt, int64_t(1));
    Stmt body = k.wrap(scoped(
        shared, "shared", 64,
        scoped(
            local, "local", 2,
            SeqNode::make(
                {StoreNode::make(local, LoadNode::make(kFloat, k.a, k.global()), zero),
                 StoreNode::make(shared, LoadNode::make(kFloat, local, zero), k.tx->var),
                 makeStorageSync("shared"),
                 StoreNode::make(local, LoadNode::make(kFloat, shared, makeConst(kInt, int64_t(0))),
                                 one),
                 StoreNode::make(
                     k.b, LoadNode::make(kFloat, local, zero) + LoadNode::make(kFloat, local, one),
                     k.global())}))));
    GpuOnCpu cpu = k.rewrite(body);
    ASSERT_TRUE(cpu.body.defined()) << cpu.refusal;
    const std::string text = toString(cpu.body);
    EXPECT_NE(text.find("allocate L[float32 * 128]"), std::string::npos) << text;
    EXPECT_NE(text.find("L[(threadIdx.x*2)]"), std::string::npos) << text;
    EXPECT_NE(text.find("L[(1 + (threadIdx.x*2))]"), std::string::npos) << text;
}

TEST(GpuOnCpu, APerThreadLetAcrossABarrierBecomesAnArray) {
    Kernel k;
    Var v("v", kInt);
    Stmt body = k.wrap(
        LetStmtNode::make(v, k.tx->var * makeConst(kInt, int64_t(3)),
                          SeqNode::make({makeStorageSync("shared"),
                                         StoreNode::make(k.b, cast(kFloat, v), k.global())})));
    GpuOnCpu cpu = k.rewrite(body);
    ASSERT_TRUE(cpu.body.defined()) << cpu.refusal;
    const std::string text = toString(cpu.body);
    EXPECT_NE(text.find("allocate v.threads[int32 * 64]"), std::string::npos) << text;
    EXPECT_NE(text.find("v.threads[threadIdx.x] = (threadIdx.x*3)"), std::string::npos) << text;
    // A let that is the same for every thread stays a let around the block's code.
    Var u("u", kInt);
    Stmt uniformLet = k.wrap(
        LetStmtNode::make(u, k.bx->var * makeConst(kInt, int64_t(3)),
                          SeqNode::make({makeStorageSync("shared"),
                                         StoreNode::make(k.b, cast(kFloat, u), k.global())})));
    cpu = k.rewrite(uniformLet);
    ASSERT_TRUE(cpu.body.defined()) << cpu.refusal;
    EXPECT_NE(toString(cpu.body).find("let u = (blockIdx.x*3)"), std::string::npos)
        << toString(cpu.body);
}

TEST(GpuOnCpu, AThreadExtentSmallerThanTheLaunchGuardsItsBody) {
    Kernel k;
    IterVar narrow = threadIv("threadIdx.x");
    Stmt body =
        launch(k.bx, 4,
               SeqNode::make({
                   launch(k.tx, 64, StoreNode::make(k.b, makeConst(kFloat, 1.0), k.global())),
                   launch(narrow, 10, StoreNode::make(k.b, makeConst(kFloat, 2.0), narrow->var)),
               }));
    GpuOnCpu cpu = k.rewrite(body);
    ASSERT_TRUE(cpu.body.defined()) << cpu.refusal;
    EXPECT_NE(toString(cpu.body).find("if ((threadIdx.x < 10))"), std::string::npos)
        << toString(cpu.body);
    // Both nests' variables are the one threadIdx.x of the thread loop.
    EXPECT_EQ(loopsOver(cpu.body, "threadIdx.x", ForKind::Serial), 1) << toString(cpu.body);
}

TEST(GpuOnCpu, WhatTheRewriteCannotExpressIsRefusedWithTheReason) {
    Kernel k;
    Stmt divergent = k.wrap(
        IfThenElseNode::make(k.tx->var < makeConst(kInt, int64_t(5)), makeStorageSync("shared")));
    GpuOnCpu cpu = k.rewrite(divergent);
    EXPECT_FALSE(cpu.body.defined());
    EXPECT_EQ(cpu.refusal, "kernel 'f_kernel0': a barrier under a condition that differs between "
                           "the threads of a block ((threadIdx.x < 5))");

    Stmt grid = k.wrap(SeqNode::make(
        {makeStorageSync("global"), StoreNode::make(k.b, makeConst(kFloat, 1.0), k.global())}));
    EXPECT_EQ(k.rewrite(grid).refusal,
              "kernel 'f_kernel0': a grid-wide barrier (tvm_storage_sync(\"global\"))");

    Var global("G", DataType::handle());
    Stmt globalAlloc = k.wrap(
        scoped(global, "global", 8, StoreNode::make(global, makeConst(kFloat, 1.0), k.tx->var)));
    EXPECT_EQ(
        k.rewrite(globalAlloc).refusal,
        "kernel 'f_kernel0': it allocates 'G' in global memory, which is shared by every block");
}

TEST(GpuOnCpu, AShuffleReadsItsSourceLaneThroughAnExchangeBuffer) {
    Kernel k;
    Var red("red", DataType::handle());
    Expr zero = makeZero(kInt);
    Expr shuffled = warpShuffle("tvm_warp_shuffle_down", LoadNode::make(kFloat, red, zero), 4, 32);
    Stmt body = k.wrap(scoped(
        red, "local", 1,
        SeqNode::make({StoreNode::make(red, LoadNode::make(kFloat, k.a, k.global()), zero),
                       StoreNode::make(red, LoadNode::make(kFloat, red, zero) + shuffled, zero),
                       StoreNode::make(k.b, LoadNode::make(kFloat, red, zero), k.global())})));
    GpuOnCpu cpu = k.rewrite(body);
    ASSERT_TRUE(cpu.body.defined()) << cpu.refusal;
    EXPECT_EQ(cpu.shuffles, 1);
    EXPECT_FALSE(hasGpuLeft(cpu.body)) << toString(cpu.body);
    const std::string text = toString(cpu.body);
    EXPECT_NE(text.find("allocate shfl0[float32 * 64]"), std::string::npos) << text;
    EXPECT_NE(text.find("shfl0[threadIdx.x] = red[threadIdx.x]"), std::string::npos) << text;
    // Offering and reading are thread loops of their own: every lane offers before any reads.
    EXPECT_EQ(loopsOver(cpu.body, "threadIdx.x", ForKind::Serial), 4) << text;
    EXPECT_NE(
        text.find("for (threadIdx.x, 0, 64) {\n    shfl0[threadIdx.x] = red[threadIdx.x]\n  }\n"),
        std::string::npos)
        << text;
}

TEST(GpuOnCpu, AProgramWithoutKernelsIsReturnedAsItIs) {
    Kernel k;
    Var i("i");
    Stmt body = ForNode::make(i, makeZero(kInt), makeConst(kInt, int64_t(8)), ForKind::Serial,
                              StoreNode::make(k.b, LoadNode::make(kFloat, k.a, i), i));
    GpuOnCpu cpu = k.rewrite(body);
    EXPECT_EQ(cpu.kernels, 0);
    EXPECT_EQ(toString(cpu.body), toString(body));
}

TEST(GpuOnCpu, WarpMemoryHasOneCopyPerGroupOfThreadIdxXLanesAndVectorsStayContiguous) {
    Kernel k;
    IterVar ty = threadIv("threadIdx.y");
    Var warp("W", DataType::handle());
    Expr lanes = makeConst(kInt, int64_t(16));
    // 16 lanes by 4 rows: a warp buffer of 16 per row, across a barrier.
    Stmt body = launch(
        k.bx, 2,
        launch(ty, 4,
               launch(k.tx, 16,
                      scoped(warp, "warp", 16,
                             SeqNode::make(
                                 {StoreNode::make(warp, LoadNode::make(kFloat, k.a, k.tx->var),
                                                  k.tx->var),
                                  makeStorageSync("warp"),
                                  StoreNode::make(
                                      k.b,
                                      LoadNode::make(kFloat, warp, floormod(k.tx->var + 1, lanes)),
                                      k.tx->var + ty->var * lanes)})))));
    GpuOnCpu cpu = k.rewrite(body);
    ASSERT_TRUE(cpu.body.defined()) << cpu.refusal;
    const std::string text = toString(cpu.body);
    EXPECT_NE(text.find("allocate W[float32 * 64]"), std::string::npos) << text; // 4 groups of 16
    EXPECT_NE(text.find("W[(threadIdx.x + (floordiv(((threadIdx.y*16) + threadIdx.x), 16)*16))]"),
              std::string::npos)
        << text;
    // threadIdx.x of 24 lanes shares no warp evenly: refused, as TVM's LowerWarpMemory does.
    Stmt uneven = launch(
        k.bx, 2,
        launch(k.tx, 24,
               scoped(warp, "warp", 24,
                      SeqNode::make({StoreNode::make(warp, makeConst(kFloat, 1.0), k.tx->var),
                                     makeStorageSync("warp"),
                                     StoreNode::make(k.b, LoadNode::make(kFloat, warp, k.tx->var),
                                                     k.tx->var)}))));
    EXPECT_EQ(
        k.rewrite(uneven).refusal,
        "kernel 'f_kernel0': warp buffer 'W' needs a threadIdx.x extent that divides 32 (got 24)");
    // A vector access to a per-thread copy keeps its ramp (one contiguous access).
    Var local("L", DataType::handle());
    Expr ramp = RampNode::make(makeZero(kInt), makeConst(kInt, int64_t(1)), 4);
    Stmt vectors = k.wrap(scoped(
        local, "local", 4,
        SeqNode::make(
            {StoreNode::make(local, BroadcastNode::make(makeConst(kFloat, 2.0), 4), ramp),
             makeStorageSync("shared"),
             StoreNode::make(k.b, LoadNode::make(kFloat, local, makeZero(kInt)), k.global())})));
    cpu = k.rewrite(vectors);
    ASSERT_TRUE(cpu.body.defined()) << cpu.refusal;
    EXPECT_NE(toString(cpu.body).find("L[ramp((threadIdx.x*4), 1, 4)]"), std::string::npos)
        << toString(cpu.body);
}

TEST(GpuOnCpu, SharedMemorySizedByALoopInsideTheKernelIsRefused) {
    Kernel k;
    Var shared("S", DataType::handle()), j("j");
    Stmt body = k.wrap(ForNode::make(
        j, 0, 4, ForKind::Serial,
        AttrStmtNode::make(
            shared, attr::kStorageScope, StringImmNode::make("shared"),
            AllocateNode::make(
                shared, kFloat, {j + 1}, makeBool(true),
                SeqNode::make({StoreNode::make(shared, makeConst(kFloat, 1.0), makeZero(kInt)),
                               makeStorageSync("shared"),
                               StoreNode::make(k.b, LoadNode::make(kFloat, shared, makeZero(kInt)),
                                               k.global())})))));
    EXPECT_EQ(k.rewrite(body).refusal,
              "kernel 'f_kernel0': the size of shared buffer 'S' changes with "
              "loop 'j' (shared memory has one size in a block)");
}

TEST(GpuOnCpu, AShuffleOfAWidthNoWarpHasIsRefused) {
    Kernel k;
    Var red("red", DataType::handle());
    Expr zero = makeZero(kInt);
    Expr shuffled = warpShuffle("tvm_warp_shuffle", LoadNode::make(kFloat, red, zero), 0, 64);
    Stmt body = k.wrap(scoped(red, "local", 1,
                              SeqNode::make({StoreNode::make(red, makeConst(kFloat, 1.0), zero),
                                             StoreNode::make(k.b, shuffled, k.global())})));
    EXPECT_EQ(
        k.rewrite(body).refusal.rfind("kernel 'f_kernel0': a shuffle whose width is not a power of "
                                      "two of at most 32: ",
                                      0),
        0u)
        << k.rewrite(body).refusal;
}
