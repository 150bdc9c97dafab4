#include "schedule/Graph.h"

#include "ir/Functor.h"
#include "schedule/ScheduleErrors.h"
#include "schedule/ScheduleRewrite.h"
#include "support/Check.h"

#include <functional>
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

ReadGraph createReadGraph(const Schedule& sch) { return createReadGraph(sch.outputs()); }

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

/// The stage whose leaves begin `stage`'s attach path, with the path's first segment (that
/// stage's leaves at and outside the attach point); no stage for a stage at the root.
Stage attachSegment(const Stage& stage, std::vector<IterVar>& segment) {
    // A stage at the root of its group is where the group is (TVM's GetAttachSpec).
    const Stage attached = stage.attachSpec();
    bool isScan = attached->attachType == AttachType::ScanUpdate;
    if (attached->attachType != AttachType::Scope && !isScan)
        return Stage();
    Stage at = attached->attachStage;
    BS_CHECK(at.defined()) << "stage " << attached.name() << " is attached to no stage";
    if (!appendAttachLeaves(at, attached->attachIVar, isScan, segment))
        throw UserError(
            "invalid schedule: stage '" + attached.name() + "' is computed at '" +
            attached->attachIVar->var.name() + "' of stage '" + at.name() + "', but " +
            notLeafReason(attached->attachIVar, at->allIterVars, at->relations, at.name()));
    return at;
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
    checkAttachments(sch.stages(), sch->groups);
    // A stage's path is its first segment followed by the path of the stage it is attached to
    // (notes section 2). Each path is built once, from the one it continues (the builder appends
    // its segment to that path's loops), instead of walking every stage's chain to the root
    // with a set of the stages seen.
    std::unordered_map<const StageNode*, AttachPath> built;
    const AttachPath::Builder builder;
    for (const Stage& stage : sch.stages()) {
        std::vector<std::pair<Stage, std::vector<IterVar>>> chain;
        std::unordered_set<const StageNode*> onChain;
        Stage s = stage;
        while (s.defined() && !built.count(s.get())) {
            // checkAttachments follows compute_at only; a scan and its update make a cycle
            // through the update's place in the scan (a scan computed at its own update).
            if (!onChain.insert(s.get()).second)
                throw UserError("invalid schedule: the compute_at attachments of stage '" +
                                stage.name() +
                                "' form a cycle (find loop in compute_at attach group)");
            std::vector<IterVar> segment;
            Stage next = attachSegment(s, segment);
            chain.emplace_back(s, std::move(segment));
            s = next;
        }
        AttachPath outer = s.defined() ? built.at(s.get()) : AttachPath();
        for (size_t i = chain.size(); i-- > 0;) {
            outer = builder.continuing(chain[i].second, outer);
            built.emplace(chain[i].first.get(), outer);
        }
    }
    AttachPathMap paths;
    for (const Stage& stage : sch.stages())
        paths.emplace(stage->op, built.at(stage.get()));
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

std::vector<Operation> getSubGraph(const std::vector<Operation>& outputs,
                                   const std::vector<Operation>& inputs, bool includeInputs) {
    std::unordered_map<const Node*, bool> reaches;
    std::unordered_set<const Node*> boundary;
    for (const Operation& op : inputs)
        boundary.insert(op.get());
    std::vector<Operation> result;
    std::function<bool(const Operation&)> visit = [&](const Operation& op) {
        if (auto it = reaches.find(op.get()); it != reaches.end())
            return it->second;
        if (boundary.count(op.get())) {
            reaches[op.get()] = true;
            if (includeInputs)
                result.push_back(op);
            return true;
        }
        reaches[op.get()] = false;
        bool reached = false;
        for (const Tensor& t : op->inputTensors())
            reached = visit(t.op) || reached;
        reaches[op.get()] = reached;
        if (reached)
            result.push_back(op);
        return reached;
    };
    for (const Operation& op : outputs)
        visit(op);
    return result;
}

std::unordered_map<const Node*, Operation> scanOfInits(const std::vector<Stage>& stages) {
    std::unordered_map<const Node*, Operation> scanOf;
    for (const Stage& stage : stages)
        if (const auto* scan = stage->op.as<ScanOpNode>())
            for (const Tensor& t : scan->init) {
                auto [it, inserted] = scanOf.emplace(t.op.get(), stage->op);
                if (!inserted && !it->second.same_as(stage->op))
                    throw UserError("'" + t.name() + "' is the init of two scans, '" +
                                    it->second->name + "' and '" + scan->name +
                                    "': a scan's init can belong to one scan only");
            }
    return scanOf;
}

std::vector<Operation> scanGetBody(const Operation& scanOp) {
    const auto* scan = scanOp.as<ScanOpNode>();
    BS_CHECK(scan) << scanOp->name << " is not a scan";
    std::vector<Operation> outputs;
    for (const Tensor& t : scan->update)
        outputs.push_back(t.op);
    std::vector<Operation> inputs;
    for (const Tensor& t : scan->statePlaceholder)
        inputs.push_back(t.op);
    for (const Tensor& t : scan->inputs)
        inputs.push_back(t.op);
    return getSubGraph(outputs, inputs, false);
}

namespace {

/// One dimension of one tensor (TVM's TensorDimKey).
struct DimKey {
    const Node* op;
    int valueIndex;
    int dim;
    bool operator==(const DimKey& o) const {
        return op == o.op && valueIndex == o.valueIndex && dim == o.dim;
    }
};
struct DimKeyHash {
    size_t operator()(const DimKey& k) const {
        return (std::hash<const Node*>()(k.op) * 31 + size_t(k.valueIndex)) * 31 + size_t(k.dim);
    }
};
DimKey dimKey(const Tensor& t, size_t dim) { return DimKey{t.op.get(), t.valueIndex, int(dim)}; }

/// Dimension -> the dimensions it reads from (TVM's ReachGraph): a compute's output dimension
/// reaches every dimension of a body tensor whose index mentions its axis; a scan's output
/// dimension reaches the same dimension of its init and update.
using ReachGraph = std::unordered_map<DimKey, std::vector<DimKey>, DimKeyHash>;

ReachGraph reachGraph(const std::vector<Operation>& ops) {
    std::unordered_set<const Node*> inBody;
    for (const Operation& op : ops)
        inBody.insert(op.get());
    ReachGraph reach;
    for (const Operation& op : ops) {
        if (const auto* scan = op.as<ScanOpNode>()) {
            for (size_t i = 0; i < scan->update.size(); ++i)
                for (size_t k = 1; k < scan->update[i].ndim(); ++k) {
                    auto& to = reach[dimKey(op.output(int(i)), k)];
                    to.push_back(dimKey(scan->update[i], k));
                    to.push_back(dimKey(scan->init[i], k));
                }
        } else if (const auto* compute = op.as<ComputeOpNode>()) {
            std::unordered_map<const Node*, DimKey> axisDim;
            for (size_t i = 0; i < compute->axis.size(); ++i) {
                axisDim.emplace(compute->axis[i]->var.get(), dimKey(op.output(0), i));
                reach[dimKey(op.output(0), i)];
            }
            for (const Expr& body : compute->body)
                postOrderVisit(body, [&](const NodeRef& n) {
                    const auto* load = n.as<ProducerLoadNode>();
                    if (!load || !inBody.count(load->tensor.op.get()))
                        return;
                    for (size_t i = 0; i < load->indices.size(); ++i)
                        postOrderVisit(load->indices[i], [&](const NodeRef& v) {
                            auto it = axisDim.find(v.get());
                            if (it != axisDim.end())
                                reach[it->second].push_back(dimKey(load->tensor, i));
                        });
                });
        }
    }
    return reach;
}

} // namespace

IterVarMap<bool> scanFixPointAnalysis(const Operation& scanOp) {
    const auto* scan = scanOp.as<ScanOpNode>();
    BS_CHECK(scan) << scanOp->name << " is not a scan";
    const std::vector<Operation> body = scanGetBody(scanOp);
    // Which spatial axis each dimension is exactly indexed by, propagated from the states
    // through the body; an axis reached two different ways fails.
    std::unordered_map<DimKey, const Node*, DimKeyHash> exactReach;
    std::unordered_set<const Node*> failed;
    for (size_t i = 0, sp = 0; i < scan->update.size(); ++i)
        for (size_t k = 1; k < scan->update[i].ndim(); ++k, ++sp)
            exactReach[dimKey(scan->statePlaceholder[i], k)] = scan->spatialAxis[sp].get();
    auto merge = [&](const DimKey& dst, const DimKey& src) {
        auto from = exactReach.find(src);
        if (from == exactReach.end())
            return;
        auto [to, inserted] = exactReach.emplace(dst, from->second);
        if (!inserted && to->second != from->second) {
            failed.insert(to->second);
            failed.insert(from->second);
        }
    };
    for (const Operation& op : body) {
        if (const auto* inner = op.as<ScanOpNode>()) {
            for (size_t i = 0; i < inner->update.size(); ++i)
                for (size_t k = 1; k < inner->update[i].ndim(); ++k) {
                    merge(dimKey(op.output(int(i)), k), dimKey(inner->update[i], k));
                    merge(dimKey(op.output(int(i)), k), dimKey(inner->init[i], k));
                }
        } else if (const auto* compute = op.as<ComputeOpNode>()) {
            std::unordered_map<const Node*, size_t> axisIndex;
            for (size_t i = 0; i < compute->axis.size(); ++i)
                axisIndex.emplace(compute->axis[i]->var.get(), i);
            for (const Expr& e : compute->body)
                postOrderVisit(e, [&](const NodeRef& n) {
                    const auto* load = n.as<ProducerLoadNode>();
                    if (!load)
                        return;
                    for (size_t i = 0; i < load->indices.size(); ++i) {
                        DimKey src = dimKey(load->tensor, i);
                        auto axis = axisIndex.find(load->indices[i].get());
                        if (axis != axisIndex.end()) {
                            for (int j = 0; j < op->numOutputs(); ++j)
                                merge(dimKey(op.output(j), axis->second), src);
                        } else if (auto it = exactReach.find(src); it != exactReach.end()) {
                            failed.insert(it->second);
                        }
                    }
                });
        }
    }
    std::unordered_set<DimKey, DimKeyHash> stateDims;
    for (const Tensor& s : scan->statePlaceholder)
        for (size_t k = 0; k < s.ndim(); ++k)
            stateDims.insert(dimKey(s, k));
    ReachGraph reach;
    bool reachBuilt = false;
    IterVarMap<bool> result;
    for (size_t i = 0, sp = 0; i < scan->update.size(); ++i) {
        for (size_t k = 1; k < scan->update[i].ndim(); ++k, ++sp) {
            const IterVar& axis = scan->spatialAxis[sp];
            const DimKey key = dimKey(scan->update[i], k);
            const DimKey target = dimKey(scan->statePlaceholder[i], k);
            auto exact = exactReach.find(key);
            if (failed.count(axis.get()) || exact == exactReach.end() ||
                exact->second != axis.get()) {
                result[axis] = false;
                continue;
            }
            // An exact reach: it must also not reach another dimension of a state.
            if (!reachBuilt) {
                reach = reachGraph(body);
                reachBuilt = true;
            }
            std::unordered_set<DimKey, DimKeyHash> visited{key};
            std::vector<DimKey> stack{key};
            bool interferes = false;
            while (!stack.empty()) {
                DimKey at = stack.back();
                if (!(at == target) && stateDims.count(at)) {
                    interferes = true;
                    break;
                }
                stack.pop_back();
                auto next = reach.find(at);
                if (next == reach.end())
                    continue; // a dimension of a tensor outside the body
                for (const DimKey& to : next->second)
                    if (visited.insert(to).second)
                        stack.push_back(to);
            }
            result[axis] = !interferes;
        }
    }
    return result;
}

} // namespace bs
