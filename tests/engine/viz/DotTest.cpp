// DOT output (viz/Dot.h): a golden graph, escaping, ports, clusters, rank groups, determinism.
#include "viz/Dot.h"
#include "VizTestUtil.h"
#include "support/Markup.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::viz;
using namespace bs::viz::test;

namespace {

/// A (8) -> C = A + 1, the smallest DAG with a placeholder and an output.
Schedule smallSchedule() {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "C");
    return createSchedule(c.op);
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST(Dot, GoldenStageDag) {
    std::string dot = toDot(stageDag({smallSchedule()}));
    EXPECT_EQ(dot, R"(digraph "Stage DAG" {
  graph [rankdir=TB, fontname="Helvetica", fontsize=11, nodesep=0.35, ranksep=0.5];
  node [fontname="Helvetica", fontsize=10];
  edge [fontname="Helvetica", fontsize=9];
  "stage0" [id="stage0", shape=plaintext, margin=0, label=<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4" BGCOLOR="#E5E8E8" COLOR="#000000"><TR><TD><B>A</B></TD></TR><TR><TD>placeholder</TD></TR><TR><TD>float32 [8]</TD></TR></TABLE>>];
  "stage1" [id="stage1", shape=plaintext, margin=0, label=<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4" BGCOLOR="#D5F5E3" COLOR="#000000"><TR><TD><B>C</B></TD></TR><TR><TD>compute, output</TD></TR><TR><TD>float32 [8]</TD></TR><TR><TD>scope: global</TD></TR><TR><TD>root</TD></TR></TABLE>>];
  "stage0" -> "stage1" [id="e0", label="A"];
}
)");
}

TEST(Dot, OutputIsDeterministic) {
    SplitFuse a;
    SplitFuse b;
    EXPECT_EQ(toDot(iterVarGraph({a.s.normalize()})), toDot(iterVarGraph({b.s.normalize()})));
}

TEST(Dot, EscapesHtmlAndQuotedText) {
    EXPECT_EQ(escapeHtml("a<b> & \"c\" 'd'"), "a&lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;");
    EXPECT_EQ(escapeHtml("x\ty\x01"), "xy");
    EXPECT_EQ(quoteDot("say \"hi\"\\\nbye"), "\"say \\\"hi\\\"\\\\\\nbye\"");
}

TEST(Dot, UserTextInLabelsIsEscaped) {
    Graph g;
    g.name = "odd \"name\"";
    GraphNode n;
    n.id = "n0";
    n.title = "<b>&";
    n.rows.emplace_back();
    n.rows.back().cells.emplace_back();
    n.rows.back().cells.back().text = "x < y\nz > w";
    g.nodes.push_back(n);
    GraphNode plain;
    plain.id = "n1";
    plain.title = "a\"b";
    g.nodes.push_back(plain);
    std::string dot = toDot(g);
    EXPECT_NE(dot.find("digraph \"odd \\\"name\\\"\""), std::string::npos);
    EXPECT_NE(dot.find("<B>&lt;b&gt;&amp;</B>"), std::string::npos);
    EXPECT_NE(dot.find("x &lt; y<BR/>z &gt; w"), std::string::npos);
    EXPECT_NE(dot.find("label=\"a\\\"b\""), std::string::npos);
}

TEST(Dot, EdgesUsePortsAndShortRowsSpanTheTable) {
    SplitFuse ex;
    std::string dot = toDot(iterVarGraph({ex.s}, ex.s[ex.C]));
    EXPECT_NE(dot.find("\"iv1_1\" -> \"rel1_0\":\"parent\":n [id="), std::string::npos);
    EXPECT_NE(dot.find("\"rel1_0\":\"outer\":s -> \"iv1_3\" [id="), std::string::npos);
    // The relation's name row has one cell under two port cells.
    EXPECT_NE(dot.find("<TD COLSPAN=\"2\"><B>Split<BR/>factor 4</B></TD>"), std::string::npos);
}

TEST(Dot, ClustersHoldTheirNodesAndOrderedLeaves) {
    Ex6 ex;
    std::string dot = toDot(iterVarGraph({ex.s}));
    EXPECT_EQ(count(dot, "subgraph \"cluster_stage"), 2u);
    size_t cluster = dot.find("subgraph \"cluster_stage2\"");
    size_t node = dot.find("\"iv2_0\" [id=");
    size_t end = dot.find("\n  }\n", cluster);
    EXPECT_LT(cluster, node);
    EXPECT_LT(node, end);
    EXPECT_NE(dot.find("{ rank=same; \"iv2_0\"; \"iv2_1\"; }"), std::string::npos);
    EXPECT_NE(dot.find("\"iv2_0\" -> \"iv2_1\" [style=invis];"), std::string::npos);
}

TEST(Dot, HighlightsAreDrawnInRed) {
    Ex4 ex;
    std::string dot = toDot(attachTree({ex.s}, ex.s[ex.C]));
    EXPECT_NE(dot.find("BORDER=\"3\""), std::string::npos);
    EXPECT_EQ(count(dot, "penwidth=3"), 3u); // ROOT and the two edges
    EXPECT_NE(dot.find("BGCOLOR=\"#F9E79F\""), std::string::npos);
}
