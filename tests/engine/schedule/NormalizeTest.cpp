#include "ScheduleTestUtil.h"

#include "ir/Printer.h"
#include "schedule/Graph.h"

#include <gtest/gtest.h>

namespace bs {
namespace {

using test::Names;
using test::names;
using test::relationStrings;

std::string bodyOf(const Stage& stage) { return toString(stage->op.as<ComputeOpNode>()->body[0]); }

/// A -> B = A + 1 -> C = B * 2, each (8, 8).
struct Chain {
    Tensor a, b, c;
    Schedule sch;
    Chain() {
        a = placeholder({8, 8}, DataType::float32(), "A");
        b = compute(
            {8, 8},
            [&](const std::vector<Var>& v) {
                return a({v[0], v[1]}) + 1.0f;
            },
            "B");
        c = compute(
            {8, 8},
            [&](const std::vector<Var>& v) {
                return b({v[1], v[0]}) * 2.0f;
            },
            "C");
        sch = createSchedule(c.op);
    }
};

TEST(Normalize, ReturnsACopyAndLeavesTheScheduleAlone) {
    Chain p;
    Schedule normalized = p.sch.normalize();
    EXPECT_FALSE(normalized.same_as(p.sch));
    EXPECT_FALSE(normalized[p.c].same_as(p.sch[p.c]));
    EXPECT_TRUE(p.sch[p.c]->relations.empty());
    EXPECT_EQ(names(p.sch[p.c]->leafIterVars), (Names{"i", "j"}));
}

TEST(Normalize, RebasesEveryRootLeaf) {
    Chain p;
    Schedule normalized = p.sch.normalize();
    Stage c = normalized[p.c];
    EXPECT_EQ(relationStrings(c),
              (Names{"rebase(parent=i, rebased=i)", "rebase(parent=j, rebased=j)"}));
    EXPECT_EQ(names(c->leafIterVars), (Names{"i", "j"}));
    EXPECT_FALSE(c->leafIterVars[0].same_as(p.c.op.as<ComputeOpNode>()->axis[0]));
    EXPECT_EQ(relationStrings(normalized[p.b]).size(), 2u);
    EXPECT_TRUE(normalized[p.a]->relations.empty());
}

TEST(Normalize, RebasesOnlyRootsThatAreStillLeaves) {
    Chain p;
    p.sch[p.c].split(p.c.op.as<ComputeOpNode>()->axis[0], 4);
    Stage c = p.sch.normalize()[p.c];
    EXPECT_EQ(relationStrings(c), (Names{"split(parent=i, outer=i.outer, inner=i.inner, factor=4)",
                                         "rebase(parent=j, rebased=j)"}));
}

TEST(Normalize, SkipsThreadBoundRootsAndCopiesAttributes) {
    Chain p;
    const auto* op = p.c.op.as<ComputeOpNode>();
    p.sch[p.c].bind(op->axis[0], threadAxis("blockIdx.x"));
    p.sch[p.c].unroll(op->axis[1]);
    Stage c = p.sch.normalize()[p.c];
    EXPECT_EQ(relationStrings(c), (Names{"rebase(parent=j, rebased=j)"}));
    EXPECT_TRUE(c->leafIterVars[0].same_as(op->axis[0]));
    ASSERT_NE(c.attrOf(c->leafIterVars[1]), nullptr);
    EXPECT_EQ(c.attrOf(c->leafIterVars[1])->iterType, IterVarType::Unrolled);
}

TEST(Normalize, RetargetsAttachPointsToTheRebasedLeaf) {
    Chain p;
    const auto* cop = p.c.op.as<ComputeOpNode>();
    p.sch[p.b].computeAt(p.sch[p.c], cop->axis[1]);
    Schedule normalized = p.sch.normalize();
    Stage b = normalized[p.b];
    EXPECT_TRUE(b->attachStage.same_as(normalized[p.c]));
    EXPECT_TRUE(b->attachIVar.same_as(normalized[p.c]->leafIterVars[1]));
    EXPECT_FALSE(b->attachIVar.same_as(cop->axis[1]));
}

TEST(Normalize, InlinesComputeInlineStagesIntoTheirConsumers) {
    Chain p;
    p.sch[p.b].computeInline();
    Schedule normalized = p.sch.normalize();
    EXPECT_EQ(normalized[p.b]->attachType, AttachType::InlinedAlready);
    EXPECT_EQ(bodyOf(normalized[p.c]), "((A(j, i) + 1.000000f)*2.000000f)");
    EXPECT_TRUE(normalized[p.b]->relations.empty());
    EXPECT_TRUE(normalized.outputs()[0].same_as(normalized[p.c]->op));
    // The inlined producer has no consumer left in the dataflow.
    ReadGraph graph = createReadGraph(normalized);
    EXPECT_FALSE(graph.contains(p.b.op));
    EXPECT_EQ(p.sch[p.b]->attachType, AttachType::Inline);
}

TEST(Normalize, InlinesChainsOfInlineStages) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "B");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return b({v[0]}) * 3.0f; }, "C");
    Tensor d = compute(
        {8}, [&](const std::vector<Var>& v) { return c({v[0]}) - b({v[0]}); }, "D");
    Schedule sch = createSchedule(d.op);
    sch[b].computeInline();
    sch[c].computeInline();
    Schedule normalized = sch.normalize();
    EXPECT_EQ(bodyOf(normalized[d]), "(((A(i) + 1.000000f)*3.000000f) - (A(i) + 1.000000f))");
}

TEST(Normalize, InlinesIntoReductions) {
    Tensor a = placeholder({8, 8}, DataType::float32(), "A");
    Tensor b = compute(
        {8, 8},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * 2.0f;
        },
        "B");
    IterVar k = reduceAxis(Range(0, 8), "k");
    Tensor c = compute(
        {8},
        [&](const std::vector<Var>& v) {
            return sum(b({v[0], k}), {k});
        },
        "C");
    Schedule sch = createSchedule(c.op);
    sch[b].computeInline();
    Stage stage = sch.normalize()[c];
    const auto* r = stage->op.as<ComputeOpNode>()->body[0].as<ReduceNode>();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(toString(r->source[0]), "(A(i, k)*2.000000f)");
    EXPECT_EQ(stage->op.as<ComputeOpNode>()->reduceAxis.size(), 1u);
}

TEST(Normalize, MovesAnAttachPointToTheInnerPartOfASplit) {
    Chain p;
    IterVar j = p.c.op.as<ComputeOpNode>()->axis[1];
    p.sch[p.b].computeAt(p.sch[p.c], j);
    auto [outer, inner] = p.sch[p.c].split(j, 4);
    Schedule normalized = p.sch.normalize();
    EXPECT_TRUE(normalized[p.b]->attachIVar.same_as(inner));
}

TEST(Normalize, MovesAnAttachPointToTheFusedIterVar) {
    Chain p;
    const auto* cop = p.c.op.as<ComputeOpNode>();
    p.sch[p.b].computeAt(p.sch[p.c], cop->axis[1]);
    IterVar fused = p.sch[p.c].fuse(cop->axis[0], cop->axis[1]);
    Schedule normalized = p.sch.normalize();
    EXPECT_TRUE(normalized[p.b]->attachIVar.same_as(fused));
    EXPECT_EQ(names(createAttachPath(normalized).at(normalized[p.b]->op)), (Names{"i.j.fused"}));
}

} // namespace
} // namespace bs
