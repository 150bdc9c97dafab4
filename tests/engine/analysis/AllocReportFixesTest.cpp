// Issue 13, item 7: the causes of the allocation report fire only when their condition holds, name
// the mechanism, and propose only schedule changes that were tried and help; the waste is
// measured against the rules selected. Each hint is also applied here by hand, to check that
// it really gives what it says.
#include "AllocReportTestUtil.h"

#include "engine/GatherBound.h"
#include "engine/WarpPair.h"
#include "ir/Op.h"
#include "te/Reduce.h"

using namespace bs;
using namespace bs::test;

namespace {

/// 64x64 fused, split by `factor`, B computed at the outer loop.
Schedule fusedSplit(int factor) {
    Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                       {"i", "j"});
    Tensor C = compute({64, 64},
                       [&](const std::vector<Var>& v) {
                           return B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    IterVar fused = s[C].fuse(opOf(C)->axis[0], opOf(C)->axis[1]);
    auto parts = s[C].split(fused, factor);
    s[B].computeAt(s[C], parts.first);
    return s;
}

Schedule fusedSplitByParts(int nparts) {
    Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                       {"i", "j"});
    Tensor C = compute({64, 64},
                       [&](const std::vector<Var>& v) {
                           return B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    IterVar fused = s[C].fuse(opOf(C)->axis[0], opOf(C)->axis[1]);
    auto parts = s[C].splitByNParts(fused, nparts);
    s[B].computeAt(s[C], parts.first);
    return s;
}

/// T read by two consumers at disjoint boxes; `inlineT` inlines it.
Schedule gather(bool inlineT) {
    const test::GatherBound g;
    Schedule s = g.schedule();
    if (inlineT)
        s[g.T].computeInline();
    return s;
}

/// B read at `i + (0 - i)`: always element 0, but intervals see [-9, 9].
Schedule repeatedIndex() {
    Tensor A = placeholder({10}, DataType::float32(), "A");
    Tensor B = compute(
        {10}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {10},
        [&](const std::vector<Var>& v) {
            return B({v[0] + (makeZero(DataType::int32()) - v[0])}) + f32(1);
        },
        "C");
    return createSchedule(C.op);
}

std::vector<std::string> allHints(const AllocReport& r) {
    std::vector<std::string> out;
    for (const BufferReport& b : r.buffers)
        for (const AllocCause& c : b.causes)
            out.push_back(c.hint);
    return out;
}

} // namespace

TEST(AllocReportFixes, TheAlignedSplitTheHintProposesReallyAllocatesWhatItSays) {
    REQUIRE_ISL();
    AllocReport report = allocReport(fusedSplit(48));
    const AllocCause* wrap = causeOf(buffer(report, "B"), WasteCause::FusedSegmentWrapsRow);
    ASSERT_NE(wrap, nullptr);
    EXPECT_EQ(wrap->hint,
              "split i.j.fused by factor 32 instead of 48 (segments within one row of 64): B "
              "allocates 32 instead of 128");
    EXPECT_EQ(allocated(buffer(allocReport(fusedSplit(32)), "B"), BoundRules::Tvm), 32);
}

TEST(AllocReportFixes, AnAlignedSplitHasNoWrappedRow) {
    REQUIRE_ISL();
    // Segments of 8 in rows of 64 (fuse-one-row) and of 128, exactly two rows (fuse-whole-rows
    // with nothing wasted): no row is wrapped.
    for (int factor : {8, 128}) {
        AllocReport r = allocReport(fusedSplit(factor));
        const BufferReport& b = buffer(r, "B");
        EXPECT_EQ(allocated(b, BoundRules::Tvm), b.needed) << factor;
        EXPECT_EQ(causeOf(b, WasteCause::FusedSegmentWrapsRow), nullptr) << factor;
    }
}

TEST(AllocReportFixes, InliningTheGatherSourceRemovesItsBuffer) {
    REQUIRE_ISL();
    AllocReport report = allocReport(gather(false));
    const AllocCause* disjoint = causeOf(buffer(report, "T"), WasteCause::DisjointRequests);
    ASSERT_NE(disjoint, nullptr);
    EXPECT_EQ(disjoint->hint,
              "s[T].compute_inline(): T disappears (each use computes it in place)");
    AllocReport inlined = allocReport(gather(true));
    EXPECT_EQ(inlined.find("T"), nullptr);
}

TEST(AllocReportFixes, AFixEditsTheBuffersOwnStageWhenAnotherHasItsName) {
    REQUIRE_ISL();
    // The gather with its input named T too: the fix was tried on the first stage named T (the
    // placeholder, which cannot be inlined, so the hint was lost). The schedule now names the
    // computed T `T_1`, and the fix edits it.
    const test::GatherBound g(placeholder({4, 4}, DataType::float32(), "T"));
    AllocReport report = allocReport(g.schedule());
    ASSERT_EQ(report.buffers.front().stage, "T_1");
    const AllocCause* disjoint = causeOf(report.buffers.front(), WasteCause::DisjointRequests);
    ASSERT_NE(disjoint, nullptr);
    EXPECT_EQ(disjoint->hint,
              "s[T_1].compute_inline(): T_1 disappears (each use computes it in place)");
}

TEST(AllocReportFixes, WasteIsMeasuredAgainstTheSelectedRules) {
    REQUIRE_ISL();
    AllocReportOptions seed;
    seed.rules = BoundRules::Tvm05;
    AllocReport underSeed = allocReport(fusedSplitByParts(512), seed);
    AllocReport underTvm = allocReport(fusedSplitByParts(512));
    const BufferReport& b = buffer(underSeed, "B");
    EXPECT_EQ(allocated(b, BoundRules::Tvm05), 4096);
    EXPECT_EQ(b.needed, 8);
    ASSERT_TRUE(b.wastePercent());
    EXPECT_NEAR(*b.wastePercent(), 100.0 * (4096 - 8) / 4096, 1e-9);
    ASSERT_TRUE(buffer(underTvm, "B").wastePercent());
    EXPECT_EQ(*buffer(underTvm, "B").wastePercent(), 0.0);
    EXPECT_NE(underSeed.toText().find("waste %: the share of the tvm-0.5 allocation not needed"),
              std::string::npos);
    EXPECT_NE(underSeed.toJson().find("\"waste_rules\": \"tvm-0.5\""), std::string::npos);
}

TEST(AllocReportFixes, NoHintOffersOtherRulesOrNamesACommandLineFlag) {
    REQUIRE_ISL();
    for (const Schedule& s :
         {fusedSplit(48), fusedSplitByParts(512), gather(false), repeatedIndex()})
        for (const std::string& hint : allHints(allocReport(s))) {
            EXPECT_EQ(hint.find("--"), std::string::npos) << hint;
            EXPECT_EQ(hint.find("rules"), std::string::npos) << hint;
        }
}

TEST(AllocReportFixes, AnIndexVariableUsedTwiceIsNamed) {
    REQUIRE_ISL();
    AllocReport report = allocReport(repeatedIndex());
    const BufferReport& b = buffer(report, "B");
    const AllocCause* loose = nullptr;
    for (const AllocCause& c : b.causes)
        if (c.kind == WasteCause::IntervalImprecision && c.detail.find("the tvm rules bound") == 0)
            loose = &c;
    ASSERT_NE(loose, nullptr);
    EXPECT_NE(
        loose->detail.find("uses i twice: intervals take the two uses apart and give [-9, 9]"),
        std::string::npos)
        << loose->detail;
    // No fuse or split loop exists here, and none is named.
    EXPECT_EQ(loose->detail.find("fuse"), std::string::npos) << loose->detail;
    EXPECT_EQ(loose->detail.find("split"), std::string::npos) << loose->detail;
    EXPECT_NE(loose->hint.find("without the repeated i"), std::string::npos) << loose->hint;
}

TEST(AllocReportFixes, TheSeedRulesUnclampedRequestIsNamed) {
    REQUIRE_ISL();
    // C reads B[i + k - 1], k in [0, 3): the request [-1, 8] holds B's shape [0, 7], so tvm
    // clamps it to the shape; TVM v0.5 (tvm-0.5) has no clamp and allocates [-1, 8].
    Tensor A = placeholder({8}, DataType::float32(), "A");
    Tensor B = compute(
        {8}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    IterVar k = reduceAxis(Range(0, 3), "k");
    Tensor C = compute(
        {8}, [&](const std::vector<Var>& v) { return sum(B({v[0] + k->var - 1}), {k}); }, "C");
    AllocReport report = allocReport(createSchedule(C.op));
    const BufferReport& b = buffer(report, "B");
    EXPECT_EQ(allocated(b, BoundRules::Tvm05), 10);
    EXPECT_EQ(allocated(b, BoundRules::Tvm), 8);
    const AllocCause* loose = causeOf(b, WasteCause::IntervalImprecision);
    ASSERT_NE(loose, nullptr);
    EXPECT_NE(loose->detail.find(
                  "tvm-0.5 allocates 10 elements, tvm 8: C's read of axis 0 (tvm clamps it to the "
                  "tensor's shape, tvm-0.5 does not)"),
              std::string::npos)
        << loose->detail;
    EXPECT_EQ(loose->detail.find("split"), std::string::npos) << loose->detail;
    EXPECT_EQ(loose->hint, "");
}

TEST(AllocReportFixes, ALocalStageWhoseOwnLoopIsBoundToAThreadLosesTheThreadIndex) {
    REQUIRE_ISL();
    // B is local and its own loop is bound to threadIdx.x: in a local buffer the thread index
    // contributes nothing (notes section 8), so every thread stores to the same element.
    Tensor A = placeholder({64}, DataType::float32(), "A");
    Tensor B = compute(
        {64}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {64}, [&](const std::vector<Var>& v) { return B({v[0]}) + f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    s[B].setScope("local");
    s[B].bind(opOf(B)->axis[0], threadAxis("threadIdx.x"));
    AllocReport report = allocReport(s);
    const BufferReport& b = buffer(report, "B");
    const AllocCause* vanish = causeOf(b, WasteCause::ThreadIndexVanishes);
    ASSERT_NE(vanish, nullptr);
    EXPECT_NE(vanish->detail.find("B is local, but its own loop i is bound to threadIdx.x"),
              std::string::npos)
        << vanish->detail;
    EXPECT_NE(vanish->detail.find("every thread writes the same elements"), std::string::npos)
        << vanish->detail;
    EXPECT_EQ(vanish->hint,
              "s[B].set_scope('global') (then threadIdx.x indexes it): B allocates 64");
}

TEST(AllocReportFixes, AWarpStageLosesThreadIdxYBecauseEachWarpHasItsCopy) {
    REQUIRE_ISL();
    // Warp storage is shared by a warp's lanes (threadIdx.x) only: threadIdx.y is another warp,
    // so B's loop bound to it stands at its min and each warp writes its own copy.
    test::WarpPair w;
    w.s[w.B].setScope("warp");
    w.s[w.B].bind(w.axis(w.B)[0], threadAxis("threadIdx.y"));
    w.s[w.B].bind(w.axis(w.B)[1], threadAxis("threadIdx.x"));
    AllocReport report = allocReport(w.s);
    const AllocCause* vanish = causeOf(buffer(report, "B"), WasteCause::ThreadIndexVanishes);
    ASSERT_NE(vanish, nullptr);
    EXPECT_NE(vanish->detail.find("its own loop i is bound to threadIdx.y: a warp buffer is "
                                  "private to each warp, so threadIdx.y vanishes"),
              std::string::npos)
        << vanish->detail;
}
