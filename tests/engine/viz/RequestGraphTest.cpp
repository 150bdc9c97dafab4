// The consumer requests model, from InferBound's trace (seed 000, "InferRootBound").
#include "VizTestUtil.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::viz;
using namespace bs::viz::test;

TEST(ConsumerRequests, Ex6ShowsWhatCRequestsOfB) {
    Ex6 ex;
    Bounded b(ex.s);
    Graph g = consumerRequests(b.input(), b.stage(ex.B));
    EXPECT_EQ(g.name, "Consumer requests of B");
    const GraphNode* consumer = g.findNode("consumer0");
    ASSERT_NE(consumer, nullptr);
    EXPECT_EQ(consumer->title, "consumer C");
    ASSERT_EQ(consumer->rows.size(), 2u);
    // C reads B(i, j): i is bound to blockIdx.x (a point), j's threads all share B (relaxed).
    EXPECT_EQ(rowText(consumer->rows[0]), "B[0] | i | [blockIdx.x, blockIdx.x]");
    EXPECT_EQ(rowText(consumer->rows[1]), "B[1] | j | [0, 199]");
    const GraphNode* bounds = g.findNode("bounds");
    ASSERT_EQ(bounds->rows.size(), 2u);
    EXPECT_EQ(bounds->rows[0].cells[2].text.substr(0, 28), "range(min=blockIdx.x, ext=1)");
    EXPECT_EQ(bounds->rows[1].cells[2].text.substr(0, 20), "range(min=0, ext=200");
}

TEST(ConsumerRequests, NotesExplainWhyThreadIdxWasRelaxed) {
    Ex6 ex;
    Bounded b(ex.s);
    Graph g = consumerRequests(b.input(), b.stage(ex.B));
    const GraphNode* note = g.findNode("note0");
    ASSERT_NE(note, nullptr);
    bool explained = false;
    for (const LabelRow& row : note->rows) {
        const std::string& t = row.cells[0].text;
        explained |= t.rfind("j: relax", 0) == 0 && t.find("threadIdx.x") != std::string::npos;
    }
    EXPECT_TRUE(explained);
    EXPECT_EQ(note->ref, ObjectRef{2}); // C, the consumer whose decisions these are
    ASSERT_EQ(g.edgesFrom("consumer0").front()->to, "note0");
    EXPECT_EQ(g.edgesFrom("consumer0").front()->style, EdgeStyle::Note);
}

TEST(ConsumerRequests, EachRequestPointsAtTheAxisItBounds) {
    Ex4 ex;
    Bounded b(ex.s);
    Graph g = consumerRequests(b.input(), b.stage(ex.C));
    std::vector<std::string> edges;
    for (const GraphEdge& e : g.edges)
        if (e.style == EdgeStyle::Request)
            edges.push_back(e.from + ":" + e.fromPort + "->" + e.to + ":" + e.toPort + " " +
                            e.label);
    EXPECT_EQ(edges, (Names{"consumer0:r0->bounds:a0 C", "consumer0:r1->bounds:a1 C",
                            "bounds:->producer: final ranges"}));
    const GraphNode* bounds = g.findNode("bounds");
    EXPECT_EQ(bounds->rows[0].cells[0].text, "i");
    EXPECT_EQ(bounds->rows[0].cells[1].text, "union [dj, dj]");
    EXPECT_EQ(bounds->rows[0].cells[2].text,
              "range(min=dj, ext=1)\nunion of the consumers' requests");
}

TEST(ConsumerRequests, ProducerShowsVisitOrderScopeAndAttachPath) {
    Ex4 ex;
    Bounded b(ex.s);
    Graph g = consumerRequests(b.input(), b.stage(ex.C));
    const GraphNode* p = g.findNode("producer");
    // the inspector's numbering: the second of the two stages InferBound visits
    EXPECT_EQ(rowText(p->rows[0]), "visit 2 of 2 (computed)");
    EXPECT_EQ(rowText(p->rows[1]), "scope: global (inferred)");
    EXPECT_EQ(rowText(p->rows[2]), "attach path: dk, dj, di");
    EXPECT_EQ(g.rankDir, RankDir::LeftToRight);
}

TEST(ConsumerRequests, OutputStageHasNoConsumers) {
    Ex4 ex;
    Bounded b(ex.s);
    Graph g = consumerRequests(b.input(), b.stage(ex.D));
    EXPECT_TRUE(g.nodesOfKind(GraphNodeKind::Consumer).empty());
    EXPECT_EQ(g.findNode("bounds")->rows.size(), 3u);
    EXPECT_EQ(g.findNode("bounds")->rows[0].cells[2].text,
              "range(min=0, ext=4)\noutput stage: its dom");
}

TEST(ConsumerRequests, NeedATraceOfTheSchedule) {
    Ex4 ex;
    EXPECT_THROW(consumerRequests({ex.s}, ex.s[ex.C]), UserError);
    Bounded b(ex.s);
    // A trace of another schedule does not cover this stage.
    Tensor other = compute(
        {4}, [](const std::vector<Var>& v) { return v[0]; }, "O");
    Schedule os = createSchedule(other.op);
    GraphInput unrelated{os, nullptr, &b.result->trace};
    EXPECT_THROW(consumerRequests(unrelated, os[other]), UserError);
}
