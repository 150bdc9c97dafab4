// The consumer requests of one stage, from InferBound's trace (seed 000, "InferRootBound"):
// for each consumer, the region it requests of each output axis (phase 3) with the phase-1
// relax decisions and phase-2 root domains behind it as a note, then the phase-4 union and the
// final range of every root axis. No other tool shows these (UI_ANCHORS.md, feature table).
#include "viz/GraphBuild.h"

#include "ir/Printer.h"
#include "support/Check.h"

namespace bs::viz {

using namespace detail;

namespace {

std::string pathText(const AttachPath& path) {
    std::string out;
    for (const IterVar& iv : path)
        out += (out.empty() ? "" : ", ") + iv->var.name();
    return out.empty() ? "root" : out;
}

/// The position of `iv` in the schedule as (stage, IterVar), searching every stage (a trace
/// names IterVars of consumers and of their enclosing stages).
ObjectRef findIterVar(const Schedule& sch, const IterVar& iv) {
    const std::vector<Stage>& stages = sch.stages();
    for (size_t s = 0; s < stages.size(); ++s) {
        int i = iterVarIndexOf(stages[s], iv);
        if (i >= 0)
            return iterVarRef(int(s), i);
    }
    return {};
}

GraphNode producerNode(const GraphInput& input, int s, const StageTrace& st) {
    GraphNode node = stageNode(input, s);
    node.id = "producer";
    node.rows.push_back(
        // Numbered from 1 with the count, as the inspector says it ("2 of 3").
        textRow("visit " + std::to_string(st.visitIndex + 1) + " of " +
                    std::to_string(input.trace->stages.size()) + " (" + stageKindName(st.kind) +
                    ")",
                node.ref, node.location));
    ScopeInfo scope{node.field("scope"), node.field("scope_source")};
    node.rows.push_back(textRow("scope: " + scope.text(), node.ref, node.location));
    node.rows.push_back(textRow("attach path: " + pathText(st.attachPath), node.ref,
                                input.schedule.stages()[s]->attachLocation));
    node.fields.push_back({"visit_index", std::to_string(st.visitIndex)});
    node.fields.push_back({"attach_path", pathText(st.attachPath)});
    return node;
}

/// `B[1]: (j.outer*8) + j.inner -> [j.outer*8 + j.inner, ...]`, one row per request.
GraphNode consumerNode(const GraphInput& input, size_t k, const ConsumerTrace& ct) {
    Stage stage = input.schedule.findStage(ct.consumer);
    int s = stage.defined() ? stageIndexOf(input.schedule, stage) : -1;
    GraphNode node;
    node.id = "consumer" + std::to_string(k);
    node.kind = GraphNodeKind::Consumer;
    node.style = NodeStyle::Consumer;
    node.title = "consumer " + ct.consumer->name;
    node.ref = stageRef(s);
    node.location = stage.defined() ? stage->location : ct.consumer->location;
    for (size_t n = 0; n < ct.requests.size(); ++n) {
        const RequestEntry& r = ct.requests[n];
        LabelRow row;
        row.cells.push_back(
            LabelCell{r.tensor.name() + "[" + std::to_string(r.axis) + "]", "", ""});
        row.cells.push_back(LabelCell{toString(r.index), "", ""});
        std::string set = r.request.toString();
        if (r.clamped)
            set = r.evaluated.toString() + "\nclamped to " + set;
        row.cells.push_back(LabelCell{set, "r" + std::to_string(n), ""});
        row.ref = node.ref;
        row.location = node.location;
        node.rows.push_back(std::move(row));
    }
    node.fields = {{"consumer", ct.consumer->name},
                   {"attach_path", pathText(ct.consumerAttachPath)},
                   {"requests", std::to_string(ct.requests.size())}};
    return node;
}

/// The relax decisions of one consumer: phase 1's case per leaf (with why), the relax set, and
/// phase 2's root domains.
GraphNode noteNode(const GraphInput& input, size_t k, const ConsumerTrace& ct) {
    GraphNode node;
    node.id = "note" + std::to_string(k);
    node.kind = GraphNodeKind::Note;
    node.style = NodeStyle::Note;
    node.title = "why: " + ct.consumer->name;
    const Schedule& sch = input.schedule;
    Stage consumer = sch.findStage(ct.consumer);
    node.ref = consumer.defined() ? stageRef(stageIndexOf(sch, consumer)) : ObjectRef{};
    node.location = consumer.defined() ? consumer->location : ct.consumer->location;
    for (const LeafSetEntry& leaf : ct.leafSets)
        node.rows.push_back(textRow(leaf.iv->var.name() + ": " + leafCaseName(leaf.leafCase) + " " +
                                        leaf.set.toString() + "\n" + leaf.reason,
                                    findIterVar(sch, leaf.iv), leaf.iv->location));
    for (const RelaxEntry& relax : ct.relaxSet)
        node.rows.push_back(textRow("relax " + relax.var.name() + " over " + relax.set.toString() +
                                        "\n" + relax.reason,
                                    findIterVar(sch, relax.iv), relax.iv->location));
    for (const RootSetEntry& root : ct.rootSets)
        node.rows.push_back(
            textRow("root " + root.iv->var.name() + " over " + root.domain.toString(),
                    findIterVar(sch, root.iv), root.iv->location));
    if (node.rows.empty())
        node.rows.push_back(textRow("no loops to relax"));
    return node;
}

/// Phase 4: one row per root axis with the union of the requests and the final range.
GraphNode boundsNode(const GraphInput& input, int s, const StageTrace& st) {
    const Stage& stage = input.schedule.stages()[s];
    GraphNode node;
    node.id = "bounds";
    node.kind = GraphNodeKind::Bounds;
    node.style = NodeStyle::Bounds;
    node.title = "bounds of " + stage.name();
    node.ref = stageRef(s);
    node.location = stage->location;
    for (size_t n = 0; n < st.rootBounds.size(); ++n) {
        const RootBound& rb = st.rootBounds[n];
        LabelRow row;
        row.cells.push_back(LabelCell{rb.iv->var.name(), "a" + std::to_string(n), ""});
        row.cells.push_back(
            LabelCell{rb.unionSet ? "union " + rb.unionSet->toString() : "", "", ""});
        row.cells.push_back(LabelCell{toString(rb.range) + "\n" + rb.source, "", ""});
        row.ref = iterVarRef(s, iterVarIndexOf(stage, rb.iv));
        row.location = rb.iv->location;
        node.rows.push_back(std::move(row));
    }
    if (node.rows.empty())
        node.rows.push_back(textRow("no root axes"));
    return node;
}

/// The port of the bounds row for output axis `axis`, or empty (requests of other outputs
/// than the one phase 4 gathers).
std::string axisPort(const StageTrace& st, const RequestEntry& r) {
    if (r.tensor.valueIndex != 0)
        return "";
    for (size_t n = 0; n < st.rootBounds.size(); ++n)
        if (st.rootBounds[n].outputAxis == r.axis)
            return "a" + std::to_string(n);
    return "";
}

} // namespace

Graph consumerRequests(const GraphInput& input, const Stage& stage) {
    BS_CHECK(input.schedule.defined()) << "consumerRequests of an undefined schedule";
    int s = requireStageIndex(input.schedule, stage, "consumer requests");
    if (!input.trace)
        throw UserError("consumer requests of '" + stage.name() +
                        "': no InferBound trace (the schedule could not be bounded)");
    const StageTrace* st = input.trace->find(stage->op);
    if (!st)
        throw UserError(
            "consumer requests of '" + stage.name() +
            "': InferBound did not visit this stage (the trace is of another schedule)");
    Graph graph;
    graph.kind = GraphKind::ConsumerRequests;
    graph.name = "Consumer requests of " + stage.name();
    graph.rankDir = RankDir::LeftToRight;
    graph.nodes.push_back(producerNode(input, s, *st));
    graph.nodes.push_back(boundsNode(input, s, *st));
    for (size_t k = 0; k < st->consumers.size(); ++k) {
        const ConsumerTrace& ct = st->consumers[k];
        graph.nodes.push_back(consumerNode(input, k, ct));
        graph.nodes.push_back(noteNode(input, k, ct));
        const GraphNode& consumer = graph.nodes[graph.nodes.size() - 2];
        GraphEdge& note =
            addEdge(graph, consumer.id, "", "note" + std::to_string(k), "", EdgeStyle::Note);
        note.ref = consumer.ref;
        for (size_t n = 0; n < ct.requests.size(); ++n) {
            GraphEdge& e = addEdge(graph, consumer.id, "r" + std::to_string(n), "bounds",
                                   axisPort(*st, ct.requests[n]), EdgeStyle::Request);
            e.label = ct.requests[n].tensor.name();
            e.ref = consumer.ref;
            e.location = consumer.location;
        }
    }
    GraphEdge& gathered = addEdge(graph, "bounds", "", "producer", "", EdgeStyle::Request);
    gathered.label = "final ranges";
    gathered.ref = stageRef(s);
    markProblem(graph, input);
    checkGraph(graph);
    return graph;
}

} // namespace bs::viz
