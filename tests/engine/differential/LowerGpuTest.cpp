// GPU schedules lowered and run in the interpreter's emulation: a root axis of a compute_at'ed
// shared cache bound straight to a thread starts at the attach region's min (TVM's
// MakeLoopNest, notes section 8), and lower() inserts the barriers that shared-memory
// exchanges need (ThreadSync, as TVM runs it on the device code).
#include "DiffTestUtil.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/ThreadSync.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

/// resources/examples/gpu_matmul_shared.py at size n (a multiple of 16): the shared copies of
/// A and B are computed at ko with their root axes bound to threadIdx.y/x.
struct SharedMatmul {
    int n;
    Tensor A, B, C;
    Schedule s;

    explicit SharedMatmul(int size) : n(size) {
        A = placeholder({n, n}, DataType::float32(), "A");
        B = placeholder({n, n}, DataType::float32(), "B");
        IterVar k = reduceAxis(Range(0, n), "k");
        C = compute(
            {n, n},
            [&](const std::vector<Var>& v) {
                return sum(A({v[0], k->var}) * B({k->var, v[1]}), k);
            },
            "C");
        s = createSchedule(C.op);
        Tensor as = s.cacheRead(A, "shared", {C.op}), bs = s.cacheRead(B, "shared", {C.op});
        const auto* c = C.op.as<ComputeOpNode>();
        TileResult t = s[C].tile(c->axis[0], c->axis[1], 16, 16);
        s[C].bind(t.xOuter, threadAxis("blockIdx.y"));
        s[C].bind(t.yOuter, threadAxis("blockIdx.x"));
        s[C].bind(t.xInner, threadAxis("threadIdx.y"));
        s[C].bind(t.yInner, threadAxis("threadIdx.x"));
        auto [ko, ki] = s[C].split(k, 16);
        s[C].reorder({t.xOuter, t.yOuter, t.xInner, t.yInner, ko, ki});
        for (const Tensor& cache : {as, bs}) {
            s[cache].computeAt(s[C], ko);
            const auto* op = s[cache]->op.as<ComputeOpNode>();
            s[cache].bind(op->axis[0], threadAxis("threadIdx.y"));
            s[cache].bind(op->axis[1], threadAxis("threadIdx.x"));
        }
    }

    /// C = A * B, accumulated in double.
    Buffer expected(const std::vector<Buffer>& in) const {
        Buffer c("C", DataType::float32(), {n, n});
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j) {
                double acc = 0;
                for (int64_t k = 0; k < n; ++k)
                    acc += in[0].at({i, k}) * in[1].at({k, j});
                c.set({i, j}, acc);
            }
        return c;
    }
};

int countSyncs(const Stmt& s) {
    int n = 0;
    postOrderVisit(s, [&](const NodeRef& node) {
        const auto* call = node.as<CallNode>();
        n += call && call->isIntrinsic(kStorageSyncIntrinsic);
    });
    return n;
}

} // namespace

TEST(LowerGpu, BoundRootAxisOfAttachedCacheStartsAtItsRegion) {
    // Before the fix the copy stored A[threadIdx.y, threadIdx.x] into a region starting at
    // (by*16, ko*16): out of bounds for every block but the first.
    SharedMatmul mm(32);
    std::string ir = toString(lower(mm.s, {mm.A, mm.B, mm.C}).func.afterScheduleOps);
    EXPECT_NE(ir.find("A.shared(((blockIdx.y*16) + threadIdx.y), ((k.outer*16) + threadIdx.x)) ="),
              std::string::npos)
        << ir;
    std::vector<Buffer> in = randomArguments({mm.A, mm.B, mm.C}, {}, 3);
    std::vector<Buffer> out = lowerAndRun(mm.s, {mm.A, mm.B, mm.C}, {}, in);
    std::string mismatch;
    EXPECT_TRUE(Buffer::allClose(out[2], mm.expected(in), 1e-4, 1e-5, &mismatch)) << mismatch;
}

TEST(LowerGpu, InsertsBarriersAroundSharedExchanges) {
    // Each thread reads the shared tiles other threads wrote: without a barrier the emulated
    // threads would read poisoned (NaN) elements. TVM syncs before the reads and before the
    // next iteration's overwrite.
    SharedMatmul mm(32);
    LowerResult lowered = lower(mm.s, {mm.A, mm.B, mm.C});
    EXPECT_EQ(countSyncs(lowered.func.final), 2) << toString(lowered.func.final);
    EXPECT_EQ(countSyncs(lowered.func.afterCse), 0);
    std::vector<Buffer> in = randomArguments({mm.A, mm.B, mm.C}, {}, 5);
    RunResult result;
    std::vector<Buffer> out = runLowered(lowered.func, in, {}, &result);
    EXPECT_GT(result.barriers, 0);
    std::string mismatch;
    EXPECT_TRUE(Buffer::allClose(out[2], mm.expected(in), 1e-4, 1e-5, &mismatch)) << mismatch;
}

TEST(LowerGpu, BarrierInsertionIsIdempotent) {
    // The CUDA path runs ThreadSync on each kernel again; it must not add barriers twice.
    SharedMatmul mm(16);
    Stmt final = lower(mm.s, {mm.A, mm.B, mm.C}).func.final;
    EXPECT_EQ(toString(insertThreadSync(final)), toString(final));
}

TEST(LowerGpu, CpuScheduleGetsNoBarriers) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2; }, "B");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return b({v[0]}) + 1; }, "C");
    Schedule s = createSchedule(c.op);
    s[b].setScope("shared");
    LowerResult lowered = lower(s, {a, c});
    EXPECT_EQ(countSyncs(lowered.func.final), 0);
}
