#include "ScheduleTestUtil.h"

#include "schedule/Graph.h"

#include <gtest/gtest.h>

namespace bs {
namespace {

using test::Names;
using test::names;

Expr five(const std::vector<Var>&) { return Expr(5); }

TEST(Graph, ReadAndFeedGraphsFollowTheDataflow) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = placeholder({8}, DataType::float32(), "B");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "C");
    Tensor d = compute(
        {8}, [&](const std::vector<Var>& v) { return c({v[0]}) + b({v[0]}); }, "D");
    Tensor e = compute(
        {8}, [&](const std::vector<Var>& v) { return c({v[0]}) * d({v[0]}); }, "E");
    ReadGraph graph = createReadGraph({e.op});
    EXPECT_EQ(graph.size(), 5u);
    ASSERT_EQ(graph.at(d.op).size(), 2u);
    EXPECT_TRUE(graph.at(d.op)[0].same_as(c));
    EXPECT_TRUE(graph.at(a.op).empty());
    FeedGraph feed = createFeedGraph(graph);
    ASSERT_EQ(feed.at(c).size(), 2u);
    EXPECT_EQ(feed.count(e), 0u);
    EXPECT_EQ(feed.at(b).size(), 1u);
    EXPECT_TRUE(feed.at(b)[0].same_as(d.op));
}

TEST(Graph, PostDFSOrderPutsProducersFirst) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = placeholder({8}, DataType::float32(), "B");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "C");
    Tensor d = compute(
        {8}, [&](const std::vector<Var>& v) { return c({v[0]}) + b({v[0]}); }, "D");
    Schedule sch = createSchedule(d.op);
    EXPECT_EQ(test::stageNames(sch), (Names{"A", "C", "B", "D"}));
    EXPECT_TRUE(sch[d]->isOutput);
    EXPECT_FALSE(sch[c]->isOutput);
    EXPECT_FALSE(sch[a]->isOutput);
}

TEST(Graph, AttachPathOfEx4IsDkDjDi) {
    // Seed 000, Ex. 4: C computed at D's innermost axis; di is on the path though C ignores it.
    Tensor c = compute({5, 16}, five, "C");
    Tensor d = compute({4, 5, 16},
                       [&](const std::vector<Var>& v) {
                           return c({v[1], v[2]}) * 2;
                       },
                       "D", "", {"di", "dj", "dk"});
    Schedule sch = createSchedule(d.op);
    sch[c].computeAt(sch[d], d.op.as<ComputeOpNode>()->axis[2]);
    AttachPathMap paths = createAttachPath(sch);
    EXPECT_EQ(names(paths.at(c.op)), (Names{"dk", "dj", "di"}));
    EXPECT_TRUE(paths.at(d.op).empty());
}

TEST(Graph, AttachPathOfEx5FollowsTheSplit) {
    // Seed 000, Ex. 5: C computed at j.inner of D after D's j was split by 8.
    Tensor c = compute({5, 16}, five, "C");
    Tensor d = compute(
        {5, 16},
        [&](const std::vector<Var>& v) {
            return c({v[0], v[1]}) * 2;
        },
        "D");
    Schedule sch = createSchedule(d.op);
    auto [outer, inner] = sch[d].split(d.op.as<ComputeOpNode>()->axis[1], 8);
    sch[c].computeAt(sch[d], inner);
    AttachPathMap paths = createAttachPath(sch);
    EXPECT_EQ(names(paths.at(c.op)), (Names{"j.inner", "j.outer", "i"}));
}

TEST(Graph, AttachPathExtendsThroughTheAttachStagesChain) {
    // Seed 000, "Building an Attach Path": C at D.dj, D at E.ej.
    Tensor c = compute({5, 16}, five, "C");
    Tensor d = compute({5, 16},
                       [&](const std::vector<Var>& v) {
                           return c({v[0], v[1]}) * 2;
                       },
                       "D", "", {"di", "dj"});
    Tensor e = compute({5, 16},
                       [&](const std::vector<Var>& v) {
                           return d({v[0], v[1]}) * 4;
                       },
                       "E", "", {"ei", "ej"});
    Schedule sch = createSchedule(e.op);
    sch[c].computeAt(sch[d], d.op.as<ComputeOpNode>()->axis[1]);
    sch[d].computeAt(sch[e], e.op.as<ComputeOpNode>()->axis[1]);
    AttachPathMap paths = createAttachPath(sch);
    EXPECT_EQ(names(paths.at(c.op)), (Names{"dj", "di", "ej", "ei"}));
    EXPECT_EQ(names(paths.at(d.op)), (Names{"ej", "ei"}));
    EXPECT_TRUE(paths.at(e.op).empty());
    // C's path continues D's: built from it, not walked again (a nest of N attached stages
    // would walk N^2 loops), and copies share it.
    EXPECT_EQ(paths.at(c.op).segmentSize(), 2u);
    EXPECT_EQ(paths.at(c.op).outer().id(), paths.at(d.op).id());
    EXPECT_EQ(paths.at(d.op).outer().id(), nullptr);
    AttachPath copy = paths.at(c.op);
    EXPECT_EQ(copy.id(), paths.at(c.op).id());
}

TEST(Graph, AttachPathsContinuingOnePathKeepTheirOwnLoops) {
    // A builder stores a path's loops after the outer path's, in its storage when nothing
    // follows them yet: the first path continuing `outer` extends it in place, the next ones
    // copy it. Paths built without a builder copy too; every one sees its own loops.
    auto loop = [](const char* name) {
        return IterVar(Range(0, 4), Var(name), IterVarType::DataPar);
    };
    IterVar a = loop("a"), b = loop("b"), c = loop("c"), d = loop("d"), e = loop("e");
    const AttachPath::Builder builder;
    AttachPath outer = builder.continuing({a}, AttachPath());
    AttachPath first = builder.continuing({b}, outer);
    AttachPath second = builder.continuing({c, d}, outer);
    AttachPath same = builder.continuing({}, outer);
    AttachPath third = builder.continuing({e}, same);
    AttachPath deeper = builder.continuing({e}, first);
    AttachPath copied({d}, first);
    AttachPath otherBuilder = AttachPath::Builder().continuing({c}, deeper);
    EXPECT_EQ(names(outer), (Names{"a"}));
    EXPECT_EQ(names(first), (Names{"b", "a"}));
    EXPECT_EQ(names(second), (Names{"c", "d", "a"}));
    EXPECT_EQ(names(same), (Names{"a"}));
    EXPECT_EQ(names(third), (Names{"e", "a"}));
    EXPECT_EQ(names(deeper), (Names{"e", "b", "a"}));
    EXPECT_EQ(names(copied), (Names{"d", "b", "a"}));
    EXPECT_EQ(names(otherBuilder), (Names{"c", "e", "b", "a"}));
    EXPECT_EQ(names(builder.continuing({d}, deeper)), (Names{"d", "e", "b", "a"}));
    // A path with no loops of its own is still a path of its own.
    EXPECT_NE(same.id(), outer.id());
    EXPECT_EQ(same.outer().id(), outer.id());
    EXPECT_EQ(second.segmentSize(), 2u);
    EXPECT_EQ(second.outer().id(), outer.id());
    // Indexed from the innermost; reverse iteration is outermost first.
    EXPECT_TRUE(second.front().same_as(c));
    EXPECT_TRUE(second[1].same_as(d));
    EXPECT_TRUE(second.back().same_as(a));
    EXPECT_EQ(names(std::vector<IterVar>(deeper.rbegin(), deeper.rend())), (Names{"a", "b", "e"}));
    EXPECT_TRUE(AttachPath().empty());
    EXPECT_EQ(AttachPath().begin(), AttachPath().end());
}

TEST(Graph, AttachAtAnOuterAxisStartsThere) {
    // Seed 000, Ex. 3: C at axis i of D has the path {i}.
    Tensor c = compute({5, 16}, five, "C");
    Tensor d = compute(
        {5, 16},
        [&](const std::vector<Var>& v) {
            return c({v[0], v[1]}) * 2;
        },
        "D");
    Schedule sch = createSchedule(d.op);
    sch[c].computeAt(sch[d], d.op.as<ComputeOpNode>()->axis[0]);
    EXPECT_EQ(names(createAttachPath(sch).at(c.op)), (Names{"i"}));
}

TEST(Graph, AttachPathRejectsAStaleAttachPoint) {
    Tensor c = compute({5, 16}, five, "C");
    Tensor d = compute(
        {5, 16},
        [&](const std::vector<Var>& v) {
            return c({v[0], v[1]}) * 2;
        },
        "D");
    Schedule sch = createSchedule(d.op);
    IterVar j = d.op.as<ComputeOpNode>()->axis[1];
    sch[c].computeAt(sch[d], j);
    sch[d].split(j, 8);
    try {
        createAttachPath(sch);
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_STREQ(e.what(), "invalid schedule: stage 'C' is computed at 'j' of stage 'D', but "
                               "'j' is no longer a leaf (it was split into 'j.outer' and "
                               "'j.inner')");
    }
    // normalize() re-targets the attach point, after which the path exists.
    Schedule normalized = sch.normalize();
    EXPECT_EQ(names(createAttachPath(normalized).at(normalized[c]->op)),
              (Names{"j.inner", "j.outer", "i"}));
}

TEST(Graph, BindMapCollectsBoundLeaves) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    IterVar bx = threadAxis("blockIdx.x");
    IterVar tx = threadAxis("threadIdx.x");
    c.bind(p.axis(0), bx);
    c.bind(p.axis(1), tx);
    IterVarMap<IterVar> bindMap = createBindMap(p.sch);
    ASSERT_EQ(bindMap.size(), 2u);
    EXPECT_TRUE(bindMap.at(p.axis(0)).same_as(bx));
    EXPECT_TRUE(bindMap.at(p.axis(1)).same_as(tx));
}

TEST(Graph, ScheduleReadGraphUsesTheCurrentOperations) {
    test::Elementwise p;
    Tensor cache = p.sch.cacheRead(p.a, "shared", {p.c.op});
    ReadGraph graph = createReadGraph(p.sch);
    ASSERT_EQ(p.sch.outputs().size(), 1u);
    const std::vector<Tensor>& inputs = graph.at(p.sch.outputs()[0]);
    ASSERT_EQ(inputs.size(), 1u);
    EXPECT_TRUE(inputs[0].same_as(cache));
}

} // namespace
} // namespace bs
