#include "viz/GraphBuild.h"

#include "ir/Functor.h"
#include "ir/Printer.h"
#include "support/Check.h"
#include "te/Operation.h"

namespace bs::viz::detail {

int stageIndexOf(const Schedule& sch, const Stage& stage) {
    const std::vector<Stage>& stages = sch.stages();
    for (size_t i = 0; i < stages.size(); ++i)
        if (stages[i].same_as(stage))
            return int(i);
    return -1;
}

int requireStageIndex(const Schedule& sch, const Stage& stage, const std::string& what) {
    int index = stage.defined() ? stageIndexOf(sch, stage) : -1;
    if (index < 0)
        throw UserError(what + ": stage '" + (stage.defined() ? stage.name() : "<undefined>") +
                        "' is not in the schedule");
    return index;
}

int iterVarIndexOf(const Stage& stage, const IterVar& iv) {
    const std::vector<IterVar>& all = stage->allIterVars;
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i].same_as(iv))
            return int(i);
    return -1;
}

ObjectRef stageRef(int stage) {
    ObjectRef ref;
    ref.stage = stage;
    return ref;
}

ObjectRef iterVarRef(int stage, int iterVar) {
    ObjectRef ref;
    ref.stage = stage;
    ref.iterVar = iterVar;
    return ref;
}

const Range* findRange(const IterVar& iv, const IterVarMap<Range>* bounds) {
    if (!bounds)
        return nullptr;
    auto it = bounds->find(iv);
    return it == bounds->end() ? nullptr : &it->second;
}

std::string rangeText(const IterVar& iv, const IterVarMap<Range>* bounds) {
    const Range* r = findRange(iv, bounds);
    return r && r->defined() ? toString(*r) : "range(N/A)";
}

IterVarType loopKindOf(const Stage& stage, const IterVar& iv) {
    const IterVarAttr* attr = stage.attrOf(iv);
    if (attr && attr->iterType != IterVarType::DataPar)
        return attr->iterType;
    return iv->iterType;
}

std::string boundThreadOf(const Stage& stage, const IterVar& iv) {
    const IterVarAttr* attr = stage.attrOf(iv);
    if (!attr || !attr->bindThread.defined())
        return "";
    const IterVar& thread = attr->bindThread;
    return thread->threadTag.empty() ? thread->var.name() : thread->threadTag;
}

const char* iterVarColor(IterVarType type) {
    // TEDD's legend (reference/TEDD.md, "IterVar type names/colors").
    switch (type) {
    case IterVarType::DataPar:
        return "#FFFFFF";
    case IterVarType::ThreadIndex:
        return "#2980B9";
    case IterVarType::CommReduce:
        return "#FAD7A0";
    case IterVarType::Ordered:
        return "#D35400";
    case IterVarType::Opaque:
        return "#ABB2B9";
    case IterVarType::Unrolled:
        return "#D2B4DE";
    case IterVarType::Vectorized:
        return "#AED6F1";
    case IterVarType::Parallelized:
        return "#F5B7B1";
    case IterVarType::Tensorized:
        return "#A9DFBF";
    }
    BS_UNREACHABLE("unknown IterVar type");
}

const char* leafColor(const Stage& stage, const IterVar& iv) {
    if (!boundThreadOf(stage, iv).empty())
        return iterVarColor(IterVarType::ThreadIndex);
    return iterVarColor(loopKindOf(stage, iv));
}

std::string iterVarKindText(const Stage& stage, const IterVar& iv) {
    std::string text = iterVarTypeName(iv->iterType);
    IterVarType loop = loopKindOf(stage, iv);
    if (loop != iv->iterType)
        text += std::string(", ") + iterVarTypeName(loop);
    return text;
}

std::string opKindText(const Operation& op) {
    if (op.as<PlaceholderOpNode>())
        return "placeholder";
    if (const auto* compute = op.as<ComputeOpNode>())
        return compute->isReduction() ? "reduction" : "compute";
    if (const auto* ext = op.as<ExternOpNode>()) {
        // Its body is opaque to bound inference: say what it calls.
        std::string callee;
        postOrderVisit(ext->body, [&](const NodeRef& node) {
            const auto* call = node.as<CallNode>();
            if (call && callee.empty() && call->isIntrinsic("tvm_call_packed") &&
                !call->args.empty())
                if (const auto* name = call->args[0].as<StringImmNode>())
                    callee = name->value;
        });
        return callee.empty() ? "extern (opaque body)" : "extern (opaque: calls " + callee + ")";
    }
    if (const auto* tc = op.as<TensorComputeOpNode>())
        return "tensor compute (calls intrinsic " + tc->intrin->name + ")";
    return op->typeKey();
}

std::string tensorTypeText(const Operation& op) {
    if (op->numOutputs() == 0)
        return "";
    std::string shape;
    for (const Expr& e : op->outputShape(0))
        shape += (shape.empty() ? "" : ", ") + toString(e);
    return op->outputDType(0).toString() + " [" + shape + "]";
}

std::string attachText(const Stage& stage) {
    const std::string group = stage->group.defined() ? " (" + stage->group.name() + ")" : "";
    // A stage at its group's root is where the group is.
    const Stage spec = stage.attachSpec();
    switch (spec->attachType) {
    case AttachType::GroupRoot:
        return "root" + group;
    case AttachType::Inline:
        return "inline";
    case AttachType::InlinedAlready:
        return "inlined";
    case AttachType::ScanUpdate:
        return "scan update";
    case AttachType::Scope:
        break;
    }
    std::string parent = spec->attachStage.defined() ? spec->attachStage.name() : "?";
    std::string loop = spec->attachIVar.defined() ? spec->attachIVar->var.name() : "?";
    return "at " + parent + "." + loop + group;
}

std::string ScopeInfo::text() const {
    if (source == "unknown")
        return "not inferred";
    return source == "inferred" ? scope + " (inferred)" : scope;
}

ScopeInfo scopeOf(const Stage& stage, const BoundTrace* trace) {
    if (!stage->scope.empty())
        return {stage->scope, "set"};
    if (stage->isOutput || stage->op.as<PlaceholderOpNode>())
        return {"global", "default"};
    // InferBound records the scope it inferred for every computed stage it bounds.
    const StageTrace* st = trace ? trace->find(stage->op) : nullptr;
    if (st && !st->scope.empty())
        return {st->scope, st->scopeInferred ? "inferred" : "set"};
    return {"", "unknown"};
}

NodeStyle stageStyle(const Stage& stage) {
    if (stage->op.as<PlaceholderOpNode>())
        return NodeStyle::Placeholder;
    if (stage->isOutput)
        return NodeStyle::Output;
    if (stage->attachType == AttachType::Inline || stage->attachType == AttachType::InlinedAlready)
        return NodeStyle::Inlined;
    return NodeStyle::Compute;
}

LabelRow textRow(std::string text, ObjectRef ref, SourceLocation location) {
    LabelRow row;
    row.cells.push_back(LabelCell{std::move(text), "", "", false});
    row.ref = ref;
    row.location = std::move(location);
    return row;
}

GraphNode stageNode(const GraphInput& input, int stageIndex) {
    const Stage& stage = input.schedule.stages()[stageIndex];
    ScopeInfo scope = scopeOf(stage, input.trace);
    GraphNode node;
    node.id = "stage" + std::to_string(stageIndex);
    node.kind = GraphNodeKind::Stage;
    node.style = stageStyle(stage);
    node.title = stage.name();
    node.ref = stageRef(stageIndex);
    node.location = stage->location;
    node.fields = {{"name", stage.name()},
                   {"op", opKindText(stage->op)},
                   {"type", tensorTypeText(stage->op)},
                   {"scope", scope.scope},
                   {"scope_source", scope.source},
                   {"attach", attachText(stage)},
                   {"output", stage->isOutput ? "true" : "false"}};
    if (stage->attachLocation.known())
        node.fields.push_back({"attach_location", stage->attachLocation.toString()});
    return node;
}

GraphEdge& addEdge(Graph& graph, std::string from, std::string fromPort, std::string to,
                   std::string toPort, EdgeStyle style) {
    GraphEdge edge;
    edge.id = "e" + std::to_string(graph.edges.size());
    edge.from = std::move(from);
    edge.fromPort = std::move(fromPort);
    edge.to = std::move(to);
    edge.toPort = std::move(toPort);
    edge.style = style;
    graph.edges.push_back(std::move(edge));
    return graph.edges.back();
}

} // namespace bs::viz::detail
