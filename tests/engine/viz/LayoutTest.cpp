// Graphviz layout and rendering (viz/Layout.h). Built without Graphviz, the same tests check
// that layout and SVG/PNG fail with a clear UserError while DOT still works.
#include "viz/Layout.h"
#include "VizTestUtil.h"
#include "viz/Dot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

using namespace bs;
using namespace bs::viz;
using namespace bs::viz::test;

namespace {

/// Every picture of the seed's examples, with bounds and trace.
std::vector<Graph> exampleGraphs() {
    std::vector<Graph> graphs;
    Ex4 ex4;
    Bounded b4(ex4.s);
    graphs.push_back(stageDag(b4.input()));
    graphs.push_back(attachTree(b4.input(), b4.stage(ex4.C)));
    graphs.push_back(consumerRequests(b4.input(), b4.stage(ex4.C)));
    Ex6 ex6;
    Bounded b6(ex6.s);
    graphs.push_back(iterVarGraph(b6.input()));
    graphs.push_back(consumerRequests(b6.input(), b6.stage(ex6.B)));
    SplitFuse sf;
    Bounded bsf(sf.s);
    graphs.push_back(iterVarGraph(bsf.input(), bsf.stage(sf.C)));
    return graphs;
}

bool isFinite(const Box& b) {
    return std::isfinite(b.x) && std::isfinite(b.y) && std::isfinite(b.width) &&
           std::isfinite(b.height);
}

void expectSaneLayout(const Graph& g, const GraphLayout& l) {
    ASSERT_EQ(l.nodes.size(), g.nodes.size()) << g.name;
    ASSERT_EQ(l.edges.size(), g.edges.size()) << g.name;
    EXPECT_GT(l.width, 0);
    EXPECT_GT(l.height, 0);
    for (size_t i = 0; i < l.nodes.size(); ++i) {
        const Box& b = l.nodes[i].box;
        EXPECT_EQ(l.nodes[i].id, g.nodes[i].id);
        EXPECT_TRUE(isFinite(b)) << g.name << " " << l.nodes[i].id;
        EXPECT_GT(b.width, 0) << l.nodes[i].id;
        EXPECT_GT(b.height, 0) << l.nodes[i].id;
        // Inside the drawing, y down (allowing Graphviz's rounding of half points).
        EXPECT_GE(b.x, -1);
        EXPECT_GE(b.y, -1);
        EXPECT_LE(b.x + b.width, l.width + 1);
        EXPECT_LE(b.y + b.height, l.height + 1);
        for (size_t k = i + 1; k < l.nodes.size(); ++k)
            EXPECT_FALSE(b.overlaps(l.nodes[k].box))
                << g.name << ": " << l.nodes[i].id << " overlaps " << l.nodes[k].id;
    }
    for (const EdgeLayout& e : l.edges) {
        ASSERT_FALSE(e.splines.empty()) << g.name << " " << e.id;
        EXPECT_GE(e.splines[0].points.size(), 4u);
        for (const EdgeSpline& s : e.splines)
            for (const Point& p : s.points)
                EXPECT_TRUE(std::isfinite(p.x) && std::isfinite(p.y));
    }
}

} // namespace

TEST(Layout, BoxesOverlapOnlyWhenInteriorsMeet) {
    Box a{0, 0, 10, 10};
    EXPECT_TRUE(a.overlaps(Box{5, 5, 10, 10}));
    EXPECT_FALSE(a.overlaps(Box{10, 0, 10, 10}));
    EXPECT_FALSE(a.overlaps(Box{0, 11, 10, 10}));
    EXPECT_EQ(a.center().x, 5);
}

TEST(Layout, FormatNamesRoundTrip) {
    for (GraphFormat f : {GraphFormat::Dot, GraphFormat::Svg, GraphFormat::Png})
        EXPECT_EQ(parseGraphFormat(graphFormatName(f)), f);
    EXPECT_FALSE(parseGraphFormat("pdf").has_value());
}

TEST(Layout, WithoutGraphvizLayoutAndRenderAreClearErrors) {
    if (graphvizAvailable())
        GTEST_SKIP() << "built with Graphviz";
    Ex4 ex;
    Graph g = stageDag({ex.s});
    try {
        layout(g);
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()), "Graphviz support was not built");
    }
    EXPECT_THROW(render(g, GraphFormat::Svg), UserError);
    EXPECT_EQ(render(g, GraphFormat::Dot), toDot(g));
}

TEST(Layout, EveryNodeGetsAFiniteBoxAndNoBoxesOverlap) {
    if (!graphvizAvailable())
        GTEST_SKIP() << "built without Graphviz";
    for (const Graph& g : exampleGraphs())
        expectSaneLayout(g, layout(g));
}

TEST(Layout, RanksFlowInTheGraphsDirection) {
    if (!graphvizAvailable())
        GTEST_SKIP() << "built without Graphviz";
    Ex6 ex;
    Graph dag = stageDag({ex.s});
    GraphLayout l = layout(dag);
    // Top to bottom: A above B above C (y grows downwards).
    EXPECT_LT(l.findNode("stage0")->box.center().y, l.findNode("stage1")->box.center().y);
    EXPECT_LT(l.findNode("stage1")->box.center().y, l.findNode("stage2")->box.center().y);
    ASSERT_TRUE(l.edges[0].splines[0].arrowAtEnd.has_value());
    EXPECT_TRUE(l.edges[0].labelCenter.has_value());
}

TEST(Layout, LeavesAreLaidOutLeftToRightInLoopOrder) {
    if (!graphvizAvailable())
        GTEST_SKIP() << "built without Graphviz";
    SplitFuse ex;
    Bounded b(ex.s);
    Graph g = iterVarGraph(b.input(), b.stage(ex.C));
    GraphLayout l = layout(g);
    const std::vector<std::string>& leaves = g.rankGroups[0].nodes;
    for (size_t i = 0; i + 1 < leaves.size(); ++i) {
        const Box& left = l.findNode(leaves[i])->box;
        const Box& right = l.findNode(leaves[i + 1])->box;
        EXPECT_EQ(left.center().y, right.center().y);
        EXPECT_LT(left.center().x, right.center().x);
    }
}

TEST(Layout, ClustersEncloseTheirNodes) {
    if (!graphvizAvailable())
        GTEST_SKIP() << "built without Graphviz";
    Ex6 ex;
    Graph g = iterVarGraph({ex.s});
    GraphLayout l = layout(g);
    ASSERT_EQ(l.clusters.size(), 2u);
    EXPECT_EQ(l.clusters[0].id, "cluster_stage1");
    const Box& c = l.clusters[1].box;
    const Box& n = l.findNode("iv2_0")->box;
    EXPECT_LE(c.x, n.x);
    EXPECT_LE(c.y, n.y);
    EXPECT_GE(c.x + c.width, n.x + n.width);
    EXPECT_GE(c.y + c.height, n.y + n.height);
}

TEST(Layout, SvgContainsEveryNodeLabel) {
    if (!graphvizAvailable())
        GTEST_SKIP() << "built without Graphviz";
    Ex6 ex;
    Bounded b(ex.s);
    Graph g = attachTree(b.input());
    std::string svg = render(g, GraphFormat::Svg);
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    for (const GraphNode& n : g.nodes) {
        EXPECT_NE(svg.find("id=\"" + n.id + "\""), std::string::npos) << n.id;
        std::string first = n.title.substr(0, n.title.find('\n'));
        EXPECT_NE(svg.find(">" + escapeHtml(first) + "<"), std::string::npos) << first;
        for (const LabelRow& row : n.rows)
            for (const LabelCell& cell : row.cells) {
                std::string line = cell.text.substr(0, cell.text.find('\n'));
                EXPECT_NE(svg.find(escapeHtml(line)), std::string::npos) << line;
            }
    }
}

TEST(Layout, PngStartsWithThePngSignature) {
    if (!graphvizAvailable())
        GTEST_SKIP() << "built without Graphviz";
    Ex4 ex;
    std::string png = render(stageDag({ex.s}), GraphFormat::Png);
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(Layout, TwoThreadsCanLayOutAtOnce) {
    if (!graphvizAvailable())
        GTEST_SKIP() << "built without Graphviz";
    std::vector<Graph> graphs = exampleGraphs();
    std::vector<GraphLayout> expected;
    for (const Graph& g : graphs)
        expected.push_back(layout(g));
    // Each thread lays out every graph several times; the mutex serialises Graphviz, so every
    // result equals the single-threaded one.
    auto work = [&](std::vector<bool>* same) {
        for (int round = 0; round < 5; ++round)
            for (size_t i = 0; i < graphs.size(); ++i) {
                GraphLayout l = layout(graphs[i]);
                bool equal = l.width == expected[i].width && l.height == expected[i].height;
                for (size_t n = 0; equal && n < l.nodes.size(); ++n)
                    equal = l.nodes[n].box.x == expected[i].nodes[n].box.x &&
                            l.nodes[n].box.y == expected[i].nodes[n].box.y;
                same->push_back(equal);
            }
    };
    std::vector<bool> a;
    std::vector<bool> b;
    std::thread t1(work, &a);
    std::thread t2(work, &b);
    t1.join();
    t2.join();
    ASSERT_EQ(a.size(), graphs.size() * 5);
    ASSERT_EQ(b.size(), graphs.size() * 5);
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_TRUE(a[i]) << i;
        EXPECT_TRUE(b[i]) << i;
    }
}
