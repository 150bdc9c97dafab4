// InferBound with virtual threads (issue 4): a "local" stage computed outside its consumer's
// vthread loop holds one region per virtual thread (TVM's numbers); its own leaf bound to that
// thread stands at its min in what it asks of its producers, and a producer attached outside
// every loop of the thread serves all of the thread's values.
#include "ir/Op.h"
#include "ir/Printer.h"
#include "schedule/InferBound.h"
#include "te/Compute.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

std::string region(const InferBoundResult& r, const Tensor& t) {
    std::string out;
    for (const IterVar& iv : t.op.as<ComputeOpNode>()->axis) {
        const Range& range = r.bounds.at(iv);
        out +=
            (out.empty() ? "[" : ", [") + toString(range.min) + ", " + toString(range.extent) + "]";
    }
    return out;
}

/// TVM's test_local_stage_predicate ("local vs. vthread") with a producer P of B and 3x4
/// rows: B (2, 3, 4) local at C's first axis, C's second axis and the inner part of B's split
/// of its second axis bound to one virtual thread.
struct LocalStageAtVirtualThread {
    Tensor A, P, B, C;
    Schedule s;
    IterVar vx = threadAxis("vthread", "vx");
    IterVar bInner;

    LocalStageAtVirtualThread() {
        auto elementwise = [](const Tensor& in, const std::string& name) {
            return compute(
                {2, 3, 4},
                [&](const std::vector<Var>& v) {
                    return in({v[0], v[1], v[2]}) + 1.0f;
                },
                name);
        };
        A = placeholder({2, 3, 4}, DataType::float32(), "A");
        P = elementwise(A, "P");
        B = elementwise(P, "B");
        C = elementwise(B, "C");
        s = createSchedule(C.op);
        s[B].computeAt(s[C], C.op.as<ComputeOpNode>()->axis[0]);
        s[B].setScope("local");
        bInner = s[B].split(B.op.as<ComputeOpNode>()->axis[1], 3).second;
        s[C].bind(C.op.as<ComputeOpNode>()->axis[1], vx);
        s[B].bind(bInner, vx);
    }
};

} // namespace

TEST(InferBoundVirtualThread, LocalStageRegionIsOnePointOfTheThread) {
    // As TVM: local storage (rank 3) is private to a virtual thread (rank 1).
    LocalStageAtVirtualThread p;
    InferBoundResult r = inferBound(p.s.normalize());
    EXPECT_EQ(region(r, p.B), "[i, 1], [vx, 1], [0, 4]");
    EXPECT_EQ(toString(r.bounds.at(p.bInner).extent), "3");
    EXPECT_EQ(toString(r.bounds.at(p.vx).extent), "3");
}

TEST(InferBoundVirtualThread, ProducerAttachedOutsideTheThreadServesAllItsValues) {
    // P at the root: B's leaf bound to vx stands at its min (B's region already holds vx), and
    // vx, not defined outside its loops, is relaxed. TVM leaves vx free in P's region.
    LocalStageAtVirtualThread p;
    InferBoundResult r = inferBound(p.s.normalize());
    EXPECT_EQ(region(r, p.P), "[0, 2], [0, 3], [0, 4]");
    const StageTrace* trace = r.trace.find(p.P.op);
    ASSERT_NE(trace, nullptr);
    ASSERT_EQ(trace->consumers.size(), 1u);
    const ConsumerTrace& ct = trace->consumers[0];
    bool leafAtMin = false, threadRelaxed = false;
    for (const LeafSetEntry& e : ct.leafSets)
        leafAtMin |= e.iv.same_as(p.bInner) && e.leafCase == LeafCase::ThreadInRegion;
    for (const RelaxEntry& e : ct.relaxSet)
        threadRelaxed |= e.var.same_as(p.vx->var);
    EXPECT_TRUE(leafAtMin);
    EXPECT_TRUE(threadRelaxed);
}

TEST(InferBoundVirtualThread, ProducerAttachedInsideTheThreadLoopIsOneRowOfIt) {
    // P at B's leaf bound to vx (inside that thread's loop): one point of vx, which B's leaf
    // adds once (its min), as B's loop nest computes it.
    LocalStageAtVirtualThread p;
    p.s[p.P].computeAt(p.s[p.B], p.bInner);
    p.s[p.P].setScope("local");
    InferBoundResult r = inferBound(p.s.normalize());
    EXPECT_EQ(region(r, p.P), "[i, 1], [vx, 1], [0, 4]");
}
