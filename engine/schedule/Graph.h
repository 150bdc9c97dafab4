/// \file
/// The graphs InferBound and ScheduleOps walk (TVM's schedule/graph.cc): the read graph
/// (operation -> the tensors it reads), its post-DFS order, the feed graph (tensor -> the
/// operations reading it), the attach path of every stage (seed 000, "Attach Paths"; notes
/// section 2), the map from bound leaves to their thread IterVars, and the analyses of a scan's
/// body (ScanGetBody, ScanFixPointAnalysis).
#pragma once

#include "schedule/AttachPath.h"
#include "schedule/Schedule.h"

namespace bs {

/// Operation -> the tensors it reads, for every operation reachable from some roots. Also keeps
/// the order operations were found in, so graphs built from it are deterministic.
class ReadGraph {
public:
    /// Records `op`'s inputs (once per op).
    void add(const Operation& op, std::vector<Tensor> inputs);
    bool contains(const Operation& op) const { return m_inputs.count(op) != 0; }
    /// The inputs of `op`, which must be in the graph.
    const std::vector<Tensor>& at(const Operation& op) const;
    /// Every operation, in the order found.
    const std::vector<Operation>& ops() const { return m_ops; }
    size_t size() const { return m_ops.size(); }

private:
    std::vector<Operation> m_ops;
    OpMap<std::vector<Tensor>> m_inputs;
};

/// TVM's CreateReadGraph: every operation reachable from `roots` through input tensors.
ReadGraph createReadGraph(const std::vector<Operation>& roots);
/// The read graph of a schedule's current operations, from its output stages (what
/// InferBound uses: TVM maps `sch->outputs` through the stage map first).
ReadGraph createReadGraph(const Schedule& sch);

/// TVM's PostDFSOrder: each operation after every operation it reads, inputs visited in the
/// order the operation reads them, roots in order.
std::vector<Operation> postDFSOrder(const std::vector<Operation>& roots, const ReadGraph& graph);

/// Tensor -> the operations that read it, in the read graph's order.
using FeedGraph = std::unordered_map<Tensor, std::vector<Operation>, TensorHash, TensorEqual>;
FeedGraph createFeedGraph(const ReadGraph& graph);

/// Stage operation -> its attach path: the leaves of the stages it is computed inside,
/// innermost first (path[0] is its attach IterVar), extended through the attach stage's own
/// compute_at chain. Empty for stages computed at the root.
using AttachPathMap = OpMap<AttachPath>;
/// TVM's CreateAttachPath. Throws UserError when an attach IterVar is no longer a leaf of its
/// attach stage (normalize() re-targets those) or the attachments form a cycle.
AttachPathMap createAttachPath(const Schedule& sch);

/// Leaf IterVar -> the thread IterVar it is bound to, over every stage (TVM's bind_map).
IterVarMap<IterVar> createBindMap(const Schedule& sch);

/// The operations between `inputs` and `outputs` in post-DFS order (TVM's GetSubGraph): those
/// from which an input is reachable; the inputs too when `includeInputs`.
std::vector<Operation> getSubGraph(const std::vector<Operation>& outputs,
                                   const std::vector<Operation>& inputs, bool includeInputs);

/// The operation of each scan's init -> the scan that stores it into its state, over `stages`.
/// Throws UserError when one init belongs to two scans.
std::unordered_map<const Node*, Operation> scanOfInits(const std::vector<Stage>& stages);

/// TVM's ScanGetBody: the operations of a scan's body, those between its updates and its
/// states and inputs (the group computed inside the scan's loop).
std::vector<Operation> scanGetBody(const Operation& scanOp);

/// TVM's ScanFixPointAnalysis: for each spatial axis of a scan, whether dimension k of row t of
/// the state depends only on dimension k of earlier rows (an exact, undisturbed reach through
/// the body), so a consumer's request along that axis may be sliced rather than cover the
/// whole state. Operations other than computes and scans reach nothing.
IterVarMap<bool> scanFixPointAnalysis(const Operation& scanOp);

} // namespace bs
