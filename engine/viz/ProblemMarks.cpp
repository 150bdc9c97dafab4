// Marks what a failed schedule's error is about in every picture (ScheduleGraphs.h,
// markProblem): the stage, the stage on the other side, the IterVar, and the attach edge.
#include "viz/GraphBuild.h"

namespace bs::viz {

using namespace detail;

namespace {

/// The index of the stage named `name`; -1 when none has it, or several (te.compute's default
/// name): a mark on the wrong one of two would mislead, so neither is marked.
int stageNamed(const Schedule& sch, const std::string& name) {
    const std::vector<Stage>& stages = sch.stages();
    int found = -1;
    for (size_t s = 0; s < stages.size() && !name.empty(); ++s) {
        if (stages[s].name() != name)
            continue;
        if (found >= 0)
            return -1;
        found = int(s);
    }
    return found;
}

std::string stageNodeId(int s) { return "stage" + std::to_string(s); }

/// The errors about where a stage is computed: their picture is an attach edge.
bool isAttachProblem(const std::string& kind) {
    return kind == "attach-no-path" || kind == "output-attached" || kind == "attach-cycle" ||
           kind == "attach-not-leaf";
}

/// What one problem is about, resolved against the schedule the graph shows.
struct ProblemTarget {
    const DiagnosticSubject& subject;
    const Schedule& sch;
    int stage = -1;    ///< the stage the error is about
    int other = -1;    ///< the attach target, or the stage an IterVar belongs to
    int consumer = -1; ///< the consumer with no path (attach-no-path)
    int ivOwner = -1;  ///< the stage whose IterVar it is, by name, when the node is not found
    bool idFound = false;

    ProblemTarget(const DiagnosticSubject& subject, const Schedule& sch)
        : subject(subject), sch(sch) {
        stage = stageNamed(sch, subject.stage);
        other = stageNamed(sch, subject.otherStage);
        consumer = stageNamed(sch, subject.consumer);
        bool ownedByOther =
            isAttachProblem(subject.kind) || subject.kind == "itervar-of-other-stage";
        ivOwner = ownedByOther ? other : stage;
        for (const Stage& s : sch.stages()) {
            for (const IterVar& iv : s->allIterVars)
                idFound = idFound || (subject.iterVarId && iv.get() == subject.iterVarId);
        }
    }

    bool isStage(const ObjectRef& ref) const {
        if (ref.stage < 0 || ref.iterVar >= 0)
            return false;
        return ref.stage == stage ||
               (subject.kind == "itervar-of-other-stage" && ref.stage == other);
    }

    /// The very IterVar when the diagnostic names its node and the schedule holds it (an
    /// IterVar of another stage with a common name is not it); else the one of that name in
    /// the stage that owns it.
    bool isIterVar(const ObjectRef& ref) const {
        if (ref.stage < 0 || ref.iterVar < 0 || subject.iterVar.empty())
            return false;
        const IterVar& iv = sch.stages()[ref.stage]->allIterVars[ref.iterVar];
        if (idFound)
            return iv.get() == subject.iterVarId;
        return ref.stage == ivOwner && iv->var.name() == subject.iterVar;
    }
};

GraphNode* findNode(Graph& graph, const std::string& id) {
    for (GraphNode& node : graph.nodes) {
        if (node.id == id)
            return &node;
    }
    return nullptr;
}

/// The port of the row of `node` that shows the problem's IterVar, or empty.
std::string problemPort(const GraphNode& node, const ProblemTarget& target) {
    for (const LabelRow& row : node.rows) {
        if (!target.isIterVar(row.ref))
            continue;
        for (const LabelCell& cell : row.cells) {
            if (!cell.port.empty())
                return cell.port;
        }
    }
    return "";
}

/// The attach edge of the problem, from the loop of the target stage to the attached stage:
/// the one the graph has (the attach tree of a schedule whose compute_at was accepted), or a
/// `compute_at` edge of its own.
void markAttachEdge(Graph& graph, const ProblemTarget& target) {
    if (target.stage < 0 || target.other < 0)
        return;
    const std::string to = stageNodeId(target.stage);
    const std::string from = stageNodeId(target.other);
    GraphNode* source = findNode(graph, from);
    if (!source || !findNode(graph, to))
        return;
    for (GraphEdge& edge : graph.edges) {
        if (edge.style == EdgeStyle::Attach && edge.from == from && edge.to == to) {
            edge.problem = true;
            return;
        }
    }
    // Only a compute_at at a loop that is not a leaf is refused by the call; the others are in
    // the schedule and fail when it is lowered (TVM's timing).
    const bool accepted = target.subject.kind != "attach-not-leaf";
    GraphEdge& edge = addEdge(graph, from, problemPort(*source, target), to, "", EdgeStyle::Attach);
    edge.label = "compute_at " + target.subject.iterVar + (accepted ? "" : " (refused)");
    edge.ref = stageRef(target.stage);
    edge.problem = true;
}

/// The read that has no path: the dataflow edge from the attached stage to its consumer.
void markUnreachableRead(Graph& graph, const ProblemTarget& target) {
    if (target.stage < 0 || target.consumer < 0)
        return;
    for (GraphEdge& edge : graph.edges) {
        if (edge.style == EdgeStyle::Dataflow && edge.from == stageNodeId(target.stage) &&
            edge.to == stageNodeId(target.consumer))
            edge.problem = true;
    }
}

} // namespace

void markProblem(Graph& graph, const GraphInput& input) {
    if (input.problem.empty() || !input.schedule.defined())
        return;
    const ProblemTarget target(input.problem, input.schedule);
    for (GraphNode& node : graph.nodes) {
        bool isStageNode = node.kind == GraphNodeKind::Stage && target.isStage(node.ref);
        node.problem =
            isStageNode || (node.kind == GraphNodeKind::IterVar && target.isIterVar(node.ref));
        for (LabelRow& row : node.rows)
            row.problem = target.isIterVar(row.ref);
    }
    if (!isAttachProblem(input.problem.kind))
        return;
    if (graph.kind == GraphKind::StageDag || graph.kind == GraphKind::AttachTree)
        markAttachEdge(graph, target);
    if (graph.kind == GraphKind::StageDag && input.problem.kind == "attach-no-path")
        markUnreachableRead(graph, target);
}

} // namespace bs::viz
