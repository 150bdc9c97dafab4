// The allocation report (analysis/AllocReport.h) on the examples of the InferBound issue: the
// elements allocated under each rule set, needed and computed, and the cause of every gap.
#include "AllocReportTestUtil.h"

#include "analysis/AllocReportInternal.h"
#include "ir/Substitute.h"
#include "te/Reduce.h"

#include <functional>

#include <nlohmann/json.hpp>

using namespace bs;
using namespace bs::test;

namespace {

/// 64x64 fused, split (nparts 512 or factor 48), B computed at the outer loop.
Schedule fuseExample(bool nparts, int n) {
    Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                       {"i", "j"});
    Tensor C = compute({64, 64},
                       [&](const std::vector<Var>& v) {
                           return B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    IterVar fused = s[C].fuse(opOf(C)->axis[0], opOf(C)->axis[1]);
    auto parts = nparts ? s[C].splitByNParts(fused, n) : s[C].split(fused, n);
    s[B].computeAt(s[C], parts.first);
    return s;
}

Schedule splitRemainder() {
    Tensor A = placeholder({20}, DataType::float32(), "A");
    Tensor B = compute(
        {20}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {20}, [&](const std::vector<Var>& v) { return B({v[0]}) + f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    auto [xo, xi] = s[C].split(opOf(C)->axis[0], 16);
    s[B].computeAt(s[C], xo);
    return s;
}

} // namespace

TEST(AllocReport, FuseExampleAllocatesTheWholeProducerOnlyUnderTvm05) {
    REQUIRE_ISL();
    AllocReport r = allocReport(fuseExample(/*nparts=*/true, 512));
    const BufferReport& b = buffer(r, "B");
    EXPECT_EQ(allocated(b, BoundRules::Tvm05), 4096);
    EXPECT_EQ(allocated(b, BoundRules::Tvm), 8);
    EXPECT_EQ(allocated(b, BoundRules::Tight), 8);
    EXPECT_EQ(b.needed, 8);
    EXPECT_EQ(kinds(b), std::vector<WasteCause>{WasteCause::FuseFallback});
    EXPECT_EQ(b.causes[0].rules, std::vector<BoundRules>{BoundRules::Tvm05});
    EXPECT_EQ(computed(b, BoundRules::Tvm05), 512 * 4096); // the whole of B on every iteration
    EXPECT_NE(
        b.causes[0].detail.find("B allocates 4096 instead of 8 and computes all of them on every "
                                "iteration, 2097152 in all"),
        std::string::npos)
        << b.causes[0].detail;
    EXPECT_EQ(computed(b, BoundRules::Tvm), 4096);
    EXPECT_EQ(b.distinct, 4096);
    EXPECT_EQ(b.touchedPeak, 8);
    EXPECT_EQ(b.wastePercent(), 0.0);
}

TEST(AllocReport, TwoStagesNamedAlikeGetTheirOwnTouchedCounts) {
    // `te.compute`'s default name is "compute": B (32 x 32, four rows at a time inside C's
    // outer loop) and C (32 x 16) both have it. The interpreter's traces were matched by name,
    // so B's row got C's counts (512/512 for a buffer of 128). The schedule now names C
    // `compute_1`, and the report finds buffers by identity anyway.
    const AllocReport r = TwoComputes().report();
    ASSERT_EQ(r.buffers.size(), 2u);
    const BufferReport& b = r.buffers[0];
    const BufferReport& c = r.buffers[1];
    EXPECT_EQ(b.stage, "compute");
    EXPECT_EQ(c.stage, "compute_1");
    EXPECT_FALSE(b.isOutput);
    EXPECT_TRUE(c.isOutput);
    EXPECT_EQ(allocated(b, BoundRules::Tvm), 128);
    EXPECT_EQ(b.touchedPeak, 128);
    EXPECT_EQ(b.touchedTotal, 128);
    EXPECT_EQ(b.computedRun, 1024);
    EXPECT_EQ(c.touchedPeak, 512);
    EXPECT_EQ(c.touchedTotal, 512);
    EXPECT_EQ(c.computedRun, 512);
}

TEST(AllocReport, UnalignedSplitNamesTheFusedSegmentThatWrapsARow) {
    REQUIRE_ISL();
    AllocReport r = allocReport(fuseExample(/*nparts=*/false, 48));
    const BufferReport& b = buffer(r, "B");
    const RuleAllocation* tvm = b.allocation(BoundRules::Tvm);
    EXPECT_TRUE(tvm->varies) << tvm->size; // TVM's row count is symbolic
    EXPECT_EQ(tvm->allocated, 128);
    const RuleAllocation* tight = b.allocation(BoundRules::Tight);
    EXPECT_FALSE(tight->varies);
    EXPECT_EQ(tight->allocated, 128);
    EXPECT_EQ(tight->region, "[floordiv((i.j.fused.outer*48), 64), 2], [0, 64]");
    EXPECT_EQ(b.needed, 48);
    const AllocCause* wrap = causeOf(b, WasteCause::FusedSegmentWrapsRow);
    ASSERT_NE(wrap, nullptr);
    EXPECT_EQ(wrap->summary, "the fused segment wraps a row");
    EXPECT_EQ(wrap->rules,
              (std::vector<BoundRules>{BoundRules::Tvm, BoundRules::Tight, BoundRules::Compact}));
    // Tried on a copy of the schedule (issue 13, item 7): a factor that divides the row.
    EXPECT_EQ(wrap->hint,
              "split i.j.fused by factor 32 instead of 48 (segments within one row of 64): B "
              "allocates 32 instead of 128");
    EXPECT_EQ(causeOf(b, WasteCause::StridedRead), nullptr) << "the wrap explains the box";
    EXPECT_EQ(computed(b, BoundRules::Tight), 8192); // 86 iterations of at most 2 whole rows
    EXPECT_EQ(allocated(b, BoundRules::Tvm05), 4096);
    EXPECT_EQ(computed(b, BoundRules::Tvm),
              8256);                // the last iteration's second row is past the end,
    EXPECT_EQ(b.computedRun, 8192); // skipped by TVM's bound check
    EXPECT_EQ(b.distinct, 4096);
    EXPECT_EQ(b.touchedPeak, 128);
    EXPECT_NE(wrap->detail.find("B holds 128 elements for 48 read"), std::string::npos)
        << wrap->detail;
    EXPECT_NE(
        wrap->detail.find("8192 elements for the 4096 read, each computed 2.00 times on average"),
        std::string::npos)
        << wrap->detail;
    EXPECT_EQ(causeOf(b, WasteCause::Recompute), nullptr)
        << "the wrap explains the recomputed rows";
}

TEST(AllocReport, DisjointConsumerRequestsAllocateSixteenForEight) {
    REQUIRE_ISL();
    AllocReport r = allocReport(gatherDisjoint());
    const BufferReport& t = buffer(r, "T");
    for (BoundRules rules : {BoundRules::Tvm05, BoundRules::Tvm, BoundRules::Tight})
        EXPECT_EQ(allocated(t, rules), 16) << boundRulesName(rules);
    EXPECT_EQ(t.needed, 8);
    EXPECT_EQ(t.wastePercent(), 50.0);
    ASSERT_EQ(kinds(t), std::vector<WasteCause>{WasteCause::DisjointRequests});
    EXPECT_EQ(t.causes[0].summary, "the dimension-wise union of disjoint consumer requests");
    EXPECT_NE(t.causes[0].detail.find("CA reads T[0:2, 0:2] and CB reads T[2:4, 2:4]"),
              std::string::npos)
        << t.causes[0].detail;
    // cache_read would only move the waste; inlining removes the buffer (tried on a copy).
    EXPECT_EQ(t.causes[0].hint,
              "s[T].compute_inline(): T disappears (each use computes it in place)");
    EXPECT_TRUE(buffer(r, "CA").causes.empty());
}

TEST(AllocReport, SplitRemainderIsComputedNotAllocated) {
    REQUIRE_ISL();
    AllocReport r = allocReport(splitRemainder());
    const BufferReport& b = buffer(r, "B");
    for (BoundRules rules : {BoundRules::Tvm05, BoundRules::Tvm, BoundRules::Tight})
        EXPECT_EQ(allocated(b, rules), 16);
    EXPECT_EQ(b.needed, 16);
    EXPECT_EQ(computed(b, BoundRules::Tvm), 32);
    EXPECT_EQ(computed(b, BoundRules::Tight), 20);
    const AllocCause* remainder = causeOf(b, WasteCause::SplitRemainder);
    ASSERT_NE(remainder, nullptr);
    EXPECT_NE(remainder->detail.find(
                  "C splits i (extent 20) by 16: the last iteration of i.outer needs 4"),
              std::string::npos)
        << remainder->detail;
    EXPECT_EQ(remainder->hint,
              "split i of C by factor 10 instead of 16 (it divides 20): B allocates 10 "
              "instead of 16");
    EXPECT_NE(remainder->detail.find(
                  "B computes 32 elements under tvm (the interpreter ran 20 stores: a bound "
                  "check skips the other 12), 20 under tight"),
              std::string::npos)
        << remainder->detail;
    const BufferReport& c = buffer(r, "C");
    EXPECT_EQ(computed(c, BoundRules::Tvm), 32);
    EXPECT_EQ(computed(c, BoundRules::Tight), 20);
    EXPECT_NE(causeOf(c, WasteCause::SplitRemainder), nullptr);
}

TEST(AllocReport, StridedReadIsTheIntervalHull) {
    REQUIRE_ISL();
    Tensor A = placeholder({16}, DataType::float32(), "A");
    Tensor B = compute(
        {16}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Tensor C = compute(
        {8}, [&](const std::vector<Var>& v) { return B({v[0] * 2}) * f32(2); }, "C");
    AllocReport r = allocReport(createSchedule(C.op));
    const BufferReport& b = buffer(r, "B");
    EXPECT_EQ(allocated(b, BoundRules::Tight), 15);
    EXPECT_EQ(b.needed, 8);
    ASSERT_EQ(kinds(b), std::vector<WasteCause>{WasteCause::StridedRead});
    EXPECT_NE(b.causes[0].detail.find("C reads B[(i*2)] within B[0:15]"), std::string::npos)
        << b.causes[0].detail;
    EXPECT_NE(b.causes[0].detail.find("no rectangle holds only those"), std::string::npos);
    EXPECT_EQ(b.causes[0].hint,
              "s[B].compute_inline(): B disappears (each use computes it in place)");
}

TEST(AllocReport, TheCompactColumnFollowsACacheWriteStage) {
    REQUIRE_ISL();
    // A review found: lowering realizes a cache_write stage's buffer under the original op's
    // tensor, which the compact column missed (61, tight's rectangle, instead of 16).
    Tensor A = placeholder({64}, DataType::float32(), "A");
    Tensor B = compute(
        {64}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {16}, [&](const std::vector<Var>& v) { return B({v[0] * 4 + 1}) + f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    s.cacheWrite(B, "local");
    AllocReport r = allocReport(s);
    const BufferReport& b = buffer(r, "B");
    EXPECT_EQ(allocated(b, BoundRules::Tight), 61);
    EXPECT_EQ(allocated(b, BoundRules::Compact), 16);
    const AllocCause* strided = causeOf(b, WasteCause::StridedRead);
    ASSERT_NE(strided, nullptr);
    EXPECT_NE(strided->detail.find("removed by compact storage: B holds 16 elements"),
              std::string::npos)
        << strided->detail;
}

TEST(AllocReport, CompactStorageThatStillHoldsUnreadElementsReducesTheCause) {
    REQUIRE_ISL();
    // Rows 2i and 2i + 1 and columns j + 1 and j + 10: two boxes of whole rows, of which only
    // the even rows' second box is strided. Compact storage packs the boxes (fewer than the
    // rectangle) but still holds unread elements: the cause is reduced, not removed, and still
    // names the compact rules.
    Tensor A = placeholder({16, 16}, DataType::float32(), "A");
    Tensor T = compute(
        {16, 16},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) + f32(1);
        },
        "T");
    Tensor Out = compute(
        {8, 3},
        [&](const std::vector<Var>& v) {
            return T({v[0] * 2, v[1] + 1}) + T({v[0] * 2, v[1] + 10}) + T({v[0] * 2 + 1, v[1] + 1});
        },
        "Out");
    Schedule s = createSchedule(Out.op);
    auto [io, ii] = s[Out].split(opOf(Out)->axis[0], 4);
    s[T].computeAt(s[Out], io);
    AllocReport r = allocReport(s);
    const BufferReport& t = buffer(r, "T");
    ASSERT_TRUE(allocated(t, BoundRules::Compact) && allocated(t, BoundRules::Tight));
    EXPECT_LT(*allocated(t, BoundRules::Compact), *allocated(t, BoundRules::Tight));
    EXPECT_GT(*allocated(t, BoundRules::Compact), *t.needed);
    bool reduced = false;
    for (const AllocCause& c : t.causes)
        if (c.kind == WasteCause::StridedRead || c.kind == WasteCause::DisjointRequests) {
            EXPECT_EQ(c.detail.find("removed by compact storage"), std::string::npos) << c.detail;
            reduced |= c.detail.find("reduced by compact storage") != std::string::npos;
            EXPECT_NE(std::find(c.rules.begin(), c.rules.end(), BoundRules::Compact),
                      c.rules.end());
        }
    EXPECT_TRUE(reduced);
}

TEST(AllocReport, CompactComputedIsNotGuessedPastASplitRemainder) {
    REQUIRE_ISL();
    // B at a split by 5 of 33: the last entry computes fewer; allocated x entries (42) would be
    // wrong, so the compact count is unknown.
    Tensor A = placeholder({70}, DataType::float32(), "A");
    Tensor B = compute(
        {70}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {33}, [&](const std::vector<Var>& v) { return B({v[0] * 2 + 1}) + B({v[0] * 2 + 3}); },
        "C");
    Schedule s = createSchedule(C.op);
    auto [io, ii] = s[C].split(opOf(C)->axis[0], 5);
    s[B].computeAt(s[C], io);
    AllocReport r = allocReport(s);
    const BufferReport& b = buffer(r, "B");
    EXPECT_EQ(allocated(b, BoundRules::Compact), 6);
    EXPECT_EQ(computed(b, BoundRules::Compact), std::nullopt);
}

TEST(AllocReport, SharedScopeRelaxationIsNamed) {
    REQUIRE_ISL();
    Tensor A = placeholder({200, 400}, DataType::float32(), "A");
    Tensor B = compute({200, 400},
                       [&](const std::vector<Var>& v) {
                           return f32(3.14) * A({v[0], v[1]});
                       },
                       "B", "", {"i", "j"});
    Tensor C = compute({100, 200},
                       [&](const std::vector<Var>& v) {
                           return f32(2.72) * B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    IterVar threadX = threadAxis("threadIdx.x");
    s[C].bind(opOf(C)->axis[0], threadAxis("blockIdx.x"));
    s[C].bind(opOf(C)->axis[1], threadX);
    s[B].setScope("shared");
    s[B].computeAt(s[C], opOf(C)->axis[1]); // Ex. 7: at j, itself bound to threadIdx.x
    s[B].bind(opOf(B)->axis[1], threadX);
    AllocReport r = allocReport(s);
    const BufferReport& b = buffer(r, "B");
    EXPECT_EQ(b.scope, "shared");
    EXPECT_EQ(allocated(b, BoundRules::Tight), 200);
    EXPECT_EQ(b.needed, 200);
    EXPECT_EQ(b.perThread, 1);
    EXPECT_EQ(computed(b, BoundRules::Tvm), 20000)
        << "one element per thread of each of 100 blocks";
    const AllocCause* relax = causeOf(b, WasteCause::ThreadRelaxation);
    ASSERT_NE(relax, nullptr);
    EXPECT_NE(relax->detail.find("threadIdx.x relaxed"), std::string::npos) << relax->detail;
    EXPECT_NE(relax->detail.find("intended when the threads of a block load it together"),
              std::string::npos);
    EXPECT_EQ(relax->hint, "")
        << "a local B would not hold fewer: every thread of the block reads it";
}

TEST(AllocReport, GlobalBufferInsideThreadLoopsIsSharedByAllThreads) {
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
    s[B].setScope("global");
    s[B].computeAt(s[C], tx);
    AllocReport r = allocReport(s);
    const BufferReport& b = buffer(r, "B");
    EXPECT_EQ(allocated(b, BoundRules::Tvm), 1024);
    EXPECT_EQ(b.perThread, 1);
    const AllocCause* relax = causeOf(b, WasteCause::ThreadRelaxation);
    ASSERT_NE(relax, nullptr);
    EXPECT_NE(relax->detail.find("threadIdx.x, blockIdx.x relaxed"), std::string::npos)
        << relax->detail;
}

TEST(AllocReport, ExactSchedulesHaveNoCauses) {
    REQUIRE_ISL();
    Tensor C =
        compute({5, 16}, [](const std::vector<Var>&) { return Expr(5); }, "C", "", {"i", "j"});
    Tensor D = compute({5, 16},
                       [&](const std::vector<Var>& v) {
                           return C({v[0], v[1]}) * 2;
                       },
                       "D", "", {"i", "j"});
    Schedule s = createSchedule(D.op);
    s[C].computeAt(s[D], opOf(D)->axis[0]); // Ex. 3: one row of C per row of D
    AllocReport r = allocReport(s);
    const BufferReport& c = buffer(r, "C");
    EXPECT_EQ(allocated(c, BoundRules::Tvm), 16);
    EXPECT_EQ(c.needed, 16);
    EXPECT_EQ(computed(c, BoundRules::Tvm), 80);
    EXPECT_TRUE(c.causes.empty());
    EXPECT_TRUE(buffer(r, "D").isOutput);
    EXPECT_EQ(buffer(r, "D").needed, 80);
}

TEST(AllocReport, InterpreterCountsTouchedElements) {
    REQUIRE_ISL();
    AllocReport r = allocReport(splitRemainder());
    const BufferReport& b = buffer(r, "B");
    EXPECT_EQ(b.touchedPeak, 16); // the first iteration of i.outer writes and reads 16
    EXPECT_EQ(buffer(r, "C").touchedTotal, 20);
    AllocReportOptions never;
    never.interpreterBudget = 0;
    EXPECT_FALSE(buffer(allocReport(splitRemainder(), never), "B").touchedPeak.has_value());
}

/// B computed at C's tile loop (4 rows of 64 per tile, 64 tiles); C reads B at `column`.
Schedule tiledPair(const std::function<Expr(const Var& column)>& column) {
    Tensor A = placeholder({256, 64}, DataType::float32(), "A");
    Tensor B = compute(
        {256, 64},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * f32(2);
        },
        "B");
    Tensor C = compute(
        {256, 64},
        [&](const std::vector<Var>& v) {
            return B({v[0], column(v[1])}) + f32(1);
        },
        "C");
    Schedule s = createSchedule(C.op);
    auto [yo, yi] = s[C].split(opOf(C)->axis[0], 4);
    s[B].computeAt(s[C], yo);
    return s;
}

TEST(AllocReport, PastTheBudgetTouchedCountsAreCountedFromTheAccessSets) {
    // The whole run measures B's tile and C; with a budget of a tenth of the work, both are
    // counted exactly from their access sets instead: the same numbers, and nothing runs.
    REQUIRE_ISL();
    Schedule s = tiledPair([](const Var& x) { return Expr(x); });
    AllocReport whole = allocReport(s);
    EXPECT_EQ(buffer(whole, "B").touchedPeak, 256);
    EXPECT_EQ(buffer(whole, "B").touchedTotal, 256);
    EXPECT_EQ(buffer(whole, "C").touchedTotal, 256 * 64);
    EXPECT_FALSE(buffer(whole, "B").touchedCounted) << "a run within the budget is measured";

    AllocReportOptions small;
    small.interpreterBudget = 2 * 256 * 64 / 10;
    AllocReport counted = allocReport(s, small);
    EXPECT_EQ(counted.touchedSampleFactor, 0.0) << "nothing was left to sample";
    for (const char* name : {"B", "C"}) {
        const BufferReport& b = buffer(counted, name);
        EXPECT_TRUE(b.touchedCounted) << name;
        EXPECT_FALSE(b.touchedSampled) << name;
        EXPECT_EQ(b.touchedPeak, buffer(whole, name).touchedPeak) << name;
        EXPECT_EQ(b.touchedTotal, buffer(whole, name).touchedTotal) << name;
        EXPECT_FALSE(b.computedRun.has_value()) << name << ": nothing ran";
    }
    const std::string text = counted.toText();
    EXPECT_NE(text.find(" 256/256 "), std::string::npos) << text;
    EXPECT_NE(text.find("touched at some point (counted from the access sets, tvm)"),
              std::string::npos)
        << text;
    nlohmann::json json = nlohmann::json::parse(counted.toJson());
    for (const auto& entry : json["buffers"])
        EXPECT_TRUE(entry["touched_counted"].get<bool>()) << entry["name"];
}

TEST(AllocReport, PastTheBudgetWhatTheSetsCannotCountComesFromASampleOfTheOuterLoops) {
    // C reads B at a column that is not quasi-affine (x*x mod 64), so B's sets cannot count
    // it: a sample of the tiles runs, B's counts are those of the tiles that ran, marked
    // sampled, while C (its writes are affine) is counted from its access sets.
    REQUIRE_ISL();
    Schedule s = tiledPair([](const Var& x) { return floormod(x * x, 64); });
    AllocReport whole = allocReport(s);
    const BufferReport& b = buffer(whole, "B");
    EXPECT_EQ(b.touchedPeak, 256);
    EXPECT_EQ(b.touchedTotal, 256);
    EXPECT_FALSE(b.touchedSampled);
    EXPECT_EQ(whole.touchedSampleFactor, 0.0);

    AllocReportOptions small;
    small.interpreterBudget = 2 * 256 * 64 / 10;
    AllocReport sampled = allocReport(s, small);
    const BufferReport& sb = buffer(sampled, "B");
    EXPECT_GT(sampled.touchedSampleFactor, 9.0);
    EXPECT_TRUE(sb.touchedSampled);
    EXPECT_FALSE(sb.touchedCounted);
    EXPECT_EQ(sb.touchedPeak, 256);
    EXPECT_EQ(sb.touchedTotal, 256);
    EXPECT_FALSE(sb.computedRun.has_value()) << "a sample's stores say nothing of the run's";
    const BufferReport& c = buffer(sampled, "C");
    EXPECT_TRUE(c.touchedCounted);
    EXPECT_EQ(c.touchedTotal, buffer(whole, "C").touchedTotal);
    const std::string text = sampled.toText();
    EXPECT_NE(text.find("~256/256"), std::string::npos) << text;
    EXPECT_NE(text.find("~: measured on a sample"), std::string::npos) << text;
    EXPECT_NE(text.find("touched at some point (interpreter, tvm, in the iterations sampled)"),
              std::string::npos)
        << text;
    nlohmann::json json = nlohmann::json::parse(sampled.toJson());
    EXPECT_GT(json["touched_sample_factor"].get<double>(), 9.0);
    for (const auto& entry : json["buffers"]) {
        EXPECT_EQ(entry["touched_sampled"].get<bool>(), entry["name"] == "B") << entry["name"];
        EXPECT_EQ(entry["touched_counted"].get<bool>(), entry["name"] == "C") << entry["name"];
    }
}

/// 64 blocks of C, each a serial loop of 3 computing a row of B inside it (B = 2A, C = B + 1,
/// all 64 x 3): the access sets do not count B, whose nest is inside a block.
Schedule blockRows() {
    Tensor A = placeholder({64, 3}, DataType::float32(), "A");
    Tensor B = compute(
        {64, 3},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * f32(2);
        },
        "B");
    Tensor C = compute(
        {64, 3},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1]}) + f32(1);
        },
        "C");
    Schedule s = createSchedule(C.op);
    s[C].bind(opOf(C)->axis[0], threadAxis("blockIdx.x"));
    s[B].computeAt(s[C], opOf(C)->axis[1]);
    return s;
}

TEST(AllocReport, ASampleStillFarPastTheBudgetIsNotRun) {
    // The blocks cannot be thinned, the loop keeps 2 of 3, so the sample still stores 256 times
    // for a budget of 20.
    Schedule s = blockRows();
    ASSERT_TRUE(buffer(allocReport(s), "B").touchedPeak.has_value()) << "the whole run measures B";
    AllocReportOptions small;
    small.interpreterBudget = 20;
    AllocReport r = allocReport(s, small);
    EXPECT_FALSE(buffer(r, "B").touchedPeak.has_value());
    EXPECT_EQ(r.touchedSampleFactor, 0.0);
}

TEST(AllocReport, ArgumentsPastTheLimitAreNotMadeForTheInterpreter) {
    // B's block-bound nest is not counted from the sets, so the interpreter measures it, and it
    // holds A and C, 192 elements each: a limit of 383 leaves B unmeasured.
    Schedule s = blockRows();
    AllocReportOptions limited;
    limited.maxArgumentElements = 383;
    const AllocReport r = allocReport(s, limited);
    EXPECT_FALSE(buffer(r, "B").touchedPeak.has_value());
    EXPECT_NE(r.toText().find("whose arguments hold at most 64 million elements (by default)"),
              std::string::npos)
        << r.toText();
    limited.maxArgumentElements = 384;
    EXPECT_TRUE(buffer(allocReport(s, limited), "B").touchedPeak.has_value());
}

TEST(AllocReport, ASampleNeedsALoopToThin) {
    // One loop of 2 iterations (a loop keeps at least 2, its first and last): with a budget of
    // one element there is nothing to thin, so no counts at all. (A store predicate keeps the
    // access sets from counting B.)
    Tensor A = placeholder({2}, DataType::float32(), "A");
    Tensor B = compute(
        {2}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Schedule s = createSchedule(B.op);
    s[B].setStorePredicate(opOf(B)->axis[0]->var < 2);
    AllocReportOptions tiny;
    tiny.interpreterBudget = 1;
    AllocReport r = allocReport(s, tiny);
    EXPECT_FALSE(buffer(r, "B").touchedPeak.has_value());
    EXPECT_EQ(r.touchedSampleFactor, 0.0);
}

TEST(AllocReport, SymbolicShapesKeepSymbolicSizes) {
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
    AllocReport r = allocReport(s);
    const RuleAllocation* tvm = buffer(r, "B").allocation(BoundRules::Tvm);
    EXPECT_FALSE(tvm->allocated.has_value());
    EXPECT_EQ(tvm->region, "[(i.outer*8), 8], [0, m]");
    EXPECT_NE(tvm->size.find("m"), std::string::npos) << tvm->size;
    EXPECT_NE(r.toText().find(tvm->size), std::string::npos);
    EXPECT_FALSE(buffer(r, "B").touchedPeak.has_value());
}

TEST(AllocReport, NonAffineReadIsNamed) {
    REQUIRE_ISL();
    Tensor A = placeholder({64}, DataType::float32(), "A");
    Tensor B = compute(
        {64}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Tensor C = compute(
        {8}, [&](const std::vector<Var>& v) { return B({v[0] * v[0]}); }, "C");
    AllocReport r = allocReport(createSchedule(C.op));
    const AllocCause* cause = causeOf(buffer(r, "B"), WasteCause::NotQuasiAffine);
    ASSERT_NE(cause, nullptr);
    EXPECT_EQ(cause->rules, (std::vector<BoundRules>{BoundRules::Tight, BoundRules::Compact}));
}

TEST(AllocReport, InlinedStagesAndPlaceholdersAreNotBuffers) {
    Tensor A = placeholder({8}, DataType::float32(), "A");
    Tensor B = compute(
        {8}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Tensor C = compute(
        {8}, [&](const std::vector<Var>& v) { return B({v[0]}) * f32(2); }, "C");
    Schedule s = createSchedule(C.op);
    s[B].computeInline();
    AllocReport r = allocReport(s);
    ASSERT_EQ(r.buffers.size(), 1u);
    EXPECT_EQ(r.buffers[0].name, "C");
}

TEST(AllocReport, TextIsAnAlignedTableWithCauses) {
    REQUIRE_ISL();
    std::string text = allocReport(gatherDisjoint()).toText();
    EXPECT_EQ(text.substr(0, text.find('\n')),
              "buffer  scope              tvm-0.5  tvm  tight  compact  needed  touched  computed  "
              "waste %  causes");
    EXPECT_NE(text.find("\nT       global (inferred)  16       16   16     8        8       16/16  "
                        "  16        50.0     "
                        "disjoint-requests\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("\nT:\n  allocated 16 (tvm-0.5), 16 (tvm), 16 (tight), 8 (compact)\n  "
                        "needed 8 per iteration, 8 "
                        "over the run\n  computed 16 (tvm-0.5), 16 (tvm), 16 (tight), 8 (compact); "
                        "the interpreter ran 16 "
                        "stores (tvm)\n"
                        "  touched 16 in one iteration at most; 16 of its allocated elements "
                        "touched at some point"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("  disjoint-requests [tvm-0.5, tvm, tight]: the dimension-wise union"),
              std::string::npos);
    EXPECT_NE(text.find("removed by compact storage: T holds 8 elements under the compact rules"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("    hint: s[T].compute_inline(): T disappears"), std::string::npos)
        << text;
    std::string fuse = allocReport(fuseExample(false, 48)).toText();
    EXPECT_NE(fuse.find("128*"), std::string::npos) << fuse;
    EXPECT_NE(fuse.find("* the size changes from one iteration"), std::string::npos);
}

TEST(AllocReport, JsonHoldsEveryNumberAndCause) {
    REQUIRE_ISL();
    nlohmann::json j = nlohmann::json::parse(allocReport(splitRemainder()).toJson());
    EXPECT_TRUE(j["tight_available"].get<bool>());
    const auto& b = j["buffers"][0];
    EXPECT_EQ(b["name"], "B");
    EXPECT_EQ(b["scope"], "global");
    EXPECT_TRUE(b["scope_inferred"].get<bool>());
    EXPECT_EQ(b["allocations"][2]["rules"], "tight");
    EXPECT_EQ(b["allocations"][2]["region"], "[(i.outer*16), 16]");
    EXPECT_EQ(b["allocations"][2]["allocated"], 16);
    EXPECT_EQ(b["allocations"][2]["computed"], 20);
    EXPECT_EQ(b["allocations"][1]["computed"], 32);
    EXPECT_EQ(b["needed"], 16);
    EXPECT_EQ(b["touched_peak"], 16);
    EXPECT_EQ(b["touched_total"], 16);
    EXPECT_EQ(b["distinct"], 20);
    EXPECT_EQ(b["computed_run"], 20);
    EXPECT_EQ(b["causes"][0]["kind"], "split-remainder");
    EXPECT_EQ(b["causes"][0]["rules"], nlohmann::json({"tvm-0.5", "tvm"}));
}

namespace {

TEST(AllocReportOutputs, TightBoundsAStageByTheRequestsOfEveryOutput) {
    REQUIRE_ISL();
    // C reads T.v1 a row further than T.v0, in tiles of 8 rows: TVM's GatherBound takes the
    // requests of output 0 only (8 rows a tile), so its last tile reads T.v1 past the region.
    // The tight rules cover both (9 rows); they under-allocated as TVM's did.
    using namespace bs;
    Tensor a = placeholder({64, 32}, DataType::float32(), "A");
    std::vector<Tensor> t = computeMulti(
        {Expr(64), Expr(32)},
        [&](const std::vector<Var>& v) {
            return std::vector<Expr>{a({v[0], v[1]}) + makeConst(DataType::float32(), 2.0),
                                     a({v[0], v[1]}) * makeConst(DataType::float32(), 3.0)};
        },
        "T");
    Tensor c = compute(
        {63, 32},
        [&](const std::vector<Var>& v) {
            return t[1]({v[0] + 1, v[1]}) + t[0]({v[0], v[1]});
        },
        "C");
    Schedule s = createSchedule(c.op);
    IterVar outer = s[c].split(c.op.as<ComputeOpNode>()->axis[0], 8).first;
    s[t[0]].computeAt(s[c], outer);
    AllocReport report = allocReport(s);
    for (const char* name : {"T.v0", "T.v1"}) {
        const BufferReport* b = report.find(name);
        ASSERT_NE(b, nullptr) << name;
        EXPECT_EQ(b->allocation(BoundRules::Tvm)->allocated, 8 * 32) << name;
        EXPECT_EQ(b->allocation(BoundRules::Tight)->allocated, 9 * 32) << name;
        EXPECT_EQ(b->allocation(BoundRules::Compact)->allocated, 9 * 32) << name;
        EXPECT_EQ(b->needed, 9 * 32) << name;
    }
    // The touched counts come from a run under tvm, which reads T.v1 past its end: the report
    // says so rather than give the reasons a run is not tried.
    EXPECT_NE(report.touchedFailure.find("out-of-bounds read of T.v1"), std::string::npos)
        << report.touchedFailure;
    EXPECT_NE(report.toText().find("-: not measured: the interpreter stopped (tvm rules): "
                                   "out-of-bounds read of T.v1"),
              std::string::npos)
        << report.toText();
}

TEST(AllocReportThreads, TwoVirtualThreadsOfAStageAreTwoLoops) {
    // vy and vx are both `vthread`: the computed count joined them as one thread (128 of 256).
    using namespace bs;
    Tensor a = placeholder({16, 16}, DataType::float32(), "A");
    Tensor b = compute(
        {16, 16},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * makeConst(DataType::float32(), 2.0);
        },
        "B");
    Schedule s = createSchedule(b.op);
    const auto* bc = b.op.as<ComputeOpNode>();
    auto [vy, ty] = s[b].splitByNParts(bc->axis[0], 2);
    auto [vx, tx] = s[b].splitByNParts(bc->axis[1], 2);
    s[b].reorder({vy, vx, ty, tx});
    s[b].bind(vy, threadAxis("vthread", "vy"));
    s[b].bind(vx, threadAxis("vthread", "vx"));
    s[b].bind(ty, threadAxis("threadIdx.y"));
    s[b].bind(tx, threadAxis("threadIdx.x"));
    AllocReport report = allocReport(s);
    ASSERT_NE(report.find("B"), nullptr);
    EXPECT_EQ(report.find("B")->allocation(BoundRules::Tvm)->computed, 256);
}

TEST(AllocReportOutputs, EachOutputOfAMultiOutputStageIsABufferOfItsOwn) {
    using namespace bs;
    Tensor a = placeholder({8, 4}, DataType::float32(), "A");
    std::vector<Tensor> t = computeMulti(
        {Expr(8), Expr(4)},
        [&](const std::vector<Var>& v) {
            return std::vector<Expr>{a({v[0], v[1]}) + makeConst(DataType::float32(), 1.0),
                                     a({v[0], v[1]}) * makeConst(DataType::float32(), 2.0)};
        },
        "T");
    Tensor c = compute(
        {8, 4},
        [&](const std::vector<Var>& v) {
            return t[0]({v[0], v[1]}) + t[1]({v[0], v[1]});
        },
        "C");
    Schedule s = createSchedule(c.op);
    AllocReport report = allocReport(s);
    std::vector<std::string> names;
    for (const BufferReport& b : report.buffers)
        names.push_back(b.name + "/" + b.stage);
    EXPECT_EQ(names, (std::vector<std::string>{"T.v0/T", "T.v1/T", "C/C"}));
    for (const BufferReport& b : report.buffers) {
        EXPECT_EQ(b.allocation(BoundRules::Tvm)->allocated, 32) << b.name;
        // The interpreter's traces are found under the lowered buffer names.
        EXPECT_EQ(b.touchedTotal, 32) << b.name;
    }
}

} // namespace

namespace {

/// C = B + 1, B = 2A computed at C's outer loop of `tiles` iterations, double-buffered.
bs::AllocReport doubleBufferedReport(int tiles) {
    using namespace bs;
    Tensor a = placeholder({8, 4}, DataType::float32(), "A");
    Tensor b = compute(
        {8, 4},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * makeConst(DataType::float32(), 2.0);
        },
        "B");
    Tensor c = compute(
        {8, 4},
        [&](const std::vector<Var>& v) {
            return b({v[0], v[1]}) + makeConst(DataType::float32(), 1.0);
        },
        "C");
    Schedule s = createSchedule(c.op);
    IterVar outer = s[c].split(c.op.as<ComputeOpNode>()->axis[0], 8 / tiles).first;
    s[b].computeAt(s[c], outer);
    s[b].doubleBuffer();
    return allocReport(s);
}

TEST(AllocReportOutputs, ADoubleBufferCountsTwoHalvesOnlyWhereLoweringDoublesIt) {
    using namespace bs;
    const AllocReport report = doubleBufferedReport(2);
    const RuleAllocation* two = report.buffers[0].allocation(BoundRules::Tvm);
    EXPECT_EQ(two->halves, 2);
    EXPECT_EQ(two->total(), 2 * 16);
    // One iteration: the loop disappears and InjectDoubleBuffer has nothing to double.
    EXPECT_EQ(doubleBufferedReport(1).buffers[0].allocation(BoundRules::Tvm)->halves, 1);
}

} // namespace

TEST(AllocReportLoops, APlainPrefixOnlyMultipliesUnlessSomethingInsideNamesIt) {
    // x in [0, 4) and y in [0, 3) have constant bounds (the plain prefix); z starts at x.
    Var x("x"), y("y"), z("z");
    auto loop = [](Var v, Expr min, int64_t extent) {
        alloc::Loop l;
        l.vars = {v};
        l.min = min;
        l.extent = makeConst(DataType::int32(), extent);
        for (const Var& named : usedVars(min))
            l.named.push_back(named);
        return l;
    };
    alloc::Loop a = loop(x, makeZero(DataType::int32()), 4),
                b = loop(y, makeZero(DataType::int32()), 3), c = loop(z, x, 2);
    alloc::Nest nest;
    nest.push(&a);
    nest.push(&b);
    EXPECT_EQ(nest.plain, 2u);
    EXPECT_EQ(nest.plainIterations, 12);
    EXPECT_EQ(alloc::countIterations(nest), 12);
    nest.push(&c);
    EXPECT_EQ(nest.plain, 2u) << "z's bounds name x";
    EXPECT_EQ(alloc::countIterations(nest), 24);
    bool varies = false;
    EXPECT_EQ(alloc::maxOver(nest, z + 10, &varies), 14); // x = 3, z = 4
    EXPECT_TRUE(varies);
    EXPECT_EQ(alloc::maxOver(nest, y * 2, &varies), 4) << "a use names y: the prefix is walked";
    EXPECT_EQ(alloc::maxOver(nest, makeConst(DataType::int32(), int64_t(7)), &varies), 7);
    EXPECT_FALSE(varies);
    // Past int64 the count is unknown, not wrapped.
    alloc::Loop huge = loop(Var("h"), makeZero(DataType::int64()), int64_t(1) << 40),
                huger = loop(Var("g"), makeZero(DataType::int64()), int64_t(1) << 40);
    alloc::Nest big;
    big.push(&huge);
    big.push(&huger);
    EXPECT_FALSE(big.plainIterations.has_value());
    EXPECT_FALSE(alloc::countIterations(big).has_value());
    EXPECT_EQ(alloc::maxOver(big, makeConst(DataType::int32(), int64_t(7)), &varies), 7)
        << "a maximum needs no count of the iterations";
}
