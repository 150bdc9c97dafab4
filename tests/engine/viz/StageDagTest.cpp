// The stage DAG model (viz/ScheduleGraphs.h): nodes, edges, styles and rich fields.
#include "VizTestUtil.h"

#include "analysis/ScheduleFixes.h"
#include "viz/Dot.h"
#include "viz/Layout.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::viz;
using namespace bs::viz::test;

TEST(StageDag, OneNodePerStageAndOneEdgePerTensorRead) {
    Ex6 ex;
    Graph g = stageDag({ex.s});
    EXPECT_EQ(g.kind, GraphKind::StageDag);
    EXPECT_EQ(titles(g.nodesOfKind(GraphNodeKind::Stage)), (Names{"A", "B", "C"}));
    ASSERT_EQ(g.edges.size(), 2u);
    EXPECT_EQ(g.edges[0].from, "stage0");
    EXPECT_EQ(g.edges[0].to, "stage1");
    EXPECT_EQ(g.edges[0].label, "A");
    EXPECT_EQ(g.edges[1].from, "stage1");
    EXPECT_EQ(g.edges[1].to, "stage2");
    EXPECT_EQ(g.edges[1].label, "B");
    EXPECT_EQ(g.edges[1].style, EdgeStyle::Dataflow);
}

TEST(StageDag, OutputsAndPlaceholdersAreStyledApart) {
    Ex6 ex;
    Graph g = stageDag({ex.s});
    EXPECT_EQ(g.findNode("stage0")->style, NodeStyle::Placeholder);
    EXPECT_EQ(g.findNode("stage1")->style, NodeStyle::Compute);
    EXPECT_EQ(g.findNode("stage2")->style, NodeStyle::Output);
    EXPECT_EQ(g.findNode("stage2")->field("output"), "true");
    EXPECT_EQ(rowText(g.findNode("stage2")->rows[0]), "compute, output");
}

TEST(StageDag, Ex6ShowsTheScopeSetOnB) {
    Ex6 ex;
    Graph g = stageDag({ex.s});
    const GraphNode* b = g.findNode("stage1");
    EXPECT_EQ(b->field("scope"), "shared");
    EXPECT_EQ(b->field("scope_source"), "set");
    EXPECT_EQ(b->field("attach"), "at C.i");
    std::vector<std::string> rows;
    for (const LabelRow& row : b->rows)
        rows.push_back(rowText(row));
    EXPECT_EQ(rows, (Names{"compute", "float32 [200, 400]", "scope: shared", "at C.i"}));
}

TEST(StageDag, Ex8ShowsTheScopeInferredByInferBound) {
    Ex6 ex(/*setShared=*/false);
    Bounded b(ex.s);
    Graph g = stageDag(b.input());
    const GraphNode* node = g.findNode("stage1");
    EXPECT_EQ(node->field("scope"), "shared");
    EXPECT_EQ(node->field("scope_source"), "inferred");
    EXPECT_EQ(rowText(node->rows[2]), "scope: shared (inferred)");
}

TEST(StageDag, ScopeIsUnknownWithoutATrace) {
    Ex6 ex(/*setShared=*/false);
    Graph g = stageDag({ex.s});
    EXPECT_EQ(g.findNode("stage1")->field("scope_source"), "unknown");
    EXPECT_EQ(g.findNode("stage0")->field("scope"), "global");
    EXPECT_EQ(g.findNode("stage0")->field("scope_source"), "default");
}

TEST(StageDag, ShowsOpKindShapeAndDtype) {
    SplitFuse ex;
    Graph g = stageDag({ex.s});
    EXPECT_EQ(g.findNode("stage0")->field("op"), "placeholder");
    EXPECT_EQ(g.findNode("stage0")->field("type"), "float32 [16, 32, 8]");
    EXPECT_EQ(g.findNode("stage1")->field("op"), "reduction");
    EXPECT_EQ(g.findNode("stage1")->field("type"), "float32 [16, 32]");
    // A placeholder has no scope or attach rows: it is not computed anywhere.
    EXPECT_EQ(g.findNode("stage0")->rows.size(), 2u);
}

TEST(StageDag, NodesAndEdgesCarryTheScriptLineThatMadeThem) {
    Tensor a;
    Tensor c;
    {
        ScopedSourceLocation at(SourceLocation{"ex.py", 3});
        a = placeholder({8}, DataType::float32(), "A");
    }
    {
        ScopedSourceLocation at(SourceLocation{"ex.py", 4});
        c = compute(
            {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "C");
    }
    Schedule s;
    {
        ScopedSourceLocation at(SourceLocation{"ex.py", 5});
        s = createSchedule(c.op);
    }
    Graph g = stageDag({s});
    // Stages are created by create_schedule; the edge is the read in C's compute.
    EXPECT_EQ(g.findNode("stage1")->location.line, 5);
    EXPECT_EQ(g.edges[0].location.line, 4);
    EXPECT_EQ(g.findNode("stage1")->ref, ObjectRef{1});
}

TEST(StageDag, InlinedStageIsStyledApartAndBypassedAfterNormalize) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "B");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return b({v[0]}) * 2.0f; }, "C");
    Schedule s = createSchedule(c.op);
    s[b].computeInline();
    Graph before = stageDag({s});
    EXPECT_EQ(before.findNode("stage1")->style, NodeStyle::Inlined);
    EXPECT_EQ(before.findNode("stage1")->field("attach"), "inline");
    // It has no buffer, so its rows say so instead of a scope.
    EXPECT_EQ(rowText(before.findNode("stage1")->rows[2]), "no buffer");
    Graph after = stageDag({s.normalize()});
    EXPECT_EQ(after.findNode("stage1")->field("attach"), "inlined");
    // C reads A directly now; B's own expression still reads A, nothing reads B.
    std::vector<std::string> edges;
    for (const GraphEdge& e : after.edges)
        edges.push_back(e.from + "->" + e.to);
    EXPECT_EQ(edges, (Names{"stage0->stage1", "stage0->stage2"}));
}

TEST(StageDag, MultiOutputTensorsAreLabelledWithTheirIndex) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    std::vector<Tensor> mo = computeMulti(
        {8},
        [&](const std::vector<Var>& v) {
            return std::vector<Expr>{a({v[0]}) + 1.0f, a({v[0]}) * 2.0f};
        },
        "M");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return mo[1]({v[0]}); }, "C");
    Graph g = stageDag({createSchedule(c.op)});
    ASSERT_EQ(g.edges.size(), 2u);
    EXPECT_EQ(g.edges[1].label, "M[1]");
}

TEST(BuildGraph, SelectsTheStageByName) {
    Ex4 ex;
    Graph g = buildGraph({ex.s}, GraphKind::IterVarRelations, "D");
    EXPECT_EQ(g.name, "IterVar relations of D");
    EXPECT_EQ(buildGraph({ex.s}, GraphKind::StageDag).kind, GraphKind::StageDag);
}

TEST(BuildGraph, UnknownStageNamesTheStagesThereAre) {
    Ex4 ex;
    try {
        buildGraph({ex.s}, GraphKind::AttachTree, "X");
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()), "no stage named 'X'; the stages are 'C', 'D'");
    }
}

TEST(BuildGraph, EachOfTwoStagesOfTheDefaultNameIsFoundByItsOwn) {
    // Both are te.compute's `compute`; create_schedule names the second `compute_1`.
    Tensor a = compute({4}, [](const std::vector<Var>&) { return Expr(1); });
    Tensor b = compute({4}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1; });
    Schedule s = createSchedule(b.op);
    EXPECT_TRUE(findStageByName(s, "compute")->op.same_as(a.op));
    EXPECT_TRUE(findStageByName(s, "compute_1")->op.same_as(b.op));
}

TEST(BuildGraph, AmbiguousStageNameIsAUserError) {
    // Each `compute` was named by a schedule of its own, so a schedule of both has two.
    Tensor a = compute({4}, [](const std::vector<Var>&) { return Expr(1); });
    Tensor b = compute({4}, [](const std::vector<Var>&) { return Expr(2); });
    createSchedule(a.op);
    createSchedule(b.op);
    Schedule s = createSchedule(std::vector<Operation>{a.op, b.op});
    EXPECT_THROW(findStageByName(s, "compute"), UserError);
}

TEST(BuildGraph, RequestsGraphNeedsAStage) {
    Ex4 ex;
    Bounded b(ex.s);
    EXPECT_THROW(buildGraph(b.input(), GraphKind::ConsumerRequests), UserError);
    EXPECT_EQ(buildGraph(b.input(), GraphKind::ConsumerRequests, "C").kind,
              GraphKind::ConsumerRequests);
}

TEST(GraphModel, KindAndFormatNamesRoundTrip) {
    for (GraphKind k : {GraphKind::StageDag, GraphKind::IterVarRelations, GraphKind::AttachTree,
                        GraphKind::ConsumerRequests})
        EXPECT_EQ(parseGraphKind(graphKindName(k)), k);
    EXPECT_FALSE(parseGraphKind("tree").has_value());
}

namespace {

/// A -> B -> C -> D (8 x 8 copies), groups: inner = {C}, outer = {B, inner}, the outer group
/// computed at D's first axis.
struct Grouped {
    Tensor a = placeholder({8, 8}, DataType::float32(), "A");
    Tensor b = compute(
        {8, 8},
        [this](const std::vector<Var>& v) {
            return a({v[0], v[1]});
        },
        "B");
    Tensor c = compute(
        {8, 8},
        [this](const std::vector<Var>& v) {
            return b({v[0], v[1]});
        },
        "C");
    Tensor d = compute(
        {8, 8},
        [this](const std::vector<Var>& v) {
            return c({v[0], v[1]});
        },
        "D");
    Schedule s = createSchedule(d.op);
    Stage inner = s.createGroup({c}, {b}, false);
    Stage outer = s.createGroup({c}, {b}, true);

    Grouped() { outer.computeAt(s[d], d.op.as<ComputeOpNode>()->axis[0]); }
};

} // namespace

TEST(StageDag, GroupsAreNestedBoxesAroundTheirStages) {
    Grouped ex;
    Graph g = stageDag({ex.s});
    ASSERT_EQ(g.clusters.size(), 2u);
    // The outer group first, though it was created second.
    EXPECT_EQ(g.clusters[0].id, "cluster_group1");
    EXPECT_EQ(g.clusters[0].label, "group1 (at D.i)");
    EXPECT_EQ(g.clusters[0].parent, "");
    EXPECT_EQ(g.clusters[1].id, "cluster_group0");
    EXPECT_EQ(g.clusters[1].label, "group0");
    EXPECT_EQ(g.clusters[1].parent, "cluster_group1");
    EXPECT_EQ(g.findNode("stage1")->cluster, "cluster_group1"); // B
    EXPECT_EQ(g.findNode("stage2")->cluster, "cluster_group0"); // C
    EXPECT_EQ(g.findNode("stage3")->cluster, "");               // D
    EXPECT_EQ(g.findNode("stage1")->field("attach"), "at D.i (group1)");
    std::string dot = toDot(g);
    size_t outerAt = dot.find("subgraph \"cluster_group1\"");
    size_t innerAt = dot.find("    subgraph \"cluster_group0\"");
    ASSERT_NE(outerAt, std::string::npos) << dot;
    ASSERT_NE(innerAt, std::string::npos) << dot;
    EXPECT_LT(outerAt, innerAt) << dot;
}

TEST(StageDag, NestedGroupBoxesEncloseEachOtherInTheLayout) {
    if (!graphvizAvailable())
        GTEST_SKIP() << "built without Graphviz";
    Grouped ex;
    GraphLayout l = layout(stageDag({ex.s}));
    ASSERT_EQ(l.clusters.size(), 2u);
    auto encloses = [](const Box& outer, const Box& inner) {
        return outer.x <= inner.x && outer.y <= inner.y &&
               outer.x + outer.width >= inner.x + inner.width &&
               outer.y + outer.height >= inner.y + inner.height;
    };
    EXPECT_TRUE(encloses(l.clusters[0].box, l.clusters[1].box));
    EXPECT_TRUE(encloses(l.clusters[1].box, l.findNode("stage2")->box));
    EXPECT_FALSE(encloses(l.clusters[0].box, l.findNode("stage3")->box));
}
