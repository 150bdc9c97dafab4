// Schedule groups (Schedule::createGroup, TVM's s.create_group): which stages a group takes,
// how groups nest and count their children, what compute_at allows inside a group, that the
// rewrites and copies keep groups, and that InferBound bounds a group's stages where the group
// is attached (lowering: tests/engine/lower/ScheduleOpsGroupTest.cpp).
#include "ScheduleTestUtil.h"

#include "ir/Printer.h"
#include "schedule/InferBound.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

namespace bs {
namespace {

/// A -> B = A + 1 -> C = B * 2 -> D = C - 1, each (16, 16).
struct Chain {
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

    IterVar axis(const Tensor& t, size_t i) const { return t.op.as<ComputeOpNode>()->axis[i]; }
};

TEST(ScheduleGroup, TakesTheStagesBetweenInputsAndOutputs) {
    Chain p;
    Stage g = p.sch.createGroup({p.c}, {p.a}, false);
    EXPECT_TRUE(g.isGroup());
    EXPECT_EQ(g.name(), "group0");
    EXPECT_TRUE(p.sch[p.b]->group.same_as(g));
    EXPECT_TRUE(p.sch[p.c]->group.same_as(g));
    EXPECT_FALSE(p.sch[p.d]->group.defined());
    EXPECT_FALSE(p.sch[p.a]->group.defined()); // the input, not included
    EXPECT_EQ(g->numChildStages, 2);
    ASSERT_EQ(p.sch.groups().size(), 1u);
    EXPECT_TRUE(p.sch.groups()[0].same_as(g));
}

TEST(ScheduleGroup, AWholeGroupBecomesOneChildOfTheGroupAroundIt) {
    // TVM's test_nest_group.
    Chain p;
    Stage inner = p.sch.createGroup({p.c}, {p.b}, false);                  // C
    Stage outer = p.sch.createGroup({p.c}, {p.b}, /*includeInputs=*/true); // B and C
    EXPECT_TRUE(inner->group.same_as(outer));
    EXPECT_TRUE(p.sch[p.c]->group.same_as(inner));
    EXPECT_TRUE(p.sch[p.b]->group.same_as(outer));
    EXPECT_EQ(inner->numChildStages, 1);
    EXPECT_EQ(outer->numChildStages, 2);
    EXPECT_TRUE(p.sch[p.c].isInGroup(outer));
}

TEST(ScheduleGroup, AGroupCuttingAnotherIsRefused) {
    Chain p;
    p.sch.createGroup({p.c}, {p.a}, false); // B and C
    try {
        p.sch.createGroup({p.d}, {p.b}, false); // C and D
        FAIL() << "accepted";
    } catch (const UserError& e) {
        EXPECT_NE(
            std::string(e.what()).find("group0, which holds 2 stages or groups, 1 of them here"),
            std::string::npos)
            << e.what();
    }
    EXPECT_EQ(p.sch.groups().size(), 1u);
}

TEST(ScheduleGroup, ARefusedGroupChangesNoCount) {
    Chain p;
    Stage outer = p.sch.createGroup({p.d}, {p.a}, false);            // B, C and D
    Stage inner = p.sch.createGroup({p.c}, {p.a}, false);            // B and C, inside it
    EXPECT_EQ(outer->numChildStages, 2);                             // D and the inner group
    EXPECT_THROW(p.sch.createGroup({p.d}, {p.b}, false), UserError); // C and D: cuts `inner`
    EXPECT_EQ(outer->numChildStages, 2);
    EXPECT_EQ(inner->numChildStages, 2);
    EXPECT_EQ(p.sch.groups().size(), 2u);
}

TEST(ScheduleGroup, AGroupHasNoLoopsToScheduleOrComputeInside) {
    Chain p;
    Stage g = p.sch.createGroup({p.c}, {p.a}, false);
    EXPECT_THROW(g.fuse(std::vector<IterVar>{}), UserError);
    EXPECT_THROW(g.setScope("shared"), UserError);
    EXPECT_THROW(g.computeInline(), UserError);
    EXPECT_TRUE(g->leafIterVars.empty());
    try {
        p.sch[p.d].computeAt(g, IterVar());
        FAIL() << "accepted";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("'group0' is a group"), std::string::npos) << e.what();
    }
}

TEST(ScheduleGroup, ComputeAtStaysInsideTheGroup) {
    Chain p;
    Stage g = p.sch.createGroup({p.c}, {p.a}, false);
    EXPECT_THROW(p.sch[p.b].computeAt(p.sch[p.d], p.axis(p.d, 0)), UserError);
    EXPECT_EQ(p.sch[p.b]->attachType, AttachType::GroupRoot);
    p.sch[p.b].computeAt(p.sch[p.c], p.axis(p.c, 0));
    EXPECT_TRUE(p.sch[p.b]->attachStage.same_as(p.sch[p.c]));
    // A group attached inside itself is a cycle: accepted by the call, refused when lowered
    // (TVM's timing).
    g.computeAt(p.sch[p.c], p.axis(p.c, 1));
    EXPECT_THROW(p.sch.normalize(), UserError);
}

TEST(ScheduleGroup, AMemberAttachedOutsideGoesToTheGroupRoot) {
    Chain p;
    p.sch[p.b].computeAt(p.sch[p.d], p.axis(p.d, 0));
    std::vector<Stage> rooted;
    p.sch.createGroup({p.c}, {p.a}, false, &rooted);
    ASSERT_EQ(rooted.size(), 1u);
    EXPECT_TRUE(rooted[0].same_as(p.sch[p.b]));
    EXPECT_EQ(p.sch[p.b]->attachType, AttachType::GroupRoot);
}

TEST(ScheduleGroup, CachesJoinTheGroupOfWhatTheyCache) {
    Chain p;
    Stage g = p.sch.createGroup({p.c}, {p.a}, false);
    Tensor cached = p.sch.cacheRead(p.b, "local", {p.c.op});
    EXPECT_TRUE(p.sch[cached]->group.same_as(g));
    EXPECT_EQ(g->numChildStages, 3);
}

TEST(ScheduleGroup, CopiesAndNormalizeKeepTheGroupsAndTheirAttachment) {
    Chain p;
    Stage g = p.sch.createGroup({p.c}, {p.a}, false);
    g.computeAt(p.sch[p.d], p.axis(p.d, 0));
    Schedule n = p.sch.normalize();
    ASSERT_EQ(n.groups().size(), 1u);
    Stage copied = n.groups()[0];
    EXPECT_FALSE(copied.same_as(g));
    EXPECT_TRUE(n[p.b.op]->group.same_as(copied));
    EXPECT_TRUE(copied->attachStage.same_as(n[p.d.op]));
    // The attach loop was rebased by normalize: the group follows it.
    EXPECT_TRUE(n[p.d.op].isLeaf(copied->attachIVar));
    EXPECT_TRUE(n[p.b.op].attachSpec().same_as(copied));
}

TEST(ScheduleGroup, InferBoundGivesTheGroupsStagesTheirRegionPerAttachIteration) {
    // TVM's test_bound_group_schedule with constant sizes, split so the group gets 4 rows.
    Chain p;
    Stage g = p.sch.createGroup({p.c}, {p.a}, false);
    auto [outer, inner] = p.sch[p.d].split(p.axis(p.d, 0), 4);
    g.computeAt(p.sch[p.d], outer);
    InferBoundResult r = inferBound(p.sch.normalize());
    for (const Tensor& t : {p.b, p.c}) {
        EXPECT_EQ(toString(r.bounds.at(p.axis(t, 0)).extent), "4") << t.name();
        EXPECT_EQ(toString(r.bounds.at(p.axis(t, 1)).extent), "16") << t.name();
    }
}

} // namespace
} // namespace bs
