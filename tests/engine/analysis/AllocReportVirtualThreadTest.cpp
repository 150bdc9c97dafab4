// The allocation report of buffers private to virtual threads (analysis/AllocReport.h): lowering
// gives each virtual thread its own copy of the realize region, so the report counts one copy,
// how many there are and their total, the touched counts against that total, and names the
// replication as a cause that is not waste (TVM's test_local_stage_predicate, "local vs.
// vthread"; tests/engine/differential/VirtualThreadTest.cpp lowers the same schedules).
#include "AllocReportTestUtil.h"

#include <nlohmann/json.hpp>

using namespace bs;
using namespace bs::test;

namespace {

/// B (1, 3, 2) "local", computed at C's blockIdx loop, its second axis split by 3 with the inner
/// part bound to the virtual thread C's second axis is bound to: one row of 2 per thread.
Schedule localStagePredicate(const std::string& threadTag) {
    Tensor A = placeholder({1, 3, 2}, DataType::float32(), "A");
    Tensor B = compute(
        {1, 3, 2},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1], v[2]});
        },
        "B");
    Tensor C = compute(
        {1, 3, 2},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1], v[2]});
        },
        "C");
    Schedule s = createSchedule(C.op);
    IterVar thread = threadAxis(threadTag);
    s[B].computeAt(s[C], opOf(C)->axis[0]);
    s[B].setScope("local");
    IterVar inner = s[B].split(opOf(B)->axis[1], 3).second;
    s[C].bind(opOf(C)->axis[0], threadAxis("blockIdx.x"));
    s[C].bind(opOf(C)->axis[1], thread);
    s[B].bind(inner, thread);
    return s;
}

std::vector<BoundRules> everyRuleSet() {
    std::vector<BoundRules> rules{BoundRules::Tvm05, BoundRules::Tvm};
    if (hasIsl()) {
        rules.push_back(BoundRules::Tight);
        rules.push_back(BoundRules::Compact);
    }
    return rules;
}

} // namespace

TEST(AllocReportVirtualThread, LocalStageHasOneCopyPerVirtualThread) {
    AllocReport r = allocReport(localStagePredicate("vthread"));
    const BufferReport& b = buffer(r, "B");
    for (BoundRules rules : everyRuleSet()) {
        const RuleAllocation* a = b.allocation(rules);
        EXPECT_EQ(a->region, "[0, 1], [vthread, 1], [0, 2]") << boundRulesName(rules);
        EXPECT_EQ(a->allocated, 2) << boundRulesName(rules);
        EXPECT_EQ(a->copies, 3) << boundRulesName(rules);
        EXPECT_EQ(a->total(), 6) << boundRulesName(rules); // lowering's `allocate B[float32 * 6]`
        EXPECT_EQ(a->virtualThreads, std::vector<std::string>{"vthread"});
        EXPECT_EQ(a->copiesSuffix(), "x3");
        EXPECT_EQ(a->computed, 6);
    }
    // Every copy is touched, one iteration of the blockIdx loop touching all of them.
    EXPECT_EQ(b.touchedPeak, 6);
    EXPECT_EQ(b.touchedTotal, 6);
    EXPECT_EQ(b.computedRun, 6);
    if (hasIsl()) {
        EXPECT_EQ(b.needed, 2); // per virtual thread, as the allocation
        EXPECT_EQ(b.distinct, 6);
        EXPECT_EQ(b.wastePercent(), 0.0);
    }
    ASSERT_EQ(kinds(b), std::vector<WasteCause>{WasteCause::VirtualThreadCopies});
    const AllocCause& cause = b.causes[0];
    EXPECT_EQ(cause.summary, "one copy per virtual thread (not waste)");
    EXPECT_EQ(cause.rules, everyRuleSet());
    EXPECT_NE(cause.detail.find("B is private to each of the 3 virtual threads of vthread"),
              std::string::npos)
        << cause.detail;
    EXPECT_NE(cause.detail.find("lowering allocates 2 elements for each, 6 in all"),
              std::string::npos)
        << cause.detail;
    // The consumer is not private to any thread.
    const BufferReport& c = buffer(r, "C");
    EXPECT_EQ(c.allocation(BoundRules::Tvm)->copies, 1);
    EXPECT_EQ(c.allocation(BoundRules::Tvm)->total(), 6);
    EXPECT_TRUE(c.causes.empty());
}

TEST(AllocReportVirtualThread, ThreadIdxLocalStageHasNoCopies) {
    // A real thread's local buffer is per thread by the hardware: one realize, no copies.
    AllocReport r = allocReport(localStagePredicate("threadIdx.x"));
    const BufferReport& b = buffer(r, "B");
    EXPECT_EQ(b.allocation(BoundRules::Tvm)->allocated, 2);
    EXPECT_EQ(b.allocation(BoundRules::Tvm)->copies, 1);
    EXPECT_TRUE(b.allocation(BoundRules::Tvm)->virtualThreads.empty());
    EXPECT_EQ(causeOf(b, WasteCause::VirtualThreadCopies), nullptr);
}

TEST(AllocReportVirtualThread, TwoVirtualThreadsMultiplyTheCopies) {
    // B (1, 2, 3, 4) private to (vy, vx), 2 x 3 threads: one 1x1x1x4 region each, 24 in all.
    Tensor A = placeholder({1, 2, 3, 4}, DataType::float32(), "A");
    Tensor B = compute(
        {1, 2, 3, 4},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1], v[2], v[3]}) * f32(2);
        },
        "B");
    Tensor C = compute(
        {1, 2, 3, 4},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1], v[2], v[3]}) + f32(1);
        },
        "C");
    Schedule s = createSchedule(C.op);
    IterVar vy = threadAxis("vthread", "vy"), vx = threadAxis("vthread", "vx");
    s[B].computeAt(s[C], opOf(C)->axis[0]);
    s[B].setScope("local");
    s[C].bind(opOf(C)->axis[0], threadAxis("blockIdx.x"));
    s[C].bind(opOf(C)->axis[1], vy);
    s[C].bind(opOf(C)->axis[2], vx);
    s[B].bind(s[B].split(opOf(B)->axis[1], 2).second, vy);
    s[B].bind(s[B].split(opOf(B)->axis[2], 3).second, vx);
    AllocReport r = allocReport(s);
    const BufferReport& b = buffer(r, "B");
    const RuleAllocation* tvm = b.allocation(BoundRules::Tvm);
    EXPECT_EQ(tvm->allocated, 4);
    EXPECT_EQ(tvm->copies, 6);
    EXPECT_EQ(tvm->total(), 24);
    EXPECT_EQ(tvm->virtualThreads, (std::vector<std::string>{"vx", "vy"}));
    EXPECT_EQ(b.touchedTotal, 24);
    ASSERT_NE(causeOf(b, WasteCause::VirtualThreadCopies), nullptr);
    EXPECT_NE(causeOf(b, WasteCause::VirtualThreadCopies)
                  ->detail.find("each of the 6 virtual threads of vx, vy"),
              std::string::npos);
}

TEST(AllocReportVirtualThread, VirtualThreadOnlyTheStageBindsIsNoCopy) {
    // The stage's own vthread runs over its region, which does not hold the thread: one copy.
    Tensor A = placeholder({16}, DataType::float32(), "A");
    Tensor B = compute(
        {16}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(3); }, "B");
    Tensor C = compute(
        {16}, [&](const std::vector<Var>& v) { return B({v[0]}) - f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    IterVar co = s[C].split(opOf(C)->axis[0], 8).first;
    s[B].computeAt(s[C], co);
    s[B].setScope("local");
    s[B].bind(s[B].splitByNParts(opOf(B)->axis[0], 2).first, threadAxis("vthread"));
    AllocReport r = allocReport(s);
    const BufferReport& b = buffer(r, "B");
    EXPECT_EQ(b.allocation(BoundRules::Tvm)->allocated, 8);
    EXPECT_EQ(b.allocation(BoundRules::Tvm)->copies, 1);
    EXPECT_EQ(causeOf(b, WasteCause::VirtualThreadCopies), nullptr);
}

TEST(AllocReportVirtualThread, TextAndJsonShowThePerThreadSizeAndTheCopies) {
    AllocReport r = allocReport(localStagePredicate("vthread"));
    std::string text = r.toText();
    EXPECT_NE(text.find("\nB       local   2x3      2x3  "), std::string::npos) << text;
    EXPECT_NE(
        text.find("NxM: N elements per virtual thread, one copy for each of M virtual threads"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("  allocated 2 per virtual thread x 3 = 6 (tvm-0.5), 2 per virtual thread "
                        "x 3 = 6 (tvm)"),
              std::string::npos)
        << text;
    EXPECT_NE(
        text.find(
            "  touched 6 in one iteration at most (all 3 virtual threads); 6 of its 6 allocated "
            "elements touched at some point"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("  vthread-copies [" +
                        std::string(hasIsl() ? "tvm-0.5, tvm, tight, compact" : "tvm-0.5, tvm") +
                        "]: one copy per virtual thread (not waste)\n"),
              std::string::npos)
        << text;
    auto json = nlohmann::json::parse(r.toJson());
    const auto& tvm = json["buffers"][0]["allocations"][1];
    EXPECT_EQ(tvm["rules"], "tvm");
    EXPECT_EQ(tvm["allocated"], 2);
    EXPECT_EQ(tvm["copies"], 3);
    EXPECT_EQ(tvm["allocated_total"], 6);
    EXPECT_EQ(tvm["virtual_threads"], nlohmann::json::array({"vthread"}));
    EXPECT_EQ(json["buffers"][0]["touched_total"], 6);
    EXPECT_EQ(json["buffers"][0]["causes"][0]["kind"], "vthread-copies");
    EXPECT_EQ(json["buffers"][1]["allocations"][1]["copies"], 1);
}
