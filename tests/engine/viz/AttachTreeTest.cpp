// The attach tree model: stages under the leaf they are computed at, attach paths highlighted.
#include "VizTestUtil.h"

#include "schedule/Graph.h"
#include "te/Scan.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::viz;
using namespace bs::viz::test;

namespace {

std::vector<std::string> highlightedRows(const GraphNode& node) {
    std::vector<std::string> out;
    for (const LabelRow& row : node.rows)
        if (row.highlighted)
            out.push_back(row.cells[1].text.substr(0, row.cells[1].text.find(' ')));
    return out;
}

/// "from:port->to" of every highlighted edge.
std::vector<std::string> highlightedEdges(const Graph& g) {
    std::vector<std::string> out;
    for (const GraphEdge& e : g.edges)
        if (e.highlighted)
            out.push_back(e.from + ":" + e.fromPort + "->" + e.to);
    return out;
}

} // namespace

TEST(AttachTree, Ex4PutsCUnderDdk) {
    Ex4 ex;
    Bounded b(ex.s);
    Graph g = attachTree(b.input());
    // Stages in schedule order: C is stage0, D is stage1.
    std::vector<const GraphEdge*> into = g.edgesTo("stage0");
    ASSERT_EQ(into.size(), 1u);
    EXPECT_EQ(into[0]->from, "stage1");
    EXPECT_EQ(into[0]->fromPort, "l2");
    const GraphNode* d = g.findNode("stage1");
    EXPECT_EQ(d->rows[2].cells[1].text.substr(0, 2), "dk");
    EXPECT_EQ(d->rows[2].cells[1].port, "l2");
    ASSERT_EQ(g.edgesTo("stage1").size(), 1u);
    EXPECT_EQ(g.edgesTo("stage1")[0]->from, "root");
}

TEST(AttachTree, LeavesAreListedInLoopOrderWithTheirRanges) {
    Ex5 ex;
    Bounded b(ex.s);
    Graph g = attachTree(b.input());
    const GraphNode* d = g.findNode("stage1");
    ASSERT_EQ(d->rows.size(), 3u);
    EXPECT_EQ(rowText(d->rows[0]), "0 | i (kDataPar)\nrange(min=0, ext=5)");
    EXPECT_EQ(rowText(d->rows[1]), "1 | j.outer (kDataPar)\nrange(min=0, ext=2)");
    EXPECT_EQ(rowText(d->rows[2]), "2 | j.inner (kDataPar)\nrange(min=0, ext=8)");
    EXPECT_EQ(g.edgesTo("stage0")[0]->fromPort, "l2");
}

TEST(AttachTree, HighlightMarksTheAttachPathUpToTheRoot) {
    Ex4 ex;
    Bounded b(ex.s);
    Graph g = attachTree(b.input(), b.normalized[ex.C]);
    EXPECT_TRUE(g.findNode("stage0")->highlighted);
    EXPECT_TRUE(g.findNode("root")->highlighted);
    EXPECT_EQ(highlightedRows(*g.findNode("stage1")), (Names{"di", "dj", "dk"}));
    EXPECT_EQ(highlightedEdges(g), (Names{"stage1:l2->stage0", "root:->stage1"}));
    EXPECT_EQ(g.findNode("stage0")->field("attach_path"), "dk, dj, di");
}

TEST(AttachTree, HighlightFollowsAChainOfAttachments) {
    // Seed 000, "Building an Attach Path": C at D.dj, D at E.ej.
    Tensor c = compute(
        {5, 16}, [](const std::vector<Var>&) { return Expr(5); }, "C");
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
    Schedule s = createSchedule(e.op);
    s[c].computeAt(s[d], computeOf(d)->axis[1]);
    s[d].computeAt(s[e], computeOf(e)->axis[0]);
    Graph g = attachTree({s}, s[c]);
    EXPECT_EQ(highlightedRows(*g.findNode("stage1")), (Names{"di", "dj"}));
    EXPECT_EQ(highlightedRows(*g.findNode("stage2")), (Names{"ei"}));
    EXPECT_EQ(g.findNode("stage0")->field("attach_path"), "dj, di, ei");
    EXPECT_EQ(highlightedEdges(g),
              (Names{"stage1:l1->stage0", "stage2:l0->stage1", "root:->stage2"}));
    EXPECT_FALSE(g.findNode("stage1")->highlighted); // only the selected stage's box
}

TEST(AttachTree, HighlightOfARootStageMarksOnlyItsRootEdge) {
    Ex4 ex;
    Graph g = attachTree({ex.s}, ex.s[ex.D]);
    EXPECT_EQ(highlightedEdges(g), (Names{"root:->stage1"}));
    EXPECT_TRUE(highlightedRows(*g.findNode("stage1")).empty());
}

TEST(AttachTree, PlaceholdersAndInlinedStagesHaveNoLoops) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "B");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return b({v[0]}) * 2.0f; }, "C");
    Schedule s = createSchedule(c.op);
    s[b].computeInline();
    Graph g = attachTree({s.normalize()});
    EXPECT_EQ(titles(g.nodesOfKind(GraphNodeKind::Stage)), (Names{"C\nscope: global"}));
    EXPECT_EQ(g.nodes.front().id, "root");
    EXPECT_EQ(g.edges.size(), 1u);
}

TEST(AttachTree, StageTitlesShowTheScope) {
    Ex6 ex;
    Bounded b(ex.s);
    Graph g = attachTree(b.input());
    EXPECT_EQ(g.findNode("stage1")->title, "B\nscope: shared");
    // B's j is bound to threadIdx.x: the row says so.
    EXPECT_NE(g.findNode("stage1")->rows[1].cells[1].text.find("bound to threadIdx.x"),
              std::string::npos);
}

TEST(AttachTree, RowsAndEdgesReferToTheirObjects) {
    Ex4 ex;
    Graph g = attachTree({ex.s});
    EXPECT_EQ(g.findNode("stage1")->rows[2].ref, (ObjectRef{1, 2, -1}));
    EXPECT_EQ(g.edgesTo("stage0")[0]->ref, ObjectRef{0});
}

TEST(AttachTree, StageAttachedToAStageWithoutLoopsHangsOffRootWithItsAttachPoint) {
    Tensor b = compute(
        {8}, [](const std::vector<Var>& v) { return v[0]; }, "B");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return b({v[0]}) * 2; }, "C");
    Tensor d = compute(
        {8}, [&](const std::vector<Var>& v) { return c({v[0]}) + 1; }, "D");
    Schedule s = createSchedule(d.op);
    s[b].computeAt(s[c], computeOf(c)->axis[0]);
    s[c].computeInline();
    Graph g = attachTree({s}, s[b]);
    std::vector<const GraphEdge*> into = g.edgesTo("stage0");
    ASSERT_EQ(into.size(), 1u);
    EXPECT_EQ(into[0]->from, "root");
    EXPECT_EQ(into[0]->label, "at C.i");
    EXPECT_TRUE(into[0]->highlighted);
    EXPECT_EQ(g.findNode("stage1"), nullptr);
}

TEST(AttachTree, AStageAtItsGroupsRootHangsWhereTheGroupIsWithTheGroupsLine) {
    Tensor a = placeholder({8, 8}, DataType::float32(), "A");
    Tensor b = compute(
        {8, 8},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]});
        },
        "B");
    Tensor c = compute(
        {8, 8},
        [&](const std::vector<Var>& v) {
            return b({v[0], v[1]});
        },
        "C");
    Schedule s = createSchedule(c.op);
    Stage g = s.createGroup({b}, {a}, false);
    SourceLocation line{"group.py", 7};
    {
        ScopedSourceLocation at(line);
        g.computeAt(s[c], c.op.as<ComputeOpNode>()->axis[1]);
    }
    Graph graph = attachTree({s});
    // Stages in schedule order: A is stage0, B stage1, C stage2.
    std::vector<const GraphEdge*> into = graph.edgesTo("stage1");
    ASSERT_EQ(into.size(), 1u);
    EXPECT_EQ(into[0]->from, "stage2");
    EXPECT_EQ(into[0]->fromPort, "l1");
    EXPECT_EQ(into[0]->location.line, 7);
}

TEST(AttachTree, AScanUpdateHighlightsTheScanLoopsItRunsInside) {
    // res[t, i] = res[t - 1, i] + X[t, i]: the update runs inside every loop of the scan, as
    // createAttachPath (and so InferBound) says.
    Var m("m"), n("n");
    Tensor x = placeholder({m, n}, DataType::float32(), "X");
    Tensor state = placeholder({m, n}, DataType::float32(), "state");
    Tensor init = compute(
        {1, n},
        [&](const std::vector<Var>& v) {
            return x({0, v[1]});
        },
        "init");
    Tensor update = compute(
        {m, n},
        [&](const std::vector<Var>& v) {
            return state({v[0] - 1, v[1]}) + x({v[0], v[1]});
        },
        "update");
    Tensor res = scan({init}, {update}, {state}, {x}, "scan")[0];
    Schedule s = createSchedule(res.op).normalize();
    Graph g = attachTree({s}, s[update]);
    const AttachPath path = createAttachPath(s).at(update.op);
    ASSERT_GT(path.size(), 0u);
    std::string names;
    for (const IterVar& iv : path)
        names += (names.empty() ? "" : ", ") + iv->var.name();
    const GraphNode* scanNode = nullptr;
    for (const GraphNode* node : g.nodesOfKind(GraphNodeKind::Stage))
        if (node->title.rfind("scan", 0) == 0)
            scanNode = node;
    ASSERT_NE(scanNode, nullptr);
    const GraphNode* updateNode = nullptr;
    for (const GraphNode* node : g.nodesOfKind(GraphNodeKind::Stage))
        if (node->highlighted)
            updateNode = node;
    ASSERT_NE(updateNode, nullptr);
    EXPECT_EQ(updateNode->field("attach_path"), names);
    EXPECT_EQ(highlightedRows(*scanNode).size(), path.size());
}
