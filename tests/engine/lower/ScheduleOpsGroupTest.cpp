// ScheduleOps with schedule groups: a stage at the root of its group is realized and computed
// where the group is attached (TVM's GetAttachSpec in ScheduleOps), producers first; a group never
// attached leaves its stages at the root.
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "te/Compute.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

/// A -> B = A + 1 -> C = B * 2 -> D = C - 1, each (16, 16), with B and C in one group.
struct GroupedChain {
    Tensor a = placeholder({16, 16}, DataType::float32(), "A");
    Tensor b = compute(
        {16, 16},
        [this](const std::vector<Var>& v) {
            return a({v[0], v[1]}) + 1.0f;
        },
        "B");
    Tensor c = compute(
        {16, 16},
        [this](const std::vector<Var>& v) {
            return b({v[0], v[1]}) * 2.0f;
        },
        "C");
    Tensor d = compute(
        {16, 16},
        [this](const std::vector<Var>& v) {
            return c({v[0], v[1]}) - 1.0f;
        },
        "D");
    Schedule sch = createSchedule(d.op);
    Stage group = sch.createGroup({c}, {a}, false);

    std::string afterScheduleOps() const {
        return toString(lower(sch, {a, d}).func.afterScheduleOps);
    }
};

TEST(ScheduleOpsGroup, TheGroupsStagesAreComputedInsideItsAttachLoop) {
    GroupedChain p;
    auto [outer, inner] = p.sch[p.d].split(p.d.op.as<ComputeOpNode>()->axis[0], 4);
    p.group.computeAt(p.sch[p.d], outer);
    std::string text = p.afterScheduleOps();
    size_t loop = text.find("for (i.outer, 0, 4)");
    size_t realizeB = text.find("realize B([(i.outer*4), 4], [0, 16])");
    size_t realizeC = text.find("realize C([(i.outer*4), 4], [0, 16])");
    ASSERT_NE(loop, std::string::npos) << text;
    ASSERT_NE(realizeB, std::string::npos) << text;
    ASSERT_NE(realizeC, std::string::npos) << text;
    // Inside the loop, B's realize around C's: B is produced, then C, then D's iterations.
    EXPECT_LT(loop, realizeB) << text;
    EXPECT_LT(realizeB, realizeC) << text;
    EXPECT_LT(text.find("produce B"), text.find("produce C")) << text;
}

TEST(ScheduleOpsGroup, AGroupNeverAttachedLeavesItsStagesAtTheRoot) {
    GroupedChain p;
    std::string grouped = p.afterScheduleOps();
    GroupedChain plain;
    plain.sch = createSchedule(plain.d.op);
    EXPECT_EQ(grouped, plain.afterScheduleOps());
}

} // namespace
