// Long chains of the stage DAG drawn as one node (viz/CollapseChains.h, issue 17 item 7).
#include "VizTestUtil.h"

#include "viz/CollapseChains.h"
#include "viz/Dot.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::viz;

namespace {

/// A -> S1 -> S2 -> ... -> Sn: a placeholder and a pipeline of n elementwise stages.
Schedule pipeline(int n) {
    Tensor t = placeholder({64}, DataType::float32(), "A");
    for (int k = 1; k <= n; ++k) {
        const Tensor in = t;
        t = compute(
            {64}, [in](const std::vector<Var>& v) { return in({v[0]}) + 1; },
            "S" + std::to_string(k));
    }
    return createSchedule(t.op);
}

std::vector<std::string> ids(const Graph& graph) {
    std::vector<std::string> out;
    for (const GraphNode& node : graph.nodes)
        out.push_back(node.id);
    return out;
}

} // namespace

TEST(CollapseChains, AFiftyStagePipelineKeepsItsEndsAndOneNodeForTheRest) {
    const Graph dag = stageDag({pipeline(50)});
    ASSERT_EQ(dag.nodes.size(), 51u);
    const Graph g = collapseChains(dag);
    // S1 .. S49 have one edge in and one out (A is an input, S50 the output): S1 and S49
    // stay, the 47 between become one node.
    ASSERT_EQ(ids(g), (std::vector<std::string>{"stage0", "stage1", "chain_stage2_stage48",
                                                "stage49", "stage50"}));
    const GraphNode& chain = g.nodes[2];
    EXPECT_EQ(chain.kind, GraphNodeKind::Chain);
    EXPECT_EQ(chain.field("stages"), "47");
    EXPECT_EQ(chain.field("first"), "S2");
    EXPECT_EQ(chain.field("last"), "S48");
    EXPECT_EQ(chain.title, "47 stages\nS2 \u2026 S48\n(click to expand)");
    // The edges go through it, keeping their tensors.
    ASSERT_EQ(g.edges.size(), 4u);
    EXPECT_EQ(g.edgesTo(chain.id).front()->from, "stage1");
    EXPECT_EQ(g.edgesTo(chain.id).front()->label, "S1");
    EXPECT_EQ(g.edgesFrom(chain.id).front()->to, "stage49");
    EXPECT_EQ(g.edgesFrom(chain.id).front()->label, "S48");
    checkGraph(g);
    EXPECT_FALSE(toDot(g).empty());
    EXPECT_EQ(chainHolding(g, "stage20"), &chain);
    EXPECT_EQ(chainHolding(g, "stage1"), nullptr);
}

TEST(CollapseChains, ShortRunsExpandedChainsAndKeptNodesStayWhole) {
    // Two stages between the ends are fewer than the three a chain node stands for.
    EXPECT_EQ(collapseChains(stageDag({pipeline(5)})).nodes.size(), 6u);
    const Graph dag = stageDag({pipeline(12)});
    EXPECT_EQ(collapseChains(dag).nodes.size(), 5u);
    ChainOptions expanded;
    expanded.expanded = {"chain_stage2_stage10"};
    EXPECT_EQ(collapseChains(dag, expanded).nodes.size(), 13u);
    // A kept stage (the selection) splits the run: S2..S5 and S7..S10 around S6.
    ChainOptions keep;
    keep.keep = {"stage6"};
    const Graph split = collapseChains(dag, keep);
    EXPECT_EQ(ids(split), (std::vector<std::string>{"stage0", "stage1", "chain_stage2_stage4",
                                                    "stage5", "stage6", "stage7",
                                                    "chain_stage8_stage10", "stage11", "stage12"}));
    checkGraph(split);
}

TEST(CollapseChains, BranchesAndMarkedStagesAreNeverHidden) {
    // B feeds two consumers: no chain passes through it.
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = compute(
        {8}, [a](const std::vector<Var>& v) { return a({v[0]}) + 1; }, "B");
    Tensor c = compute(
        {8}, [b](const std::vector<Var>& v) { return b({v[0]}) * 2; }, "C");
    Tensor d = compute(
        {8}, [b, c](const std::vector<Var>& v) { return b({v[0]}) + c({v[0]}); }, "D");
    const Graph small = stageDag({createSchedule(d.op)});
    EXPECT_EQ(collapseChains(small).nodes.size(), small.nodes.size());
    // A highlighted (or failed) stage stays in sight.
    Graph dag = stageDag({pipeline(12)});
    dag.nodes[6].highlighted = true;
    EXPECT_NE(collapseChains(dag).findNode("stage6"), nullptr);
}
