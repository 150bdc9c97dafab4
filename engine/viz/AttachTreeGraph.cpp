// The attach tree (reference/TEDD.md, "View 2", improved): the loop nest as ROOT -> stages, each
// stage a table of its leaf IterVars in loop order, each stage hanging off the leaf it is
// computed at. Highlighting a stage marks its attach path (seed 000, "Attach Paths": the leaves
// at and outside its attach point, through the chain of enclosing stages) up to ROOT.
#include "viz/GraphBuild.h"

#include "schedule/Graph.h"
#include "support/Check.h"

#include <optional>
#include <set>
#include <unordered_set>

namespace bs::viz {

using namespace detail;

namespace {

std::string stageId(int s) { return "stage" + std::to_string(s); }
std::string leafPort(int k) { return "l" + std::to_string(k); }

/// Stages that own loops in the nest: placeholders are inputs and inlined stages are part of
/// their consumers' bodies (TVM's ScheduleOps skips both).
bool isInLoopNest(const Stage& stage) {
    return !stage->op.as<PlaceholderOpNode>() && stage->attachType != AttachType::Inline &&
           stage->attachType != AttachType::InlinedAlready;
}

/// One row per leaf: the leaf index on its loop kind's colour, then name, kind, thread, range.
LabelRow leafRow(const GraphInput& input, int s, int k) {
    const Stage& stage = input.schedule.stages()[s];
    const IterVar& iv = stage->leafIterVars[k];
    LabelRow row;
    row.cells.push_back(LabelCell{std::to_string(k), "", leafColor(stage, iv)});
    std::string text = iv->var.name() + " (" + iterVarKindText(stage, iv) + ")";
    std::string thread = boundThreadOf(stage, iv);
    if (!thread.empty())
        text += "\nbound to " + thread;
    text += "\n" + rangeText(iv, input.bounds);
    row.cells.push_back(LabelCell{text, leafPort(k), ""});
    row.ref = iterVarRef(s, iterVarIndexOf(stage, iv));
    row.location = iv->location;
    return row;
}

GraphNode treeNode(const GraphInput& input, int s) {
    const Stage& stage = input.schedule.stages()[s];
    GraphNode node = stageNode(input, s);
    ScopeInfo scope = scopeOf(stage, input.trace);
    node.title = stage.name() + "\nscope: " + scope.text();
    for (size_t k = 0; k < stage->leafIterVars.size(); ++k)
        node.rows.push_back(leafRow(input, s, int(k)));
    node.fields.push_back({"leaves", std::to_string(stage->leafIterVars.size())});
    return node;
}

/// The enclosing stage and leaf a stage is computed at, or s = -1 for the root. A leaf index
/// of -1 means the attach IterVar is no longer a leaf (a split after compute_at, before
/// normalize re-targets it): the edge then starts at the stage itself.
struct AttachPoint {
    int stage = -1;
    int leaf = -1;
};

AttachPoint attachPointOf(const Schedule& sch, const Stage& stage) {
    // A stage at the root of its group hangs where the group is attached.
    const Stage spec = stage.attachSpec();
    // A scan's update runs inside the scan's loop over its steps: it hangs on the scan.
    if (spec->attachType == AttachType::ScanUpdate && spec->attachStage.defined()) {
        const int scan = stageIndexOf(sch, spec->attachStage);
        return scan < 0 ? AttachPoint{} : AttachPoint{scan, -1};
    }
    if (spec->attachType != AttachType::Scope || !spec->attachStage.defined())
        return {};
    int parent = stageIndexOf(sch, spec->attachStage);
    if (parent < 0 || !isInLoopNest(spec->attachStage))
        return {};
    return {parent, spec->attachStage.leafIndex(spec->attachIVar)};
}

GraphNode& nodeById(Graph& graph, const std::string& id) {
    for (GraphNode& n : graph.nodes)
        if (n.id == id)
            return n;
    BS_UNREACHABLE("no node " << id);
}

/// The attach path of `stage` as InferBound builds it (createAttachPath), or nullopt for a
/// schedule it refuses (an attach loop split after compute_at, before normalize re-targets it;
/// an attach cycle).
std::optional<AttachPath> attachPathIfValid(const Schedule& sch, const Stage& stage) {
    try {
        return createAttachPath(sch).at(stage->op);
    } catch (const UserError&) {
        return std::nullopt;
    }
}

/// Marks the attach path of stage `s` (its loops, stage by stage up the compute_at chain) and
/// the edges up to ROOT; returns the path's IterVar names, innermost first. The path is
/// createAttachPath's (a scan's update runs inside every loop of the scan); for a schedule that
/// refuses, the walk's own: the attach leaf and the leaves outside it.
std::string highlightPath(const Schedule& sch, int s, const std::vector<int>& edgeOf,
                          Graph& graph) {
    const std::optional<AttachPath> path = attachPathIfValid(sch, sch.stages()[size_t(s)]);
    std::unordered_set<const Node*> onPath;
    std::string names;
    for (const IterVar& iv : path ? *path : AttachPath()) {
        onPath.insert(iv.get());
        names += (names.empty() ? "" : ", ") + iv->var.name();
    }
    std::set<int> seen;
    for (int cur = s; cur >= 0 && seen.insert(cur).second;) {
        graph.edges[edgeOf[cur]].highlighted = true;
        AttachPoint at = attachPointOf(sch, sch.stages()[cur]);
        if (at.stage < 0) {
            graph.nodes.front().highlighted = true; // ROOT
            break;
        }
        GraphNode& parent = nodeById(graph, stageId(at.stage));
        const std::vector<IterVar>& leaves = sch.stages()[at.stage]->leafIterVars;
        for (int k = int(leaves.size()) - 1; k >= 0; --k) {
            if (path ? !onPath.count(leaves[k].get()) : k > at.leaf)
                continue;
            parent.rows[k].highlighted = true;
            if (!path)
                names += (names.empty() ? "" : ", ") + leaves[k]->var.name();
        }
        cur = at.stage;
    }
    return names;
}

GraphNode rootNode(const Schedule& sch) {
    GraphNode root;
    root.id = "root";
    root.kind = GraphNodeKind::Root;
    root.style = NodeStyle::Root;
    root.title = "ROOT";
    root.location = sch->location;
    return root;
}

/// One edge per stage in the nest, from the leaf it is computed at (or ROOT) to the stage;
/// returns each stage's edge index (-1 for stages outside the nest).
std::vector<int> addAttachEdges(const Schedule& sch, Graph& graph) {
    const std::vector<Stage>& stages = sch.stages();
    std::vector<int> edgeOf(stages.size(), -1);
    for (size_t s = 0; s < stages.size(); ++s) {
        if (!isInLoopNest(stages[s]))
            continue;
        AttachPoint at = attachPointOf(sch, stages[s]);
        std::string from = at.stage < 0 ? "root" : stageId(at.stage);
        std::string port = at.stage < 0 || at.leaf < 0 ? "" : leafPort(at.leaf);
        GraphEdge& e = addEdge(graph, from, port, stageId(int(s)), "", EdgeStyle::Attach);
        // compute_at a stage that has no loops of its own: say where it was asked to go. A
        // stage at its group's root goes where the group's compute_at put it.
        const Stage spec = stages[s].attachSpec();
        if (at.stage < 0 && spec->attachType == AttachType::Scope)
            e.label = attachText(stages[s]);
        e.ref = stageRef(int(s));
        e.location = spec->attachType == AttachType::Scope ? spec->attachLocation
                                                           : stages[s]->attachLocation;
        edgeOf[s] = int(graph.edges.size()) - 1;
    }
    return edgeOf;
}

} // namespace

Graph attachTree(const GraphInput& input, const Stage& highlightStage) {
    BS_CHECK(input.schedule.defined()) << "attachTree of an undefined schedule";
    const Schedule& sch = input.schedule;
    int highlight =
        highlightStage.defined() ? requireStageIndex(sch, highlightStage, "attach tree") : -1;
    Graph graph;
    graph.kind = GraphKind::AttachTree;
    graph.name = "Attach tree";
    graph.rankDir = RankDir::TopToBottom;
    graph.nodes.push_back(rootNode(sch));
    const std::vector<Stage>& stages = sch.stages();
    for (size_t s = 0; s < stages.size(); ++s)
        if (isInLoopNest(stages[s]))
            graph.nodes.push_back(treeNode(input, int(s)));
    std::vector<int> edgeOf = addAttachEdges(sch, graph);
    // A highlighted stage outside the loop nest (a placeholder, an inlined stage) has no path.
    if (highlight >= 0 && edgeOf[highlight] >= 0) {
        GraphNode& node = nodeById(graph, stageId(highlight));
        node.highlighted = true;
        node.fields.push_back({"attach_path", highlightPath(sch, highlight, edgeOf, graph)});
    }
    markProblem(graph, input);
    checkGraph(graph);
    return graph;
}

} // namespace bs::viz
