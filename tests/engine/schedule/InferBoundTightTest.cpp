// The tight rule set (schedule/InferBoundTight.h): exact per-iteration needs with static
// realize regions, and the seed's split remainders; the seed's examples keep their numbers.
#include "schedule/InferBoundTight.h"
#include "arith/ConstEval.h"
#include "engine/GatherBound.h"
#include "engine/WarpPair.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "schedule/Graph.h"
#include "schedule/InferBound.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

#define REQUIRE_ISL()                                                                              \
    if (!hasIsl())                                                                                 \
    GTEST_SKIP() << "built without ISL"

InferBoundResult infer(const Schedule& s, BoundRules rules = BoundRules::Tight) {
    return inferBound(s.normalize(), rules);
}

std::string show(const Range& r) { return "[" + toString(r.min) + ", " + toString(r.extent) + "]"; }

std::string rangeOf(const InferBoundResult& r, const IterVar& iv) {
    auto it = r.bounds.find(iv);
    return it == r.bounds.end() ? "<none>" : show(it->second);
}

/// The loops' region of a compute stage, `[min, extent]` per axis.
std::string region(const InferBoundResult& r, const Tensor& t) {
    std::string out;
    for (const IterVar& iv : t.op.as<ComputeOpNode>()->axis)
        out += (out.empty() ? "" : ", ") + rangeOf(r, iv);
    return out;
}

/// The realized region: the static realize bound where the tight rules set one.
std::string realized(const InferBoundResult& r, const Tensor& t) {
    std::string out;
    for (const IterVar& iv : t.op.as<ComputeOpNode>()->axis) {
        auto it = r.realizeBounds.find(iv);
        out += (out.empty() ? "" : ", ") +
               (it != r.realizeBounds.end() ? show(it->second) : rangeOf(r, iv));
    }
    return out;
}

const ComputeOpNode* opOf(const Tensor& t) { return t.op.as<ComputeOpNode>(); }
Expr f32(double v) { return makeConst(DataType::float32(), v); }

/// C = B over 64x64, fused, split (nparts or factor), B computed at the outer loop.
struct FuseSplit {
    Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                       {"i", "j"});
    Tensor C = compute({64, 64},
                       [this](const std::vector<Var>& v) {
                           return B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    IterVar outer, inner;
    FuseSplit(bool nparts, int n) {
        IterVar fused = s[C].fuse(opOf(C)->axis[0], opOf(C)->axis[1]);
        auto parts = nparts ? s[C].splitByNParts(fused, n) : s[C].split(fused, n);
        outer = parts.first;
        inner = parts.second;
        s[B].computeAt(s[C], outer);
    }
};

/// C = B + 1 over `extent`, split by `factor`, B computed at the outer loop (seed 002's
/// remainder case with extent 20 and factor 16).
struct Remainder {
    Tensor A, B, C;
    Schedule s;
    IterVar outer, inner;
    explicit Remainder(Expr extent = 20, int factor = 16, bool attach = true) {
        A = placeholder({extent}, DataType::float32(), "A");
        B = compute(
            {extent}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
        C = compute(
            {extent}, [&](const std::vector<Var>& v) { return B({v[0]}) + f32(1); }, "C");
        s = createSchedule(C.op);
        std::tie(outer, inner) = s[C].split(opOf(C)->axis[0], factor);
        if (attach)
            s[B].computeAt(s[C], outer);
    }
};

/// Ex. 6-8 of seed 000: B (shared or inferred) under C bound to blockIdx/threadIdx.
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
    Schedule s = createSchedule(C.op);
    SharedExample(bool setShared, bool attachAtJ) {
        IterVar threadX = threadAxis("threadIdx.x");
        s[C].bind(opOf(C)->axis[0], threadAxis("blockIdx.x"));
        s[C].bind(opOf(C)->axis[1], threadX);
        if (setShared)
            s[B].setScope("shared");
        s[B].computeAt(s[C], attachAtJ ? opOf(C)->axis[1] : opOf(C)->axis[0]);
        s[B].bind(opOf(B)->axis[1], threadX);
    }
};

} // namespace

TEST(InferBoundTight, NeedsIslOrSaysSo) {
    Remainder ex;
    if (hasIsl()) {
        EXPECT_NO_THROW(infer(ex.s));
        return;
    }
    try {
        infer(ex.s);
        FAIL() << "expected an error";
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "the tight and compact rule sets need ISL, which this build lacks");
    }
}

TEST(InferBoundTight, FuseExampleKeepsTheEightElementRowSegment) {
    REQUIRE_ISL();
    FuseSplit ex(/*nparts=*/true, 512);
    auto r = infer(ex.s);
    EXPECT_EQ(region(r, ex.B),
              "[floordiv(i.j.fused.outer, 8), 1], [(floormod(i.j.fused.outer, 8)*8), 8]");
    EXPECT_TRUE(r.realizeBounds.empty());
    EXPECT_TRUE(r.loopExtents.empty());
}

TEST(InferBoundTight, UnalignedFuseRealizesTwoWholeRowsStatically) {
    REQUIRE_ISL();
    FuseSplit ex(/*nparts=*/false, 48);
    auto r = infer(ex.s);
    EXPECT_EQ(realized(r, ex.B), "[floordiv((i.j.fused.outer*48), 64), 2], [0, 64]");
    // The loops compute the rows one iteration touches: one or two, one on the last iteration,
    // which holds only the 16 elements left of the 4096.
    Expr rows = r.bounds.at(opOf(ex.B)->axis[0]).extent;
    for (int64_t o = 0; o < 86; ++o) {
        int64_t first = o * 48 / 64, last = std::min(o * 48 + 47, int64_t(4095)) / 64;
        EXPECT_EQ(evaluateInt(rows, {{ex.outer->var, o}}), last - first + 1) << "outer " << o;
    }
    auto tvm = infer(ex.s, BoundRules::Tvm);
    EXPECT_FALSE(asConstInt(tvm.bounds.at(opOf(ex.B)->axis[0]).extent).has_value());
}

TEST(InferBoundTight, SplitRemainderLoopRunsOnlyTheRemainder) {
    REQUIRE_ISL();
    Remainder ex;
    auto r = infer(ex.s);
    ASSERT_EQ(r.loopExtents.count(ex.inner), 1u);
    EXPECT_EQ(toString(r.loopExtents.at(ex.inner)), "min(16, (20 - (i.outer*16)))");
    EXPECT_EQ(rangeOf(r, ex.inner), "[0, 16]"); // the factor stays the outer loop's stride
    EXPECT_EQ(rangeOf(r, ex.outer), "[0, 2]");
    EXPECT_EQ(region(r, ex.B), "[(i.outer*16), min(16, (20 - (i.outer*16)))]");
    EXPECT_EQ(realized(r, ex.B), "[(i.outer*16), 16]");
    EXPECT_TRUE(r.provenInRange.count(opOf(ex.C)->axis[0]));
    EXPECT_TRUE(r.provenInRange.count(opOf(ex.B)->axis[0]));
}

TEST(InferBoundTight, SeedExamplesKeepTheirNumbers) {
    REQUIRE_ISL();
    auto twoStages = [](int attach, bool split) {
        Tensor C =
            compute({5, 16}, [](const std::vector<Var>&) { return Expr(5); }, "C", "", {"i", "j"});
        Tensor D = compute({5, 16},
                           [&](const std::vector<Var>& v) {
                               return C({v[0], v[1]}) * 2;
                           },
                           "D", "", {"i", "j"});
        Schedule s = createSchedule(D.op);
        IterVar at = attach >= 0 ? opOf(D)->axis[size_t(attach)] : IterVar();
        if (split)
            at = s[D].split(opOf(D)->axis[1], 8).second;
        if (at.defined())
            s[C].computeAt(s[D], at);
        auto tvm = infer(s, BoundRules::Tvm), tight = infer(s);
        EXPECT_EQ(region(tight, C), region(tvm, C));
        EXPECT_TRUE(tight.realizeBounds.empty());
        return region(tight, C);
    };
    EXPECT_EQ(twoStages(-1, false), "[0, 5], [0, 16]");                     // Ex. 1
    EXPECT_EQ(twoStages(1, false), "[i, 1], [j, 1]");                       // Ex. 2
    EXPECT_EQ(twoStages(0, false), "[i, 1], [0, 16]");                      // Ex. 3
    EXPECT_EQ(twoStages(-1, true), "[i, 1], [((j.outer*8) + j.inner), 1]"); // Ex. 5
    for (bool shared : {true, false})
        for (bool atJ : {false, true}) {
            SharedExample ex(shared, atJ && shared);
            auto r = infer(ex.s);
            EXPECT_EQ(realized(r, ex.B), "[blockIdx.x, 1], [0, 200]"); // Ex. 6, 7, 8
        }
}

TEST(InferBoundTight, AttachPathLoopsTheProducerDoesNotUseStayPoints) {
    REQUIRE_ISL();
    Tensor C =
        compute({5, 16}, [](const std::vector<Var>&) { return Expr(5); }, "C", "", {"i", "j"});
    Tensor D = compute({4, 5, 16},
                       [&](const std::vector<Var>& v) {
                           return C({v[1], v[2]}) * 2;
                       },
                       "D", "", {"di", "dj", "dk"});
    Tensor E = compute({4, 5, 16},
                       [&](const std::vector<Var>& v) {
                           return D({v[0], v[1], v[2]}) * 4;
                       },
                       "E", "", {"ei", "ej", "ek"});
    Schedule s = createSchedule(E.op);
    s[C].computeAt(s[D], opOf(D)->axis[2]); // Ex. 4
    s[D].computeAt(s[E], opOf(E)->axis[1]); // and a chained attach
    auto r = infer(s);
    EXPECT_EQ(region(r, C), "[ej, 1], [dk, 1]");
    EXPECT_EQ(region(r, D), "[ei, 1], [ej, 1], [0, 16]");
}

TEST(InferBoundTight, SymbolicExtentsStaySymbolicOnlyInTheShape) {
    REQUIRE_ISL();
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
    auto [xo, xi] = s[C].split(opOf(C)->axis[0], 8);
    s[B].computeAt(s[C], xo);
    auto r = infer(s);
    EXPECT_EQ(region(r, B), "[(i.outer*8), min(8, (n - (i.outer*8)))], [0, m]");
    EXPECT_EQ(realized(r, B), "[(i.outer*8), 8], [0, m]");
    EXPECT_EQ(toString(r.loopExtents.at(xi)), "min(8, (n - (i.outer*8)))");
}

TEST(InferBoundTight, DisjointConsumerRequestsStillCoverTheWholeTensor) {
    REQUIRE_ISL();
    const test::GatherBound g;
    auto r = infer(g.schedule());
    EXPECT_EQ(realized(r, g.T), "[0, 4], [0, 4]");
}

TEST(InferBoundTight, StridedReadKeepsItsIntervalHull) {
    REQUIRE_ISL();
    Tensor A = placeholder({16}, DataType::float32(), "A");
    Tensor B = compute(
        {16}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Tensor C = compute(
        {8}, [&](const std::vector<Var>& v) { return B({v[0] * 2}) * f32(2); }, "C");
    auto r = infer(createSchedule(C.op));
    EXPECT_EQ(realized(r, B), "[0, 15]");
}

TEST(InferBoundTight, AReversedReadIsWrittenSoIslReadsIt) {
    REQUIRE_ISL();
    // A review found: T[-1*i + 2] was handed to ISL as `((-1)*i)`, a syntax error to ISL, and
    // the tight rules kept the interval box. ISL reads `(-1*i)`.
    Tensor A = placeholder({16, 10}, DataType::float32(), "A");
    Tensor T = compute(
        {16, 10},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) + f32(1);
        },
        "T");
    Tensor Out = compute(
        {3, 3},
        [&](const std::vector<Var>& v) {
            return T({Expr(-1) * v[0] + 2, v[1]}) + T({v[0] * 3 + 9, v[1] * 3 + 3});
        },
        "Out");
    Schedule s = createSchedule(Out.op);
    s[T].computeAt(s[Out], opOf(Out)->axis[1]);
    auto r = infer(s);
    for (const BoundStep& step : r.steps.all())
        EXPECT_EQ(step.text.find("ISL failed"), std::string::npos) << step.text;
    // One iteration reads (2 - i, j) and (3i + 9, 3j + 3): its exact box spans both.
    EXPECT_EQ(region(r, T), "[(2 - i), ((i*4) + 8)], [j, ((j*2) + 4)]");
}

TEST(InferBoundTight, SeveralConsumersAreUnitedExactly) {
    REQUIRE_ISL();
    Tensor A = placeholder({20}, DataType::float32(), "A");
    Tensor B = compute(
        {20}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Tensor C = compute(
        {10}, [&](const std::vector<Var>& v) { return B({v[0]}) * f32(2); }, "C");
    Tensor D = compute(
        {10}, [&](const std::vector<Var>& v) { return B({v[0] + 5}) * f32(3); }, "D");
    Tensor E = compute(
        {10}, [&](const std::vector<Var>& v) { return C({v[0]}) + D({v[0]}); }, "E");
    auto r = infer(createSchedule(E.op));
    EXPECT_EQ(realized(r, B), "[0, 15]");
}

TEST(InferBoundTight, ReductionAttachedAtTheReduceOuterLoop) {
    REQUIRE_ISL();
    Tensor A = placeholder({16, 20}, DataType::float32(), "A");
    Tensor B = compute(
        {16, 20},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * f32(2);
        },
        "B");
    IterVar k = reduceAxis(Range(0, 20), "k");
    Tensor C = compute(
        {16},
        [&](const std::vector<Var>& v) {
            return sum(B({v[0], k->var}), {k});
        },
        "C");
    Schedule s = createSchedule(C.op);
    auto [ko, ki] = s[C].split(k, 8);
    s[B].computeAt(s[C], ko);
    auto r = infer(s);
    EXPECT_EQ(region(r, B), "[i, 1], [(k.outer*8), min(8, (20 - (k.outer*8)))]");
    EXPECT_EQ(realized(r, B), "[i, 1], [(k.outer*8), 8]");
    EXPECT_EQ(toString(r.loopExtents.at(ki)), "min(8, (20 - (k.outer*8)))");
}

TEST(InferBoundTight, NpartsSplitRunsItsRemainder) {
    REQUIRE_ISL();
    Tensor A = placeholder({20}, DataType::float32(), "A");
    Tensor B = compute(
        {20}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Schedule s = createSchedule(B.op);
    auto [outer, inner] = s[B].splitByNParts(opOf(B)->axis[0], 3);
    auto r = infer(s);
    EXPECT_EQ(rangeOf(r, inner), "[0, 7]");
    EXPECT_EQ(toString(r.loopExtents.at(inner)), "min(7, (20 - (i.outer*7)))");
    EXPECT_EQ(r.loopExtents.count(outer), 0u);
}

TEST(InferBoundTight, NestedSplitsRunNestedRemainders) {
    REQUIRE_ISL();
    Remainder ex(20, 16, /*attach=*/false);
    auto [io, ii] = ex.s[ex.C].split(ex.inner, 4);
    auto r = infer(ex.s);
    ASSERT_EQ(r.loopExtents.count(io), 1u);
    ASSERT_EQ(r.loopExtents.count(ii), 1u);
    // 16 elements, then the 4 left: four inner-outer iterations, then one; four each.
    for (int64_t o = 0; o < 2; ++o) {
        int64_t left = std::min<int64_t>(16, 20 - 16 * o);
        EXPECT_EQ(evaluateInt(r.loopExtents.at(io), {{ex.outer->var, o}}), (left + 3) / 4);
        for (int64_t i = 0; i < (left + 3) / 4; ++i)
            EXPECT_EQ(evaluateInt(r.loopExtents.at(ii), {{ex.outer->var, o}, {io->var, i}}), 4);
    }
}

TEST(InferBoundTight, SplitsThatCannotRunARemainderKeepTheirFactor) {
    REQUIRE_ISL();
    auto keepsFactor = [](const std::function<void(Remainder&)>& schedule) {
        Remainder ex(20, 16, /*attach=*/false);
        schedule(ex);
        auto r = infer(ex.s);
        EXPECT_TRUE(r.loopExtents.empty());
        EXPECT_FALSE(r.provenInRange.count(opOf(ex.C)->axis[0])) << "the bound check must stay";
    };
    keepsFactor([](Remainder& ex) { ex.s[ex.C].bind(ex.inner, threadAxis("threadIdx.x")); });
    keepsFactor([](Remainder& ex) { ex.s[ex.C].vectorize(ex.inner); });
    keepsFactor([](Remainder& ex) { ex.s[ex.C].reorder({ex.inner, ex.outer}); });
}

TEST(InferBoundTight, DividingSplitsChangeNothing) {
    REQUIRE_ISL();
    Remainder ex(32, 16);
    auto tight = infer(ex.s), tvm = infer(ex.s, BoundRules::Tvm);
    EXPECT_TRUE(tight.loopExtents.empty());
    EXPECT_TRUE(tight.realizeBounds.empty());
    EXPECT_EQ(region(tight, ex.B), region(tvm, ex.B));
}

TEST(InferBoundTight, LocalAndWarpScopesWithBoundThreads) {
    REQUIRE_ISL();
    Tensor A = placeholder({1024}, DataType::float32(), "A");
    Tensor B = compute(
        {1024}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {1024}, [&](const std::vector<Var>& v) { return B({v[0]}) + f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    auto [bx, tx] = s[C].split(opOf(C)->axis[0], 64);
    s[C].bind(bx, threadAxis("blockIdx.x"));
    s[C].bind(tx, threadAxis("threadIdx.x"));
    s[B].computeAt(s[C], tx);
    EXPECT_EQ(realized(infer(s), B), "[((blockIdx.x*64) + threadIdx.x), 1]");

    test::WarpPair w;
    IterVar lane = threadAxis("threadIdx.x");
    w.s[w.C].bind(w.axis(w.C)[0], threadAxis("threadIdx.y"));
    w.s[w.C].bind(w.axis(w.C)[1], lane);
    w.s[w.B].setScope("warp");
    w.s[w.B].computeAt(w.s[w.C], w.axis(w.C)[0]);
    w.s[w.B].bind(w.axis(w.B)[1], lane);
    EXPECT_EQ(realized(infer(w.s), w.B), "[threadIdx.y, 1], [0, 32]");
}

TEST(InferBoundTight, NonAffineReadKeepsTheIntervalResult) {
    REQUIRE_ISL();
    Tensor A = placeholder({64}, DataType::float32(), "A");
    Tensor B = compute(
        {64}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Tensor C = compute(
        {8}, [&](const std::vector<Var>& v) { return B({v[0] * v[0]}); }, "C");
    auto tight = infer(createSchedule(C.op)), tvm = infer(createSchedule(C.op), BoundRules::Tvm);
    EXPECT_EQ(region(tight, B), region(tvm, B));
    const StageTrace* trace = tight.trace.find(B.op);
    EXPECT_NE(trace->rootBounds[0].source.find("not quasi-affine"), std::string::npos)
        << trace->rootBounds[0].source;
}

TEST(InferBoundTight, ASplitIntoOnePartOfASymbolicExtentStaysQuasiAffine) {
    // i = i.inner + i.outer*n multiplies two unknowns, but i.outer runs once: the model takes
    // it at its min (0) and the relation stays quasi-affine, so B's need is exact.
    REQUIRE_ISL();
    Var n("n");
    Tensor A = placeholder({n}, DataType::float32(), "A");
    Tensor B = compute(
        {n}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Tensor C = compute(
        {n}, [&](const std::vector<Var>& v) { return B({v[0]}) * f32(2); }, "C");
    Schedule s = createSchedule(C.op);
    s[C].splitByNParts(opOf(C)->axis[0], 1);
    InferBoundResult r = infer(s);
    EXPECT_EQ(region(r, B), "[0, n]");
    EXPECT_EQ(r.steps.at(r.steps.rangeStep(opOf(B)->axis[0])).rule, "exact-box");
}

TEST(InferBoundTight, TraceRecordsTheTightRange) {
    REQUIRE_ISL();
    Remainder ex;
    auto r = infer(ex.s);
    const StageTrace* trace = r.trace.find(ex.B.op);
    ASSERT_EQ(trace->rootBounds.size(), 1u);
    EXPECT_EQ(show(trace->rootBounds[0].range), "[(i.outer*16), min(16, (20 - (i.outer*16)))]");
    EXPECT_NE(
        trace->rootBounds[0].source.find("tight: the exact per-iteration need, realize extent 16"),
        std::string::npos)
        << trace->rootBounds[0].source;
    EXPECT_EQ(r.trace.rules, BoundRules::Tight);
}

TEST(InferBoundTight, OtherRuleSetsHaveNoTightResults) {
    Remainder ex;
    for (BoundRules rules : {BoundRules::Tvm, BoundRules::Tvm05}) {
        auto r = infer(ex.s, rules);
        EXPECT_TRUE(r.loopExtents.empty());
        EXPECT_TRUE(r.realizeBounds.empty());
        EXPECT_TRUE(r.provenInRange.empty());
        EXPECT_EQ(region(r, ex.B), "[(i.outer*16), 16]");
    }
}

TEST(InferBoundTight, ANestAsDeepAsTheProgramKeepsEveryStageExact) {
    // Each stage computed at its consumer's row loop: every attach path is as deep as the rest
    // of the nest, and each of its loops but the outermost runs one iteration. Those loops are
    // aliased to their min rather than made parameters of every set (a 100-deep nest took 12 s
    // before). Each stage reads its producer's row shifted by one column, clamped: the columns
    // needed shrink by one per level, exactly.
    REQUIRE_ISL();
    constexpr int kStages = 60;
    std::vector<Tensor> ts = {compute(
        {64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "s0")};
    for (int i = 1; i < kStages; ++i) {
        const Tensor previous = ts.back();
        ts.push_back(compute(
            {64, 64},
            [&](const std::vector<Var>& v) {
                return previous({v[0], min(v[1] + 1, 63)}) + 1;
            },
            "s" + std::to_string(i)));
    }
    Schedule s = createSchedule(ts.back().op);
    for (size_t i = 0; i + 1 < ts.size(); ++i)
        s[ts[i]].computeAt(s[ts[i + 1]], opOf(ts[i + 1])->axis[0]);
    InferBoundResult r = infer(s);
    for (size_t i = 0; i + 1 < ts.size(); ++i) {
        const IterVar& row = opOf(ts[i])->axis[0];
        const IterVar& column = opOf(ts[i])->axis[1];
        const int depth = int(ts.size() - 1 - i); // levels below the output
        EXPECT_TRUE(isOne(r.bounds.at(row).extent)) << ts[i].name() << ": " << rangeOf(r, row);
        EXPECT_EQ(rangeOf(r, column),
                  "[" + std::to_string(depth) + ", " + std::to_string(64 - depth) + "]")
            << ts[i].name();
        EXPECT_EQ(r.steps.at(r.steps.rangeStep(column)).rule, "exact-box") << ts[i].name();
    }
}

TEST(InferBoundTight, ReadsTvmGetsExactlySkipIslButNotPastTheDom) {
    // C reads B[i, j] and B[i, j + 1]: TVM's interval for j is [0, 65), one past B's dom, which
    // the bound check guards. The shortcut for reads TVM already gets exactly (a root variable
    // plus a constant, inside the dom) must not take it: ISL cuts the range to the dom.
    REQUIRE_ISL();
    Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                       {"i", "j"});
    Tensor C = compute({64, 64},
                       [&](const std::vector<Var>& v) {
                           return B({v[0], v[1]}) + B({v[0], v[1] + 1});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    s[B].computeAt(s[C], opOf(C)->axis[0]);
    InferBoundResult tvm = infer(s, BoundRules::Tvm);
    EXPECT_EQ(region(tvm, B), "[i, 1], [0, 65]");
    InferBoundResult r = infer(s);
    EXPECT_EQ(region(r, B), "[i, 1], [0, 64]");
    // Without the shifted read TVM's range is exact, and the tight rules keep it.
    Tensor D = compute({64, 64},
                       [&](const std::vector<Var>& v) {
                           return B({v[0], v[1]}) * 2;
                       },
                       "D", "", {"i", "j"});
    Schedule s2 = createSchedule(D.op);
    s2[B].computeAt(s2[D], opOf(D)->axis[0]);
    InferBoundResult exact = infer(s2);
    EXPECT_EQ(region(exact, B), "[i, 1], [0, 64]");
    EXPECT_EQ(exact.steps.at(exact.steps.rangeStep(opOf(B)->axis[1])).rule, "exact-box");
}

/// A nest of like stages s0 .. s{n-1}, each reading its producer twice (a row and its mirror).
std::vector<Tensor> likeStages(int n) {
    std::vector<Tensor> ts = {compute(
        {16, 16}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "s0")};
    for (int i = 1; i < n; ++i) {
        const Tensor previous = ts.back();
        ts.push_back(compute(
            {16, 16},
            [&](const std::vector<Var>& v) {
                return previous({v[0], v[1]}) + previous({v[0], 15 - v[1]});
            },
            "s" + std::to_string(i)));
    }
    return ts;
}

/// Each stage of `ts` but the last counted alone and through one cache (which also places the
/// attach-path loops with a LoopIndex instead of reading the paths): the same counts, regions
/// and reads. Returns the cache's distinct models.
size_t expectCachedCountsAreEachStages(const Schedule& s, const std::vector<Tensor>& ts,
                                       int64_t needed) {
    Schedule normalized = s.normalize();
    InferBoundResult r = inferBound(normalized, BoundRules::Tight);
    IterVarMap<IterVar> bindMap = createBindMap(normalized);
    StageNeedCache cache;
    for (size_t i = 0; i + 1 < ts.size(); ++i) {
        const Operation op = normalized.findStage(ts[i].op)->op;
        std::optional<StageNeed> alone = analyzeStageNeed(normalized, r, op);
        std::optional<StageNeed> cached = analyzeStageNeed(normalized, r, op, bindMap, &cache);
        EXPECT_TRUE(alone && cached) << ts[i].name();
        if (!alone || !cached)
            continue;
        EXPECT_EQ(cached->needed, alone->needed) << ts[i].name();
        EXPECT_EQ(cached->needed, std::optional<int64_t>(needed)) << ts[i].name();
        EXPECT_EQ(cached->distinct, alone->distinct) << ts[i].name();
        EXPECT_EQ(cached->hull, alone->hull) << ts[i].name();
        EXPECT_EQ(cached->accesses.size(), 2u) << ts[i].name();
        for (size_t a = 0; a < std::min<size_t>(2, cached->accesses.size()); ++a) {
            EXPECT_EQ(cached->accesses[a].region, alone->accesses[a].region) << ts[i].name();
            EXPECT_TRUE(cached->accesses[a].consumer.same_as(alone->accesses[a].consumer))
                << ts[i].name();
            EXPECT_EQ(toString(cached->accesses[a].indices[1]),
                      toString(alone->accesses[a].indices[1]));
        }
    }
    return cache.entries();
}

TEST(InferBoundTight, CachedStageNeedsAreTheCountsOfEachStage) {
    // A nest of like stages: their models read the same, so a shared cache counts them once;
    // every stage still gets its own counts, regions and reads.
    REQUIRE_ISL();
    std::vector<Tensor> ts = likeStages(12);
    Schedule s = createSchedule(ts.back().op);
    for (size_t i = 0; i + 1 < ts.size(); ++i)
        s[ts[i]].computeAt(s[ts[i + 1]], opOf(ts[i + 1])->axis[0]);
    // The stages in the middle of the nest share their model.
    EXPECT_LT(expectCachedCountsAreEachStages(s, ts, 16), 5u);
}

TEST(InferBoundTight, CachedStageNeedsOfASplitNestPlaceEveryPathLoop) {
    // Each stage split 4 x 4 by rows and computed at its consumer's inner row loop: every path
    // holds two loops per stage, of which the models name those of several rows out. The
    // cache's LoopIndex places them where reading the path does.
    REQUIRE_ISL();
    std::vector<Tensor> ts = likeStages(8);
    Schedule s = createSchedule(ts.back().op);
    std::vector<IterVar> inner;
    for (const Tensor& t : ts)
        inner.push_back(s[t].split(opOf(t)->axis[0], 4).second);
    for (size_t i = 0; i + 1 < ts.size(); ++i)
        s[ts[i]].computeAt(s[ts[i + 1]], inner[i + 1]);
    expectCachedCountsAreEachStages(s, ts, 16);
}
