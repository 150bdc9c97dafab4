// What a failed schedule's error is about, marked in every picture (viz::markProblem): the
// attach edge with no path to its consumer, an attach the schedule refused, an IterVar given
// to another stage, a loop that cannot be vectorized.
#include "VizTestUtil.h"

#include "viz/Dot.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::viz;
using namespace bs::viz::test;

namespace {

/// The diagnostic of the UserError `f` throws (a failed test when it throws none).
template <typename F> Diagnostic failureOf(F&& f) {
    try {
        f();
    } catch (const UserError& e) {
        return e.diagnostic();
    }
    ADD_FAILURE() << "no UserError";
    return {};
}

GraphInput failedInput(const Schedule& s, const Diagnostic& d) {
    GraphInput input;
    input.schedule = s;
    input.problem = d.subject;
    return input;
}

std::vector<std::string> problemNodes(const Graph& g) {
    std::vector<std::string> out;
    for (const GraphNode& n : g.nodes)
        if (n.problem)
            out.push_back(n.title.substr(0, n.title.find('\n')));
    return out;
}

/// "from:port->to label" of every marked edge.
std::vector<std::string> problemEdges(const Graph& g) {
    std::vector<std::string> out;
    for (const GraphEdge& e : g.edges)
        if (e.problem)
            out.push_back(e.from + ":" + e.fromPort + "->" + e.to + " " + e.label);
    return out;
}

/// C computed at B's i, but C is read by R, which does not run inside B (issue 13, repro 21).
struct NoPath {
    Tensor A = placeholder({16, 12}, DataType::float32(), "A");
    Tensor B = compute(
        {16, 12},
        [this](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * 2.0f;
        },
        "B");
    Tensor C = compute(
        {16, 12},
        [this](const std::vector<Var>& v) {
            return B({v[0], v[1]}) + 1.0f;
        },
        "C");
    Tensor D = compute(
        {16, 12},
        [this](const std::vector<Var>& v) {
            return C({v[0], v[1]}) * 3.0f;
        },
        "R");
    Schedule s = createSchedule(D.op);
    NoPath() { s[C].computeAt(s[B], computeOf(B)->axis[0]); }
};

} // namespace

TEST(ProblemMarks, AttachWithNoPathIsAComputeAtEdgeInTheDagAndTheMarkedEdgeInTheTree) {
    NoPath ex;
    Diagnostic d = failureOf([&] { inferBound(ex.s.normalize()); });
    ASSERT_EQ(d.subject.kind, "attach-no-path");
    const GraphInput input = failedInput(ex.s, d);
    // Stages: A, B, C, R. The DAG has no attach edges of its own: the failed one is drawn, from
    // the loop's stage to the attached one, and the read that no iteration can serve is marked.
    Graph dag = stageDag(input);
    EXPECT_EQ(problemNodes(dag), (std::vector<std::string>{"C"}));
    EXPECT_EQ(problemEdges(dag),
              (std::vector<std::string>{"stage2:->stage3 C", "stage1:->stage2 compute_at i"}));
    // The tree has C under B's i already: that edge is the one marked.
    Graph tree = attachTree(input);
    EXPECT_EQ(problemEdges(tree), (std::vector<std::string>{"stage1:l0->stage2 "}));
    EXPECT_EQ(problemNodes(tree), (std::vector<std::string>{"C"}));
    // The loop it was computed at is marked in B's relations, and in B's row of the tree.
    Graph relations = iterVarGraph(input, ex.s[ex.B]);
    std::vector<std::string> marked = problemNodes(relations);
    ASSERT_EQ(marked.size(), 1u);
    EXPECT_EQ(relations.nodesOfKind(GraphNodeKind::IterVar).front()->problem, true);
    EXPECT_TRUE(tree.findNode("stage1")->rows[0].problem);
    // C's own i, of the same name, is not it.
    // The graph is kept in a variable: the loop's nodes point into it.
    Graph cRelations = iterVarGraph(input, ex.s[ex.C]);
    for (const GraphNode* node : cRelations.nodesOfKind(GraphNodeKind::IterVar))
        EXPECT_FALSE(node->problem) << node->title;
    // The DOT export draws it too.
    EXPECT_NE(toDot(dag).find("style=dashed, color=\"#E0001B\""), std::string::npos);
}

TEST(ProblemMarks, TwoStagesOfTheDefaultNameAreMarkedApart) {
    // The NoPath example with te.compute's default names: B and C are both "compute". The
    // error is about C, the second; a mark found by name went to B, the first. The schedule
    // now names C `compute_1`, and the mark goes to it alone.
    Tensor A = placeholder({16, 12}, DataType::float32(), "A");
    Tensor B = compute(
        {16, 12},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * 2.0f;
        },
        "compute");
    Tensor C = compute(
        {16, 12},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1]}) + 1.0f;
        },
        "compute");
    Tensor R = compute(
        {16, 12},
        [&](const std::vector<Var>& v) {
            return C({v[0], v[1]}) * 3.0f;
        },
        "R");
    Schedule s = createSchedule(R.op);
    s[C].computeAt(s[B], computeOf(B)->axis[0]);
    Diagnostic d = failureOf([&] { inferBound(s.normalize()); });
    ASSERT_EQ(d.subject.kind, "attach-no-path");
    ASSERT_EQ(d.subject.stage, "compute_1");
    const GraphInput input = failedInput(s, d);
    EXPECT_EQ(problemNodes(stageDag(input)), (std::vector<std::string>{"compute_1"}));
    EXPECT_EQ(problemNodes(attachTree(input)), (std::vector<std::string>{"compute_1"}));
}

TEST(ProblemMarks, AnOutputAttachedUnderItsCacheIsMarkedOnItsAttachEdge) {
    Tensor A = placeholder({64, 64}, DataType::float32(), "A");
    Tensor C = compute(
        {64, 64},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) + 1.0f;
        },
        "C");
    Schedule s = createSchedule(C.op);
    Tensor cl = s.cacheWrite(C, "local");
    // Accepted by the call and refused when lowered, as TVM does.
    s[C].computeAt(s[cl], computeOf(cl)->axis[0]);
    Diagnostic d = failureOf([&] { s.normalize(); });
    ASSERT_EQ(d.subject.kind, "output-attached");
    // Stages: A, C.local, C. The attach goes from C.local's first loop to C.
    Graph tree = attachTree(failedInput(s, d));
    EXPECT_EQ(problemEdges(tree), (std::vector<std::string>{"stage1:l0->stage2 "}));
    Graph dag = stageDag(failedInput(s, d));
    EXPECT_EQ(problemEdges(dag), (std::vector<std::string>{"stage1:->stage2 compute_at i.c"}));
}

TEST(ProblemMarks, AnIterVarOfAnotherStageIsMarkedInItsOwnStageOnly) {
    NoPath ex;
    const IterVar bI = computeOf(ex.B)->axis[0];
    Diagnostic d = failureOf([&] { ex.s[ex.D].split(bI, 4); });
    ASSERT_EQ(d.subject.kind, "itervar-of-other-stage");
    d.subject.otherStage = "B"; // the Python front end names the owner (script/bindings)
    const GraphInput input = failedInput(ex.s, d);
    std::vector<const GraphNode*> marked;
    Graph all = iterVarGraph(input);
    for (const GraphNode* node : all.nodesOfKind(GraphNodeKind::IterVar))
        if (node->problem)
            marked.push_back(node);
    ASSERT_EQ(marked.size(), 1u);
    EXPECT_EQ(ex.s.stages()[marked[0]->ref.stage]->allIterVars[marked[0]->ref.iterVar].get(),
              bI.get());
    EXPECT_EQ(problemNodes(stageDag(input)), (std::vector<std::string>{"B", "R"}));
    EXPECT_TRUE(problemEdges(stageDag(input)).empty());
}

TEST(ProblemMarks, ALoopOfACopyOfTheScheduleIsMarkedByNameInItsStage) {
    // Lowering reports a loop of the normalized copy (vectorize of a symbolic extent): the
    // node is not in the schedule drawn, so the loop of that name in that stage is marked.
    NoPath ex;
    Schedule normalized = ex.s.normalize();
    Diagnostic d;
    d.subject.kind = "symbolic-extent";
    d.subject.stage = "C";
    d.subject.iterVar = "j";
    d.subject.iterVarId = normalized[ex.C]->allIterVars.back().get();
    const GraphInput input = failedInput(ex.s, d);
    std::vector<std::string> marked;
    Graph all = iterVarGraph(input);
    for (const GraphNode* node : all.nodesOfKind(GraphNodeKind::IterVar))
        if (node->problem)
            marked.push_back(
                ex.s.stages()[node->ref.stage].name() + "." +
                ex.s.stages()[node->ref.stage]->allIterVars[node->ref.iterVar]->var.name());
    EXPECT_EQ(marked, (std::vector<std::string>{"C.j"}));
    EXPECT_EQ(problemNodes(stageDag(input)), (std::vector<std::string>{"C"}));
}

TEST(ProblemMarks, AScheduleThatDidNotFailHasNothingMarked) {
    Ex6 ex;
    Bounded b(ex.s);
    for (const Graph& g : {stageDag(b.input()), attachTree(b.input()), iterVarGraph(b.input())}) {
        EXPECT_TRUE(problemNodes(g).empty());
        EXPECT_TRUE(problemEdges(g).empty());
    }
}
