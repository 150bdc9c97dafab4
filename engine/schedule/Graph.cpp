#include "schedule/Graph.h"

#include "schedule/ScheduleErrors.h"
#include "support/Check.h"

#include <unordered_set>

namespace bs {

void ReadGraph::add(const Operation& op, std::vector<Tensor> inputs) {
    if (m_inputs.emplace(op, std::move(inputs)).second)
        m_ops.push_back(op);
}

const std::vector<Tensor>& ReadGraph::at(const Operation& op) const {
    auto it = m_inputs.find(op);
    BS_CHECK(it != m_inputs.end()) << "operation " << op->name << " is not in the read graph";
    return it->second;
}

ReadGraph createReadGraph(const std::vector<Operation>& roots) {
    // An explicit stack, as TVM: the graph is what is reachable, the order is only for display.
    ReadGraph graph;
    std::vector<Operation> stack;
    std::unordered_set<const Node*> visited;
    for (const Operation& op : roots)
        if (visited.insert(op.get()).second)
            stack.push_back(op);
    while (!stack.empty()) {
        Operation op = stack.back();
        stack.pop_back();
        std::vector<Tensor> inputs = op->inputTensors();
        for (const Tensor& t : inputs)
            if (t.op.defined() && visited.insert(t.op.get()).second)
                stack.push_back(t.op);
        graph.add(op, std::move(inputs));
    }
    return graph;
}

ReadGraph createReadGraph(const Schedule& sch) {
    return createReadGraph(sch.outputs());
}

namespace {

void postDFS(const Operation& op, const ReadGraph& graph, std::unordered_set<const Node*>& visited,
             std::vector<Operation>& order) {
    if (!visited.insert(op.get()).second)
        return;
    for (const Tensor& t : graph.at(op))
        postDFS(t.op, graph, visited, order);
    order.push_back(op);
}

/// The leaves of `attachStage` from the innermost up to and including `attachIVar` (all of
/// them for a scan update), appended to `path`; false when `attachIVar` is not a leaf.
bool appendAttachLeaves(const Stage& attachStage, const IterVar& attachIVar, bool takeAll,
                        std::vector<IterVar>& path) {
    bool started = takeAll;
    const auto& leaves = attachStage->leafIterVars;
    for (size_t i = leaves.size(); i-- > 0;) {
        if (!started && leaves[i].same_as(attachIVar))
            started = true;
        if (started)
            path.push_back(leaves[i]);
    }
    return started;
}

/// The attach path of one stage (notes section 2): follow compute_at from stage to stage,
/// collecting each attach stage's leaves at and outside the attach point.
std::vector<IterVar> attachPathOf(const Stage& stage) {
    std::vector<IterVar> path;
    std::unordered_set<const StageNode*> visited;
    for (Stage s = stage; s.defined();) {
        if (!visited.insert(s.get()).second)
            throw UserError("invalid schedule: the compute_at attachments of stage '" +
                            stage.name() + "' form a cycle (find loop in compute_at attach group)");
        // A stage at the root of its group is where the group is (TVM's GetAttachSpec).
        const Stage attached = s.attachSpec();
        bool isScan = attached->attachType == AttachType::ScanUpdate;
        if (attached->attachType != AttachType::Scope && !isScan)
            break;
        s = attached->attachStage;
        BS_CHECK(s.defined()) << "stage " << attached.name() << " is attached to no stage";
        if (!appendAttachLeaves(s, attached->attachIVar, isScan, path))
            throw UserError(
                "invalid schedule: stage '" + attached.name() + "' is computed at '" +
                attached->attachIVar->var.name() + "' of stage '" + s.name() + "', but " +
                notLeafReason(attached->attachIVar, s->allIterVars, s->relations, s.name()));
    }
    return path;
}

} // namespace

std::vector<Operation> postDFSOrder(const std::vector<Operation>& roots, const ReadGraph& graph) {
    std::unordered_set<const Node*> visited;
    std::vector<Operation> order;
    for (const Operation& op : roots)
        postDFS(op, graph, visited, order);
    return order;
}

FeedGraph createFeedGraph(const ReadGraph& graph) {
    FeedGraph feed;
    for (const Operation& op : graph.ops())
        for (const Tensor& t : graph.at(op))
            feed[t].push_back(op);
    return feed;
}

AttachPathMap createAttachPath(const Schedule& sch) {
    AttachPathMap paths;
    for (const Stage& stage : sch.stages())
        paths.emplace(stage->op, attachPathOf(stage));
    return paths;
}

IterVarMap<IterVar> createBindMap(const Schedule& sch) {
    IterVarMap<IterVar> bindMap;
    for (const Stage& stage : sch.stages())
        for (const auto& [iv, attr] : stage->iterVarAttrs)
            if (attr.bindThread.defined())
                bindMap.emplace(iv, attr.bindThread);
    return bindMap;
}

} // namespace bs
