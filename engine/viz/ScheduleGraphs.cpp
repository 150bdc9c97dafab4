// The stage DAG and the dispatcher of `graph --kind`.
// The other pictures are in IterVarGraph.cpp, AttachTreeGraph.cpp and RequestGraph.cpp.
#include "viz/GraphBuild.h"

#include "analysis/ScheduleFixes.h"
#include "support/Check.h"

#include <algorithm>

namespace bs::viz {

using namespace detail;

namespace {

/// `B`, or `B[1]` for output 1 of a multi-output operation.
std::string tensorLabel(const Tensor& t) {
    if (t.op->numOutputs() <= 1)
        return t.name();
    return t.name() + "[" + std::to_string(t.valueIndex) + "]";
}

/// The rows under a stage's name: what TEDD's dataflow graph spreads over tensor ovals and
/// `Scope:` lines, in one table (reference/TEDD.md, "View 1").
std::vector<LabelRow> dagRows(const GraphNode& node, const Stage& stage) {
    std::vector<LabelRow> rows;
    std::string kind = node.field("op");
    if (stage->isOutput)
        kind += ", output";
    rows.push_back(textRow(kind, node.ref, node.location));
    rows.push_back(textRow(node.field("type"), node.ref, node.location));
    if (stage->op.as<PlaceholderOpNode>())
        return rows;
    // An inlined stage is folded into its consumers: it has no buffer, so no scope.
    bool inlined = node.style == NodeStyle::Inlined;
    ScopeInfo scope{node.field("scope"), node.field("scope_source")};
    rows.push_back(textRow(inlined ? "no buffer"
                                   : "scope: " + scope.text() +
                                         (stage->doubleBuffer ? ", double-buffered" : ""),
                           node.ref, node.location));
    rows.push_back(textRow(node.field("attach"), node.ref, stage->attachLocation));
    return rows;
}

/// `cluster_group0`, ... by the group's position in the schedule.
std::string groupClusterId(const Schedule& sch, const Stage& group) {
    const std::vector<Stage>& groups = sch.groups();
    for (size_t g = 0; g < groups.size(); ++g)
        if (groups[g].same_as(group))
            return "cluster_group" + std::to_string(g);
    BS_UNREACHABLE("group " << group.name() << " is not in the schedule");
}

/// A box per schedule group, labelled with its name and where it is computed, outer groups
/// before the groups inside them.
std::vector<GraphCluster> groupClusters(const Schedule& sch) {
    auto depth = [](const Stage& g) {
        int d = 0;
        for (Stage up = g->group; up.defined(); up = up->group)
            ++d;
        return d;
    };
    std::vector<Stage> groups = sch.groups();
    std::stable_sort(groups.begin(), groups.end(),
                     [&](const Stage& a, const Stage& b) { return depth(a) < depth(b); });
    std::vector<GraphCluster> clusters;
    for (const Stage& g : groups) {
        GraphCluster cluster;
        cluster.id = groupClusterId(sch, g);
        cluster.label =
            g.name() + (g->attachType == AttachType::Scope ? " (at " + g->attachStage.name() + "." +
                                                                 g->attachIVar->var.name() + ")"
                                                           : "");
        if (g->group.defined())
            cluster.parent = groupClusterId(sch, g->group);
        cluster.location = g->attachLocation.known() ? g->attachLocation : g->location;
        clusters.push_back(std::move(cluster));
    }
    return clusters;
}

} // namespace

Graph stageDag(const GraphInput& input) {
    BS_CHECK(input.schedule.defined()) << "stageDag of an undefined schedule";
    Graph graph;
    graph.kind = GraphKind::StageDag;
    graph.name = "Stage DAG";
    graph.rankDir = RankDir::TopToBottom;
    const std::vector<Stage>& stages = input.schedule.stages();
    graph.clusters = groupClusters(input.schedule);
    for (size_t s = 0; s < stages.size(); ++s) {
        GraphNode node = stageNode(input, int(s));
        node.rows = dagRows(node, stages[s]);
        if (stages[s]->group.defined())
            node.cluster = groupClusterId(input.schedule, stages[s]->group);
        graph.nodes.push_back(std::move(node));
    }
    // One edge per tensor read, in the consumer's order of first read; a tensor whose producer
    // has no stage (not in this schedule) has nothing to point from.
    for (size_t s = 0; s < stages.size(); ++s) {
        for (const Tensor& t : stages[s]->op->inputTensors()) {
            int producer = stageIndexOf(input.schedule, input.schedule.findStage(t.op));
            if (producer < 0)
                continue;
            GraphEdge& edge = addEdge(graph, "stage" + std::to_string(producer), "",
                                      "stage" + std::to_string(s), "", EdgeStyle::Dataflow);
            edge.label = tensorLabel(t);
            edge.ref = stageRef(int(s));
            edge.location = stages[s]->op->location;
        }
        // A scan's loop: each step's update reads the rows the steps before wrote, through
        // the state placeholder (TVM replaces the state by the scan's output).
        if (const auto* scan = stages[s]->op.as<ScanOpNode>()) {
            for (size_t i = 0; i < scan->statePlaceholder.size(); ++i) {
                int state = stageIndexOf(input.schedule,
                                         input.schedule.findStage(scan->statePlaceholder[i].op));
                if (state < 0)
                    continue;
                GraphEdge& edge =
                    addEdge(graph, "stage" + std::to_string(s), "", "stage" + std::to_string(state),
                            "", EdgeStyle::ScanState);
                edge.label = "next step reads " + tensorLabel(stages[s]->op.output(int(i)));
                edge.ref = stageRef(int(s));
                edge.location = stages[s]->op->location;
            }
        }
    }
    markProblem(graph, input);
    checkGraph(graph);
    return graph;
}

Graph buildGraph(const GraphInput& input, GraphKind kind, const std::string& stageName) {
    Stage stage = stageName.empty() ? Stage() : findStageByName(input.schedule, stageName);
    switch (kind) {
    case GraphKind::StageDag:
        return stageDag(input);
    case GraphKind::IterVarRelations:
        return iterVarGraph(input, stage);
    case GraphKind::AttachTree:
        return attachTree(input, stage);
    case GraphKind::ConsumerRequests:
        if (!stage.defined())
            throw UserError("the requests graph is drawn for one stage, and none was named");
        return consumerRequests(input, stage);
    }
    BS_UNREACHABLE("unknown graph kind");
}

} // namespace bs::viz
