// The AutoInline helpers (schedule/AutoInline.h), as TVM's auto_inline_elem_wise.cc decides.
#include "ScheduleTestUtil.h"

#include "schedule/AutoInline.h"

#include <gtest/gtest.h>

namespace bs {
namespace {

/// A (8, 8) -> B = A[i, j] + 1 (element-wise) -> C = B[j, i] (a transpose) -> D = C[i, j] * 2.
struct Pipeline {
    Tensor a = placeholder({8, 8}, DataType::float32(), "A");
    Tensor b = compute(
        {8, 8},
        [this](const std::vector<Var>& v) {
            return a({v[0], v[1]}) + 1.0f;
        },
        "B");
    Tensor c = compute(
        {8, 8},
        [this](const std::vector<Var>& v) {
            return b({v[1], v[0]});
        },
        "C");
    Tensor d = compute(
        {8, 8},
        [this](const std::vector<Var>& v) {
            return c({v[0], v[1]}) * 2.0f;
        },
        "D");
    Schedule sch = createSchedule(d.op);
};

TEST(AutoInline, ElemWiseTakesOnlyReadsAtTheStagesOwnAxes) {
    Pipeline p;
    EXPECT_TRUE(isElemWise(p.b.op));
    EXPECT_FALSE(isElemWise(p.c.op));
    autoInlineElemWise(p.sch);
    EXPECT_EQ(p.sch[p.b]->attachType, AttachType::Inline);
    EXPECT_EQ(p.sch[p.c]->attachType, AttachType::GroupRoot);
    EXPECT_EQ(p.sch[p.d]->attachType, AttachType::GroupRoot); // the output
}

TEST(AutoInline, InjectiveTakesEveryUnscheduledComputeButTheOutput) {
    Pipeline p;
    p.sch[p.b].split(p.b.op.as<ComputeOpNode>()->axis[0], 2);
    EXPECT_TRUE(isScheduled(p.sch[p.b]));
    EXPECT_FALSE(isScheduled(p.sch[p.c]));
    autoInlineInjective(p.sch);
    EXPECT_EQ(p.sch[p.b]->attachType, AttachType::GroupRoot);
    EXPECT_EQ(p.sch[p.c]->attachType, AttachType::Inline);
    EXPECT_EQ(p.sch[p.d]->attachType, AttachType::GroupRoot);
}

} // namespace
} // namespace bs
