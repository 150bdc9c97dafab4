// Schedules with virtual threads (`te.thread_axis("vthread")`), from TVM's TE tests, lowered
// and run in the interpreter: the result equals the unscheduled program's and no access leaves
// its allocation (the interpreter throws on one). Issue 4: a "local" stage computed outside its
// consumer's vthread loop and bound to the same virtual thread (TVM's
// test_local_stage_predicate, "local vs. vthread") was stored at `vthread + vthread` under a
// guard `vthread < 1`, and its virtual threads shared one copy of the buffer.
#include "DiffTestUtil.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "schedule/InferBoundTight.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

bool hasIfThenElse(const Stmt& s) {
    bool found = false;
    postOrderVisit(s, [&](const NodeRef& node) { found = found || node.as<IfThenElseNode>(); });
    return found;
}

/// Lowers `s` under every rule set and checks its output (the last argument) against the
/// unscheduled program on random inputs; returns the lowering under the tvm rules.
LowerResult checkAgainstUnscheduled(const Schedule& s, const std::vector<Tensor>& args) {
    std::vector<Buffer> inputs = randomArguments(args, {}, 7);
    Buffer expected = lowerAndRun(createSchedule(args.back().op), args, {}, inputs).back();
    for (BoundRules rules : {BoundRules::Tvm05, BoundRules::Tight, BoundRules::Tvm}) {
        if (rules == BoundRules::Tight && !hasIsl())
            continue;
        LowerOptions options;
        options.rules = rules;
        LowerResult lowered = lower(s, args, options);
        std::vector<Buffer> out = runLowered(lowered.func, inputs);
        std::string mismatch;
        EXPECT_TRUE(Buffer::allClose(out.back(), expected, 1e-5, 1e-6, &mismatch))
            << "under " << boundRulesName(rules) << ": " << mismatch << "\n"
            << toString(lowered.func.final);
        if (rules == BoundRules::Tvm)
            return lowered;
    }
    return {};
}

/// TVM's test_local_stage_predicate: B (1, 3, 2) computed at C's blockIdx loop in `scope`, its
/// second axis split by 3 with the inner part bound to the thread C's second axis is bound to.
struct LocalStagePredicate {
    Tensor A, B, C;
    Schedule s;

    LocalStagePredicate(const std::string& threadTag, const std::string& scope) {
        A = placeholder({1, 3, 2}, DataType::float32(), "A");
        B = compute(
            {1, 3, 2},
            [&](const std::vector<Var>& v) {
                return A({v[0], v[1], v[2]});
            },
            "B");
        C = compute(
            {1, 3, 2},
            [&](const std::vector<Var>& v) {
                return B({v[0], v[1], v[2]});
            },
            "C");
        s = createSchedule(C.op);
        const auto* b = B.op.as<ComputeOpNode>();
        const auto* c = C.op.as<ComputeOpNode>();
        IterVar thread = threadAxis(threadTag);
        s[B].computeAt(s[C], c->axis[0]);
        s[B].setScope(scope);
        IterVar inner = s[B].split(b->axis[1], 3).second;
        s[C].bind(c->axis[0], threadAxis("blockIdx.x"));
        s[C].bind(c->axis[1], thread);
        s[B].bind(inner, thread);
    }
};

} // namespace

TEST(VirtualThread, LocalStagePredicateNeedsNoGuard) {
    // TVM asserts that none of the three lowerings has an IfThenElse.
    for (auto [tag, scope] : {std::pair{"threadIdx.x", "local"}, std::pair{"vthread", "local"},
                              std::pair{"blockIdx.y", "shared"}}) {
        LocalStagePredicate p(tag, scope);
        LowerResult lowered = checkAgainstUnscheduled(p.s, {p.A, p.C});
        EXPECT_FALSE(hasIfThenElse(lowered.func.final)) << tag << ", " << scope << ":\n"
                                                        << toString(lowered.func.final);
    }
}

TEST(VirtualThread, LocalStageRegionIsOneRowPerVirtualThread) {
    // The bounds are TVM's: "local" storage is private to a virtual thread (rank 1 < 3), so
    // InferBound keeps C's vthread loop as a point and B's region is one row per thread.
    LocalStagePredicate p("vthread", "local");
    LowerResult lowered = lower(p.s, {p.A, p.C});
    std::string ops = toString(lowered.func.afterScheduleOps);
    EXPECT_NE(ops.find("realize B([0, 1], [vthread, 1], [0, 2])"), std::string::npos) << ops;
    EXPECT_NE(ops.find("B(0, vthread, k) =A(0, vthread, k)"), std::string::npos) << ops;
    // Each virtual thread gets its own row: the three threads run one after the other.
    std::string flat = toString(lowered.func.afterSimplify);
    EXPECT_NE(flat.find("allocate B[float32 * 6]"), std::string::npos) << flat;
    EXPECT_NE(flat.find("B[((vthread*2) + k)] = A[((vthread*2) + k)]"), std::string::npos) << flat;
    EXPECT_NE(flat.find("C[((vthread*2) + k)] = B[((vthread*2) + k)]"), std::string::npos) << flat;
}

TEST(VirtualThread, LocalStagePrivateToTwoVirtualThreads) {
    // B (1, 2, 3, 4) computed at C's blockIdx loop, C's axes 1 and 2 bound to vy and vx, and
    // B's matching axes split so that their inner parts bind the same threads: B holds one
    // 1x1x1x4 region per (vy, vx).
    Tensor A = placeholder({1, 2, 3, 4}, DataType::float32(), "A");
    Tensor B = compute(
        {1, 2, 3, 4},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1], v[2], v[3]}) * 2;
        },
        "B");
    Tensor C = compute(
        {1, 2, 3, 4},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1], v[2], v[3]}) + 1;
        },
        "C");
    Schedule s = createSchedule(C.op);
    const auto* b = B.op.as<ComputeOpNode>();
    const auto* c = C.op.as<ComputeOpNode>();
    IterVar vy = threadAxis("vthread", "vy"), vx = threadAxis("vthread", "vx");
    s[B].computeAt(s[C], c->axis[0]);
    s[B].setScope("local");
    s[C].bind(c->axis[0], threadAxis("blockIdx.x"));
    s[C].bind(c->axis[1], vy);
    s[C].bind(c->axis[2], vx);
    s[B].bind(s[B].split(b->axis[1], 2).second, vy);
    s[B].bind(s[B].split(b->axis[2], 3).second, vx);
    LowerResult lowered = checkAgainstUnscheduled(s, {A, C});
    EXPECT_FALSE(hasIfThenElse(lowered.func.final)) << toString(lowered.func.final);
    std::string final = toString(lowered.func.final);
    EXPECT_NE(final.find("allocate B[float32 * 24]"), std::string::npos) << final;
}

TEST(VirtualThread, OwnVirtualThreadOfLocalStageCoversItsRegion) {
    // A virtual thread only the local stage binds is a serial loop over its own region (TVM's
    // value: the thread variable), as the randomized differential test binds them.
    Tensor A = placeholder({16}, DataType::float32(), "A");
    Tensor B = compute(
        {16}, [&](const std::vector<Var>& v) { return A({v[0]}) * 3; }, "B");
    Tensor C = compute(
        {16}, [&](const std::vector<Var>& v) { return B({v[0]}) - 1; }, "C");
    Schedule s = createSchedule(C.op);
    IterVar co = s[C].split(C.op.as<ComputeOpNode>()->axis[0], 8).first;
    s[B].computeAt(s[C], co);
    s[B].setScope("local");
    auto [bo, bi] = s[B].splitByNParts(B.op.as<ComputeOpNode>()->axis[0], 2);
    s[B].bind(bo, threadAxis("vthread"));
    LowerResult lowered = checkAgainstUnscheduled(s, {A, C});
    std::string final = toString(lowered.func.final);
    EXPECT_NE(final.find("allocate B[float32 * 8]"), std::string::npos) << final;
}

TEST(VirtualThread, GemmWithVirtualThreadsAndCaches) {
    // TVM's tests/python/integration/test_gemm.py at a small size: shared copies of A and B at
    // the reduction's outer loop, local copies at its unrolled middle loop, the local result
    // at threadIdx.x under two virtual threads (vy, vx) of 2.
    const int n = 32, numThread = 2, blockFactor = 8;
    Tensor A = placeholder({n, n}, DataType::float32(), "A");
    Tensor B = placeholder({n, n}, DataType::float32(), "B");
    IterVar k = reduceAxis(Range(0, n), "k");
    Tensor C = compute(
        {n, n},
        [&](const std::vector<Var>& v) {
            return sum(A({k->var, v[1]}) * B({k->var, v[0]}), k);
        },
        "C");
    Schedule s = createSchedule(C.op);
    Tensor AA = s.cacheRead(A, "shared", {C.op}), BB = s.cacheRead(B, "shared", {C.op});
    Tensor AL = s.cacheRead(AA, "local", {C.op}), BL = s.cacheRead(BB, "local", {C.op});
    Tensor CC = s.cacheWrite(C, "local");
    IterVar tx = threadAxis(Range(0, numThread), "threadIdx.x");
    IterVar ty = threadAxis(Range(0, numThread), "threadIdx.y");
    const auto* c = C.op.as<ComputeOpNode>();
    auto [by, yi] = s[C].split(c->axis[0], blockFactor);
    auto [bx, xi] = s[C].split(c->axis[1], blockFactor);
    s[C].bind(by, threadAxis("blockIdx.y"));
    s[C].bind(bx, threadAxis("blockIdx.x"));
    s[C].reorder({by, bx, yi, xi});
    auto [tyz, yi2] = s[C].splitByNParts(yi, 2);
    auto [tyo, yi3] = s[C].splitByNParts(yi2, numThread);
    auto [txz, xi2] = s[C].splitByNParts(xi, 2);
    auto [txo, xi3] = s[C].splitByNParts(xi2, numThread);
    s[C].bind(tyz, threadAxis(Range(0, 2), "vthread", "vy"));
    s[C].bind(txz, threadAxis(Range(0, 2), "vthread", "vx"));
    s[C].bind(tyo, ty);
    s[C].bind(txo, tx);
    s[C].reorder({tyz, txz, tyo, txo, yi3, xi3});
    s[CC].computeAt(s[C], txo);
    const auto* cc = s[CC]->op.as<ComputeOpNode>();
    auto [ko, ki] = s[CC].split(cc->reduceAxis[0], 8);
    auto [kt, ki2] = s[CC].split(ki, 1);
    s[CC].reorder({ko, kt, ki2, cc->axis[0], cc->axis[1]});
    s[AA].computeAt(s[CC], ko);
    s[BB].computeAt(s[CC], ko);
    s[CC].unroll(kt);
    s[AL].computeAt(s[CC], kt);
    s[BL].computeAt(s[CC], kt);
    for (const Tensor& shared : {AA, BB}) {
        const auto* op = s[shared]->op.as<ComputeOpNode>();
        auto [sty, sxi] = s[shared].splitByNParts(op->axis[0], numThread);
        auto [stx, sxi2] = s[shared].splitByNParts(op->axis[1], numThread);
        s[shared].reorder({sty, stx, sxi, sxi2});
        s[shared].bind(sty, ty);
        s[shared].bind(stx, tx);
    }
    LowerResult lowered = checkAgainstUnscheduled(s, {A, B, C});
    std::string final = toString(lowered.func.final);
    EXPECT_NE(final.find("virtual_thread"), std::string::npos) << final;
}

TEST(VirtualThread, ProducersOfALocalStagePrivateToVirtualThreads) {
    // P feeds B, which holds one row per virtual thread: P computed at the root serves all the
    // threads' rows, P computed at B's vthread loop one row per thread.
    for (bool insideThreadLoop : {false, true}) {
        Tensor A = placeholder({2, 3, 4}, DataType::float32(), "A");
        auto elementwise = [](const Tensor& in, const std::string& name) {
            return compute(
                {2, 3, 4},
                [&](const std::vector<Var>& v) {
                    return in({v[0], v[1], v[2]}) * 2 + 1;
                },
                name);
        };
        Tensor P = elementwise(A, "P"), B = elementwise(P, "B"), C = elementwise(B, "C");
        Schedule s = createSchedule(C.op);
        IterVar vx = threadAxis("vthread", "vx");
        s[B].computeAt(s[C], C.op.as<ComputeOpNode>()->axis[0]);
        s[B].setScope("local");
        IterVar inner = s[B].split(B.op.as<ComputeOpNode>()->axis[1], 3).second;
        s[C].bind(C.op.as<ComputeOpNode>()->axis[1], vx);
        s[B].bind(inner, vx);
        if (insideThreadLoop) {
            s[P].computeAt(s[B], inner);
            s[P].setScope("local");
        }
        LowerResult lowered = checkAgainstUnscheduled(s, {A, C});
        EXPECT_FALSE(hasIfThenElse(lowered.func.final)) << toString(lowered.func.final);
    }
}
