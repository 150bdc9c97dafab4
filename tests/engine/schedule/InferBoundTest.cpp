// InferBound on every example of the seed documents (000 and 002), under the rule set each was
// written for, and TVM's rules from TVM_INFERBOUND_NOTES.md.
#include "schedule/InferBound.h"
#include "engine/GatherBound.h"
#include "engine/WarpPair.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "schedule/Graph.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

/// `[min, extent]` of an IterVar's range, as TVM's realize prints it.
std::string rangeOf(const InferBoundResult& r, const IterVar& iv) {
    auto it = r.bounds.find(iv);
    if (it == r.bounds.end())
        return "<none>";
    return "[" + toString(it->second.min) + ", " + toString(it->second.extent) + "]";
}

std::string region(const InferBoundResult& r, const Tensor& t) {
    const auto* op = t.op.as<ComputeOpNode>();
    std::string out;
    for (const IterVar& iv : op->axis)
        out += (out.empty() ? "" : ", ") + rangeOf(r, iv);
    return out;
}

InferBoundResult infer(const Schedule& s, BoundRules rules = BoundRules::Tvm) {
    return inferBound(s.normalize(), rules);
}

Expr f32(double v) { return makeConst(DataType::float32(), v); }

/// C = 5 (5, 16); D reads C.
struct TwoStages {
    Tensor C =
        compute({5, 16}, [](const std::vector<Var>&) { return Expr(5); }, "C", "", {"i", "j"});
    Tensor D = compute({5, 16},
                       [this](const std::vector<Var>& v) {
                           return C({v[0], v[1]}) * 2;
                       },
                       "D", "", {"i", "j"});
    Schedule s = createSchedule(D.op);
    const ComputeOpNode* c() const { return C.op.as<ComputeOpNode>(); }
    const ComputeOpNode* d() const { return D.op.as<ComputeOpNode>(); }
};

/// Ex. 6-8: A (200, 400) -> B (shared or inferred) -> C (100, 200) bound to blockIdx/threadIdx.
struct SharedExample {
    Tensor A = placeholder({200, 400}, DataType::float32(), "A");
    Tensor B = compute({200, 400},
                       [this](const std::vector<Var>& v) {
                           return f32(3.14) * A({v[0], v[1]});
                       },
                       "B", "", {"i", "j"});
    Tensor C = compute({100, 200},
                       [this](const std::vector<Var>& v) {
                           return f32(2.72) * B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    IterVar blockX = threadAxis("blockIdx.x");
    IterVar threadX = threadAxis("threadIdx.x");
    Schedule s = createSchedule(C.op);

    SharedExample(bool setShared, bool attachAtJ) {
        const auto* c = C.op.as<ComputeOpNode>();
        const auto* b = B.op.as<ComputeOpNode>();
        s[C].bind(c->axis[0], blockX);
        s[C].bind(c->axis[1], threadX);
        if (setShared)
            s[B].setScope("shared");
        s[B].computeAt(s[C], attachAtJ ? c->axis[1] : c->axis[0]);
        s[B].bind(b->axis[1], threadX);
    }
};

} // namespace

TEST(InferBound, Ex1WithoutComputeAtComputesTheWholeProducer) {
    TwoStages t;
    auto r = infer(t.s);
    EXPECT_EQ(region(r, t.C), "[0, 5], [0, 16]");
    EXPECT_EQ(region(r, t.D), "[0, 5], [0, 16]");
}

TEST(InferBound, Ex2AttachAtInnerAxisNeedsOneElement) {
    TwoStages t;
    t.s[t.C].computeAt(t.s[t.D], t.d()->axis[1]);
    auto r = infer(t.s);
    EXPECT_EQ(region(r, t.C), "[i, 1], [j, 1]");
}

TEST(InferBound, Ex3AttachAtOuterAxisNeedsOneRow) {
    TwoStages t;
    t.s[t.C].computeAt(t.s[t.D], t.d()->axis[0]);
    auto r = infer(t.s);
    EXPECT_EQ(region(r, t.C), "[i, 1], [0, 16]");
}

TEST(InferBound, Ex4AttachPathIncludesLoopsTheProducerDoesNotUse) {
    Tensor C =
        compute({5, 16}, [](const std::vector<Var>&) { return Expr(5); }, "C", "", {"i", "j"});
    Tensor D = compute({4, 5, 16},
                       [&](const std::vector<Var>& v) {
                           return C({v[1], v[2]}) * 2;
                       },
                       "D", "", {"di", "dj", "dk"});
    Schedule s = createSchedule(D.op);
    s[C].computeAt(s[D], D.op.as<ComputeOpNode>()->axis[2]);
    Schedule n = s.normalize();
    auto r = inferBound(n);
    EXPECT_EQ(region(r, C), "[dj, 1], [dk, 1]");
    const StageTrace* trace = r.trace.find(C.op);
    ASSERT_NE(trace, nullptr);
    std::vector<std::string> path;
    for (const IterVar& iv : trace->attachPath)
        path.push_back(iv->var.name());
    EXPECT_EQ(path, (std::vector<std::string>{"dk", "dj", "di"}));
}

TEST(InferBound, Ex5AttachAfterSplitRequestsOnePoint) {
    TwoStages t;
    auto [outer, inner] = t.s[t.D].split(t.d()->axis[1], 8);
    t.s[t.C].computeAt(t.s[t.D], inner);
    auto r = infer(t.s);
    EXPECT_EQ(region(r, t.C), "[i, 1], [((j.outer*8) + j.inner), 1]");
    EXPECT_EQ(rangeOf(r, outer), "[0, 2]");
    EXPECT_EQ(rangeOf(r, inner), "[0, 8]");
}

TEST(InferBound, ChainedAttachFollowsTheConsumersAttachment) {
    Tensor C =
        compute({5, 16}, [](const std::vector<Var>&) { return Expr(5); }, "C", "", {"i", "j"});
    Tensor D = compute({5, 16},
                       [&](const std::vector<Var>& v) {
                           return C({v[0], v[1]}) * 2;
                       },
                       "D", "", {"di", "dj"});
    Tensor E = compute({5, 16},
                       [&](const std::vector<Var>& v) {
                           return D({v[0], v[1]}) * 4;
                       },
                       "E", "", {"ei", "ej"});
    Schedule s = createSchedule(E.op);
    s[C].computeAt(s[D], D.op.as<ComputeOpNode>()->axis[1]);
    s[D].computeAt(s[E], E.op.as<ComputeOpNode>()->axis[1]);
    auto r = infer(s);
    EXPECT_EQ(region(r, D), "[ei, 1], [ej, 1]");
    EXPECT_EQ(region(r, C), "[ei, 1], [ej, 1]");
}

TEST(InferBound, ConsumerAttachPathIsRelaxedForAnUnattachedProducer) {
    TwoStages t;
    Tensor E = compute({5, 16},
                       [&](const std::vector<Var>& v) {
                           return t.D({v[0], v[1]}) + 4;
                       },
                       "E", "", {"ei", "ej"});
    Schedule s = createSchedule(E.op);
    s[t.D].computeAt(s[E], E.op.as<ComputeOpNode>()->axis[1]);
    auto r = infer(s);
    EXPECT_EQ(region(r, t.C), "[0, 5], [0, 16]");
    EXPECT_EQ(region(r, t.D), "[ei, 1], [ej, 1]");
    const StageTrace* trace = r.trace.find(t.C.op);
    ASSERT_EQ(trace->consumers.size(), 1u);
    EXPECT_EQ(trace->consumers[0].relaxSet.size(), 2u);
}

TEST(InferBound, Ex6SharedScopeRelaxesThreadAxisBelowTheAttachPoint) {
    SharedExample ex(/*setShared=*/true, /*attachAtJ=*/false);
    auto r = infer(ex.s);
    EXPECT_EQ(region(r, ex.B), "[blockIdx.x, 1], [0, 200]");
    EXPECT_EQ(region(r, ex.C), "[0, 100], [0, 200]");
}

TEST(InferBound, Ex7SharedScopeRelaxesThreadAxisAtTheAttachPoint) {
    SharedExample ex(/*setShared=*/true, /*attachAtJ=*/true);
    auto r = infer(ex.s);
    EXPECT_EQ(region(r, ex.B), "[blockIdx.x, 1], [0, 200]");
    const StageTrace* trace = r.trace.find(ex.B.op);
    const LeafSetEntry& j = trace->consumers[0].leafSets[0];
    EXPECT_EQ(j.iv->var.name(), "j");
    EXPECT_EQ(j.leafCase, LeafCase::Relax);
    EXPECT_EQ(j.reason, "bound to threadIdx.x: the threads share one shared buffer, so all its "
                        "indices are needed");
    const LeafSetEntry& i = trace->consumers[0].leafSets[1];
    EXPECT_EQ(i.iv->var.name(), "i");
    EXPECT_EQ(i.reason, "bound to blockIdx.x: each block has its own shared buffer, so one index "
                        "at a time");
}

TEST(InferBound, Ex8InfersSharedScopeFromTheBlockIdxAttachPath) {
    SharedExample ex(/*setShared=*/false, /*attachAtJ=*/false);
    auto r = infer(ex.s);
    EXPECT_EQ(region(r, ex.B), "[blockIdx.x, 1], [0, 200]");
    const StageTrace* trace = r.trace.find(ex.B.op);
    EXPECT_EQ(trace->scope, "shared");
    EXPECT_TRUE(trace->scopeInferred);
}

TEST(InferBound, ThreadExtentsComeFromTheBoundLeaves) {
    SharedExample ex(true, false);
    auto r = infer(ex.s);
    EXPECT_EQ(rangeOf(r, ex.blockX), "[0, 100]");
    EXPECT_EQ(rangeOf(r, ex.threadX), "[0, 200]");
}

namespace {
struct FuseSplitExample {
    Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                       {"i", "j"});
    Tensor C = compute({64, 64},
                       [this](const std::vector<Var>& v) {
                           return B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    IterVar outer, inner;
    FuseSplitExample(bool nparts, int n) {
        const auto* c = C.op.as<ComputeOpNode>();
        IterVar fused = s[C].fuse(c->axis[0], c->axis[1]);
        auto parts = nparts ? s[C].splitByNParts(fused, n) : s[C].split(fused, n);
        outer = parts.first;
        inner = parts.second;
        s[B].computeAt(s[C], outer);
    }
};
} // namespace

TEST(InferBound, FuseFallbackOfTvm05ComputesTheWholeProducer) {
    FuseSplitExample ex(/*nparts=*/true, 512);
    auto r = infer(ex.s, BoundRules::Tvm05);
    EXPECT_EQ(region(r, ex.B), "[0, 64], [0, 64]");
}

TEST(InferBound, FuseOfTvmRequestsOneRowSegment) {
    FuseSplitExample ex(/*nparts=*/true, 512);
    auto r = infer(ex.s, BoundRules::Tvm);
    const auto* b = ex.B.op.as<ComputeOpNode>();
    EXPECT_EQ(toString(r.bounds.at(b->axis[0]).extent), "1");
    EXPECT_EQ(toString(r.bounds.at(b->axis[1]).extent), "8");
    EXPECT_EQ(rangeOf(r, ex.inner), "[0, 8]");
    EXPECT_EQ(rangeOf(r, ex.outer), "[0, 512]");
}

TEST(InferBound, UnalignedFuseSplitTakesWholeRowsWithASymbolicRowCount) {
    FuseSplitExample ex(/*nparts=*/false, 48);
    auto r = infer(ex.s, BoundRules::Tvm);
    const auto* b = ex.B.op.as<ComputeOpNode>();
    EXPECT_EQ(rangeOf(r, b->axis[1]), "[0, 64]");
    EXPECT_FALSE(asConstInt(r.bounds.at(b->axis[0]).extent).has_value())
        << toString(r.bounds.at(b->axis[0]).extent);
    EXPECT_EQ(rangeOf(r, ex.outer), "[0, 86]");
}

TEST(InferBound, DisjointConsumerRequestsAreUnitedDimensionByDimension) {
    const test::GatherBound g;
    Schedule s = g.schedule();
    for (BoundRules rules : {BoundRules::Tvm, BoundRules::Tvm05}) {
        auto r = infer(s, rules);
        EXPECT_EQ(region(r, g.T), "[0, 4], [0, 4]");
        const StageTrace* trace = r.trace.find(g.T.op);
        ASSERT_EQ(trace->consumers.size(), 2u);
        EXPECT_EQ(trace->consumers[0].requests[0].request.toString(), "[0, 1]");
        EXPECT_EQ(trace->consumers[1].requests[0].request.toString(), "[2, 3]");
    }
}

TEST(InferBound, SplitRemainderKeepsTheFactorAsInnerExtent) {
    Tensor A = placeholder({20}, DataType::float32(), "A");
    Tensor B = compute(
        {20}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {20}, [&](const std::vector<Var>& v) { return B({v[0]}) + f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    auto [xo, xi] = s[C].split(C.op.as<ComputeOpNode>()->axis[0], 16);
    s[B].computeAt(s[C], xo);
    auto r = infer(s);
    EXPECT_EQ(rangeOf(r, xo), "[0, 2]");
    EXPECT_EQ(rangeOf(r, xi), "[0, 16]");
    EXPECT_EQ(region(r, B), "[(i.outer*16), 16]");
}

namespace {
/// A stage of extent 8 split by `factor` (or nparts), optionally with the inner leaf bound.
InferBoundResult splitOfEight(bool nparts, int n, BoundRules rules, bool bindInner, IterVar* outer,
                              IterVar* inner) {
    Tensor A = placeholder({8}, DataType::float32(), "A");
    Tensor B = compute(
        {8}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Schedule s = createSchedule(B.op);
    auto parts = nparts ? s[B].splitByNParts(B.op.as<ComputeOpNode>()->axis[0], n)
                        : s[B].split(B.op.as<ComputeOpNode>()->axis[0], n);
    *outer = parts.first;
    *inner = parts.second;
    if (bindInner)
        s[B].bind(*inner, threadAxis("threadIdx.x"));
    return infer(s, rules);
}
} // namespace

TEST(InferBound, SplitTighteningUsesTheSmallerParentExtent) {
    IterVar outer, inner;
    auto r = splitOfEight(false, 32, BoundRules::Tvm, false, &outer, &inner);
    EXPECT_EQ(rangeOf(r, inner), "[0, 8]");
    EXPECT_EQ(rangeOf(r, outer), "[0, 1]");
    r = splitOfEight(true, 32, BoundRules::Tvm, false, &outer, &inner);
    EXPECT_EQ(rangeOf(r, outer), "[0, 8]");
    EXPECT_EQ(rangeOf(r, inner), "[0, 1]");
}

TEST(InferBound, Tvm05NeverTightensSplits) {
    IterVar outer, inner;
    auto r = splitOfEight(false, 32, BoundRules::Tvm05, false, &outer, &inner);
    EXPECT_EQ(rangeOf(r, inner), "[0, 32]");
    EXPECT_EQ(rangeOf(r, outer), "[0, 1]");
}

TEST(InferBound, ThreadBoundSplitIsNotTightened) {
    IterVar outer, inner;
    auto r = splitOfEight(false, 32, BoundRules::Tvm, true, &outer, &inner);
    EXPECT_EQ(rangeOf(r, inner), "[0, 32]");
}

TEST(InferBound, SymbolicShapesGiveSymbolicBounds) {
    Var n = var("n"), m = var("m");
    Tensor A = placeholder({n, m}, DataType::float32(), "A");
    Tensor B = compute(
        {n, m},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * f32(2);
        },
        "B");
    Tensor C = compute(
        {n, m},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1]}) + f32(1);
        },
        "C");
    Schedule s = createSchedule(C.op);
    auto [xo, xi] = s[C].split(C.op.as<ComputeOpNode>()->axis[0], 8);
    s[B].computeAt(s[C], xo);
    auto r = infer(s);
    EXPECT_EQ(rangeOf(r, xo), "[0, floordiv((n + 7), 8)]");
    EXPECT_EQ(region(r, B), "[(i.outer*8), 8], [0, m]");
}

TEST(InferBound, ExactDivisionOfASymbolicExtent) {
    Var m = var("m");
    Tensor A = placeholder({m * 8}, DataType::float32(), "A");
    Tensor B = compute(
        {m * 8}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Schedule s = createSchedule(B.op);
    auto [xo, xi] = s[B].split(B.op.as<ComputeOpNode>()->axis[0], 8);
    auto r = infer(s);
    EXPECT_EQ(rangeOf(r, xo), "[0, m]");
}

TEST(InferBound, ReduceAxesKeepTheirDomain) {
    Tensor A = placeholder({16, 32}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 32), "k");
    Tensor B = compute(
        {16},
        [&](const std::vector<Var>& v) {
            return sum(A({v[0], k->var}), k);
        },
        "B");
    Schedule s = createSchedule(B.op);
    auto r = infer(s);
    EXPECT_EQ(rangeOf(r, k), "[0, 32]");
}

TEST(InferBound, SeveralConsumersWithDifferentRequestsAreUnited) {
    Tensor A = placeholder({20}, DataType::float32(), "A");
    Tensor B = compute(
        {20}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Tensor C = compute(
        {10}, [&](const std::vector<Var>& v) { return B({v[0]}) * f32(2); }, "C");
    Tensor D = compute(
        {10}, [&](const std::vector<Var>& v) { return B({v[0] + 5}) * f32(3); }, "D");
    Tensor E = compute(
        {10}, [&](const std::vector<Var>& v) { return C({v[0]}) + D({v[0]}); }, "E");
    Schedule s = createSchedule(E.op);
    auto r = infer(s);
    EXPECT_EQ(region(r, B), "[0, 15]");
}

TEST(InferBound, LocalScopeKeepsThreadAxesAsPoints) {
    Tensor A = placeholder({1024}, DataType::float32(), "A");
    Tensor B = compute(
        {1024}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {1024}, [&](const std::vector<Var>& v) { return B({v[0]}) + f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    auto [bx, tx] = s[C].split(C.op.as<ComputeOpNode>()->axis[0], 64);
    s[C].bind(bx, threadAxis("blockIdx.x"));
    s[C].bind(tx, threadAxis("threadIdx.x"));
    s[B].computeAt(s[C], tx);
    auto r = infer(s);
    EXPECT_EQ(region(r, B), "[((blockIdx.x*64) + threadIdx.x), 1]");
    EXPECT_EQ(r.trace.find(B.op)->scope, "local");
}

TEST(InferBound, WarpScopeRelaxesOnlyThreadIdxX) {
    test::WarpPair w;
    Schedule& s = w.s;
    s[w.C].bind(w.axis(w.C)[0], threadAxis("threadIdx.y"));
    IterVar tx = threadAxis("threadIdx.x");
    s[w.C].bind(w.axis(w.C)[1], tx);
    s[w.B].setScope("warp");
    s[w.B].computeAt(s[w.C], w.axis(w.C)[0]);
    s[w.B].bind(w.axis(w.B)[1], tx);
    auto r = infer(s);
    EXPECT_EQ(region(r, w.B), "[threadIdx.y, 1], [0, 32]");
}

TEST(InferBound, ClampsARequestThatCoversTheWholeShape) {
    Tensor A = placeholder({16}, DataType::float32(), "A");
    Tensor B = compute(
        {16}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    IterVar k = reduceAxis(Range(0, 3), "k");
    Tensor C = compute(
        {16}, [&](const std::vector<Var>& v) { return sum(B({v[0] + k->var - 1}), k); }, "C");
    Schedule s = createSchedule(C.op);
    auto r = infer(s);
    EXPECT_EQ(region(r, B), "[0, 16]");
    const RequestEntry& request = r.trace.find(B.op)->consumers[0].requests[0];
    EXPECT_EQ(request.evaluated.toString(), "[-1, 16]");
    EXPECT_TRUE(request.clamped);
}

TEST(InferBound, ProducerOutsideItsConsumersLoopNestIsAnError) {
    Tensor A = placeholder({8}, DataType::float32(), "A");
    Tensor B = compute(
        {8}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Tensor C = compute(
        {8}, [&](const std::vector<Var>& v) { return B({v[0]}) * f32(2); }, "C");
    Tensor D = compute(
        {8}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(3); }, "D");
    Tensor E = compute(
        {8}, [&](const std::vector<Var>& v) { return C({v[0]}) + D({v[0]}); }, "E");
    Schedule s = createSchedule(E.op);
    s[B].computeAt(s[D], D.op.as<ComputeOpNode>()->axis[0]);
    try {
        infer(s);
        FAIL() << "expected an error";
    } catch (const UserError& e) {
        // Said from the compute_at that made it (issue 13, item 5), with what it is about.
        EXPECT_EQ(
            std::string(e.what()),
            "invalid schedule: 'B' is computed at loop 'i' of 'D', but its consumer 'C' does not "
            "run "
            "inside that loop, so no iteration of 'i' can compute what 'C' reads (TVM: cannot find "
            "the producer along the loop nest)");
        const DiagnosticSubject& subject = e.diagnostic().subject;
        EXPECT_EQ(subject.kind, "attach-no-path");
        EXPECT_EQ(subject.stage, "B");
        EXPECT_EQ(subject.otherStage, "D");
        EXPECT_EQ(subject.consumer, "C");
        EXPECT_EQ(subject.iterVar, "i");
        EXPECT_EQ(subject.iterVarId, D.op.as<ComputeOpNode>()->axis[0].get());
    }
}

TEST(BoundTrace, SerialisesEveryPhaseToJson) {
    SharedExample ex(true, false);
    auto r = infer(ex.s);
    std::string json = r.trace.toJson();
    for (const char* key : {"\"phase1_leaf_sets\"", "\"relax_set\"", "\"phase2_root_sets\"",
                            "\"phase3_requests\"", "\"phase4_root_bounds\"", "\"attach_path\"",
                            "\"scope\": \"shared\"", "\"[blockIdx.x, blockIdx.x]\""})
        EXPECT_NE(json.find(key), std::string::npos) << key;
}

TEST(BoundTrace, VisitsOutputsFirst) {
    SharedExample ex(true, false);
    auto r = infer(ex.s);
    ASSERT_EQ(r.trace.stages.size(), 3u);
    EXPECT_EQ(r.trace.stages[0].op->name, "C");
    EXPECT_EQ(r.trace.stages[1].op->name, "B");
    EXPECT_EQ(r.trace.stages[2].op->name, "A");
}
