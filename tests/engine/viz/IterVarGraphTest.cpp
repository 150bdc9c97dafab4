// The IterVar relation graph model: every IterVar, every relation (Rebase included), leaves in
// loop order.
#include "VizTestUtil.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::viz;
using namespace bs::viz::test;

namespace {

std::vector<std::string> relationNames(const Graph& g) {
    std::vector<std::string> out;
    for (const GraphNode* n : g.nodesOfKind(GraphNodeKind::Relation))
        out.push_back(n->field("relation"));
    return out;
}

const GraphNode* ivNode(const Graph& g, const std::string& name, int nth = 0) {
    for (const GraphNode* n : g.nodesOfKind(GraphNodeKind::IterVar))
        if (n->title == name && nth-- == 0)
            return n;
    return nullptr;
}

} // namespace

TEST(IterVarGraph, SplitFuseStageHasSplitFuseAndRebaseNodesAfterNormalize) {
    SplitFuse ex;
    Bounded b(ex.s);
    Graph g = iterVarGraph(b.input(), b.stage(ex.C));
    EXPECT_EQ(relationNames(g), (Names{"Split", "Fuse", "Rebase"}));
    // i, j, k, j.outer, j.inner, i.j.outer.fused and the rebased k.
    EXPECT_EQ(g.nodesOfKind(GraphNodeKind::IterVar).size(), 7u);
    // Split: 1 in + 2 out; Fuse: 2 in + 1 out; Rebase: 1 in + 1 out.
    EXPECT_EQ(g.edges.size(), 8u);
}

TEST(IterVarGraph, RelationsJoinParentsAndChildrenAtTheirPorts) {
    SplitFuse ex;
    Graph g = iterVarGraph({ex.s}, ex.s[ex.C]);
    const GraphNode* split = g.findNode("rel1_0");
    ASSERT_NE(split, nullptr);
    EXPECT_EQ(rowText(split->rows[1]), "Split\nfactor 4");
    std::vector<const GraphEdge*> in = g.edgesTo("rel1_0");
    ASSERT_EQ(in.size(), 1u);
    EXPECT_EQ(g.findNode(in[0]->from)->title, "j");
    EXPECT_EQ(in[0]->toPort, "parent");
    std::vector<const GraphEdge*> out = g.edgesFrom("rel1_0");
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0]->fromPort, "outer");
    EXPECT_EQ(g.findNode(out[0]->to)->title, "j.outer");
    EXPECT_EQ(out[1]->fromPort, "inner");
    EXPECT_EQ(g.findNode(out[1]->to)->title, "j.inner");
    const GraphNode* fuse = g.findNode("rel1_1");
    EXPECT_EQ(rowText(fuse->rows[0]), "Outer | Inner");
    EXPECT_EQ(rowText(fuse->rows[2]), "Fused");
}

TEST(IterVarGraph, NPartsSplitShowsNParts) {
    Tensor e = compute(
        {64}, [](const std::vector<Var>& v) { return v[0]; }, "E");
    Schedule s = createSchedule(e.op);
    s[e].splitByNParts(e.op.as<ComputeOpNode>()->axis[0], 4);
    Graph g = iterVarGraph({s}, s[e]);
    EXPECT_EQ(rowText(g.findNode("rel0_0")->rows[1]), "Split\nnparts 4");
}

TEST(IterVarGraph, LeavesAreRankedInLoopOrder) {
    SplitFuse ex;
    Bounded b(ex.s);
    Graph g = iterVarGraph(b.input(), b.stage(ex.C));
    ASSERT_EQ(g.rankGroups.size(), 1u);
    EXPECT_TRUE(g.rankGroups[0].ordered);
    std::vector<std::string> leaves;
    for (const std::string& id : g.rankGroups[0].nodes)
        leaves.push_back(g.findNode(id)->title + "#" + g.findNode(id)->field("leaf_index"));
    EXPECT_EQ(leaves, (Names{"i.j.outer.fused#0", "j.inner#1", "k#2"}));
    // The root k is no longer a leaf: its rebased copy is.
    EXPECT_EQ(ivNode(g, "k", 0)->field("leaf_index"), "-1");
    EXPECT_EQ(ivNode(g, "k", 0)->rows[0].cells[0].text, "\u2013"); // a dash: no loop position
    EXPECT_EQ(ivNode(g, "k", 0)->field("role"), "root");
    EXPECT_EQ(ivNode(g, "k", 1)->field("role"), "leaf");
}

TEST(IterVarGraph, IterVarsShowKindRangeAndLoopAnnotation) {
    SplitFuse ex;
    Bounded b(ex.s);
    Graph g = iterVarGraph(b.input(), b.stage(ex.C));
    const GraphNode* inner = ivNode(g, "j.inner");
    EXPECT_EQ(inner->field("kind"), "kDataPar");
    EXPECT_EQ(inner->field("loop"), "kVectorized");
    EXPECT_EQ(inner->field("range"), "range(min=0, ext=4)");
    EXPECT_EQ(rowText(inner->rows[0]), "1 | kDataPar, kVectorized\nrange(min=0, ext=4)");
    EXPECT_EQ(inner->rows[0].cells[0].fill, "#AED6F1"); // TEDD's kVectorized colour
    EXPECT_EQ(ivNode(g, "k")->field("kind"), "kCommReduce");
    EXPECT_EQ(ivNode(g, "i.j.outer.fused")->field("range"), "range(min=0, ext=128)");
}

TEST(IterVarGraph, BoundLeavesShowTheirThread) {
    Ex6 ex;
    Bounded b(ex.s);
    Graph g = iterVarGraph(b.input(), b.stage(ex.C));
    const GraphNode* i = ivNode(g, "i");
    EXPECT_EQ(i->field("thread"), "blockIdx.x");
    EXPECT_EQ(i->field("range"), "range(min=0, ext=100)");
    EXPECT_NE(i->rows[0].cells[1].text.find("bound to blockIdx.x"), std::string::npos);
    EXPECT_EQ(i->rows[0].cells[0].fill, "#2980B9"); // kThreadIndex's colour, unlike TEDD
}

TEST(IterVarGraph, RangesAreNotAvailableWithoutBounds) {
    Ex5 ex;
    Graph g = iterVarGraph({ex.s}, ex.s[ex.D]);
    EXPECT_EQ(ivNode(g, "j.inner")->field("range"), "range(N/A)");
}

TEST(IterVarGraph, AllStagesAreClusteredOnePerStage) {
    Ex6 ex;
    Graph g = iterVarGraph({ex.s});
    ASSERT_EQ(g.clusters.size(), 2u); // the placeholder A has no IterVars
    EXPECT_EQ(g.clusters[0].label, "B");
    EXPECT_EQ(g.clusters[1].label, "C");
    EXPECT_EQ(g.findNode("iv2_0")->cluster, "cluster_stage2");
    ASSERT_EQ(g.rankGroups.size(), 2u);
    EXPECT_EQ(g.rankGroups[1].cluster, "cluster_stage2");
}

TEST(IterVarGraph, SingletonHasOnlyAnOutputPort) {
    Tensor e = compute(
        {8}, [](const std::vector<Var>& v) { return v[0]; }, "E");
    Schedule s = createSchedule(e.op);
    s[e].fuse(std::vector<IterVar>{});
    Graph g = iterVarGraph({s}, s[e]);
    const GraphNode* rel = g.findNode("rel0_0");
    ASSERT_NE(rel, nullptr);
    EXPECT_EQ(rel->field("relation"), "Singleton");
    ASSERT_EQ(rel->rows.size(), 2u);
    EXPECT_EQ(rowText(rel->rows[1]), "Iter");
    EXPECT_TRUE(g.edgesTo("rel0_0").empty());
    ASSERT_EQ(g.edgesFrom("rel0_0").size(), 1u);
}

TEST(IterVarGraph, NodesCarryTheLinesOfTheirIterVarsAndRelations) {
    Tensor e = compute(
        {64}, [](const std::vector<Var>& v) { return v[0]; }, "E");
    Schedule s = createSchedule(e.op);
    {
        ScopedSourceLocation at(SourceLocation{"s.py", 7});
        s[e].split(e.op.as<ComputeOpNode>()->axis[0], 8);
    }
    Graph g = iterVarGraph({s}, s[e]);
    EXPECT_EQ(g.findNode("rel0_0")->location.line, 7);
    EXPECT_EQ(ivNode(g, "i.outer")->location.line, 7);
    EXPECT_EQ(g.findNode("rel0_0")->ref, (ObjectRef{0, -1, 0}));
    EXPECT_EQ(ivNode(g, "i.inner")->ref, (ObjectRef{0, 2, -1}));
}

TEST(IterVarGraph, StageOfAnotherScheduleIsAUserError) {
    Ex4 a;
    Ex5 b;
    EXPECT_THROW(iterVarGraph({a.s}, b.s[b.D]), UserError);
}
