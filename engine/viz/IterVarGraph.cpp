// The IterVar relation graph (reference/TEDD.md, "View 3"), improved: every IterVar of a stage
// with its kind, range, leaf index and bound thread, and all four relations of seed 000's
// IterVar hyper-graph as relation nodes, Rebase and Singleton included (TEDD drops Rebase and
// crashes on Singleton), with the leaves on one rank in loop order.
#include "viz/GraphBuild.h"

#include "ir/Printer.h"
#include "support/Check.h"
#include "te/Operation.h"

#include <cctype>

namespace bs::viz {

using namespace detail;

namespace {

std::string ivId(int stage, int iv) {
    return "iv" + std::to_string(stage) + "_" + std::to_string(iv);
}

/// The id of a relation's IterVar; every IterVar a relation names is in allIterVars.
std::string relationIvId(const Stage& stage, int s, const IterVar& iv) {
    int i = iterVarIndexOf(stage, iv);
    BS_CHECK(i >= 0) << "relation IterVar " << iv->var.name() << " is not in stage "
                     << stage.name();
    return ivId(s, i);
}

/// A relation's ports: inputs (from parent IterVars) and outputs (to child IterVars), each
/// with the IterVar it joins.
struct RelationShape {
    const char* name;
    std::string parameter; ///< `factor 8`, `nparts 4`, or empty
    std::vector<std::pair<std::string, IterVar>> inputs;
    std::vector<std::pair<std::string, IterVar>> outputs;
};

RelationShape shapeOf(const IterVarRelation& rel) {
    return visitRelation(
        rel,
        Overloaded{
            [](const SplitNode* s) {
                std::string param = s->factor.defined() ? "factor " + toString(s->factor)
                                                        : "nparts " + toString(s->nparts);
                return RelationShape{"Split",
                                     param,
                                     {{"parent", s->parent}},
                                     {{"outer", s->outer}, {"inner", s->inner}}};
            },
            [](const FuseNode* f) {
                return RelationShape{
                    "Fuse", "", {{"outer", f->outer}, {"inner", f->inner}}, {{"fused", f->fused}}};
            },
            [](const RebaseNode* r) {
                return RelationShape{
                    "Rebase", "", {{"parent", r->parent}}, {{"rebased", r->rebased}}};
            },
            [](const SingletonNode* s) {
                return RelationShape{"Singleton", "", {}, {{"iter", s->iter}}};
            },
        });
}

bool isRoot(const Stage& stage, const IterVar& iv) {
    for (const IterVar& root : stage->op->rootIterVars())
        if (root.same_as(iv))
            return true;
    return false;
}

/// `root`, `leaf`, `root, leaf` or `inner`.
std::string roleOf(const Stage& stage, const IterVar& iv) {
    bool root = isRoot(stage, iv);
    bool leaf = stage.isLeaf(iv);
    if (root && leaf)
        return "root, leaf";
    if (root)
        return "root";
    return leaf ? "leaf" : "inner";
}

GraphNode iterVarNode(const GraphInput& input, int s, int i, const std::string& cluster) {
    const Stage& stage = input.schedule.stages()[s];
    const IterVar& iv = stage->allIterVars[i];
    int leaf = stage.leafIndex(iv);
    std::string thread = boundThreadOf(stage, iv);
    GraphNode node;
    node.id = ivId(s, i);
    node.kind = GraphNodeKind::IterVar;
    node.style = NodeStyle::IterVar;
    node.title = iv->var.name();
    node.cluster = cluster;
    node.ref = iterVarRef(s, i);
    node.location = iv->location;
    // TEDD's row: the leaf index on the loop kind's colour, then the kind and the range. TEDD
    // prints -1 for an IterVar that is no loop (not a leaf); a dash says so more plainly.
    LabelRow row;
    row.cells.push_back(
        LabelCell{leaf >= 0 ? std::to_string(leaf) : "\u2013", "", leafColor(stage, iv)});
    std::string text = iterVarKindText(stage, iv) + "\n" + rangeText(iv, input.bounds);
    if (!thread.empty())
        text += "\nbound to " + thread;
    const IterVarAttr* attr = stage.attrOf(iv);
    if (attr && attr->dimAlignFactor != 0)
        text += "\nstorage_align: stride " + std::to_string(attr->dimAlignFactor) + "k + " +
                std::to_string(attr->dimAlignOffset);
    if (attr && attr->tensorIntrin.defined())
        text += "\ntensorized: " + attr->tensorIntrin->name + " from here inwards";
    for (const auto& [tensor, offset] :
         attr ? attr->prefetches : std::vector<std::pair<Tensor, Expr>>())
        text += "\nprefetch " + tensor.name() + ": what iteration " + iv->var.name() + " + " +
                toString(offset) + " reads";
    row.cells.push_back(LabelCell{text, "", ""});
    row.ref = node.ref;
    row.location = node.location;
    node.rows.push_back(std::move(row));
    node.fields = {{"name", iv->var.name()},
                   {"stage", stage.name()},
                   {"kind", iterVarTypeName(iv->iterType)},
                   {"loop", iterVarTypeName(loopKindOf(stage, iv))},
                   {"range", rangeText(iv, input.bounds)},
                   {"leaf_index", std::to_string(leaf)},
                   {"role", roleOf(stage, iv)},
                   {"thread", thread}};
    if (attr && attr->dimAlignFactor != 0)
        node.fields.push_back({"storage_align", std::to_string(attr->dimAlignFactor) + "," +
                                                    std::to_string(attr->dimAlignOffset)});
    if (attr && attr->tensorIntrin.defined())
        node.fields.push_back({"tensor_intrin", attr->tensorIntrin->name});
    return node;
}

/// A row of port cells (`Outer | Inner`) for one side of a relation.
LabelRow portRow(const std::vector<std::pair<std::string, IterVar>>& ports, const GraphNode& n) {
    LabelRow row;
    for (const auto& [port, iv] : ports) {
        std::string text = port;
        text[0] = char(std::toupper(static_cast<unsigned char>(text[0])));
        row.cells.push_back(LabelCell{text, port, ""});
    }
    row.ref = n.ref;
    row.location = n.location;
    return row;
}

/// An edge between port `port` of relation `relId` and IterVar `iv`: IterVar -> relation for
/// an input, relation -> IterVar for an output.
void addRelationEdge(Graph& graph, const Stage& stage, int s, const std::string& relId,
                     const std::string& port, const IterVar& iv, bool intoRelation,
                     const SourceLocation& location) {
    std::string ivNode = relationIvId(stage, s, iv);
    GraphEdge& e = intoRelation ? addEdge(graph, ivNode, "", relId, port, EdgeStyle::Relation)
                                : addEdge(graph, relId, port, ivNode, "", EdgeStyle::Relation);
    e.ref = iterVarRef(s, iterVarIndexOf(stage, iv));
    e.location = location;
}

/// The relation node (inputs row, name, outputs row, as TEDD's 3-row table) and its edges.
void addRelation(const GraphInput& input, int s, int r, const std::string& cluster, Graph& graph) {
    const Stage& stage = input.schedule.stages()[s];
    const IterVarRelation& rel = stage->relations[r];
    RelationShape shape = shapeOf(rel);
    GraphNode node;
    node.id = "rel" + std::to_string(s) + "_" + std::to_string(r);
    node.kind = GraphNodeKind::Relation;
    node.style = NodeStyle::Relation;
    node.cluster = cluster;
    node.ref = ObjectRef{s, -1, r};
    node.location = rel->location;
    node.fields = {{"relation", shape.name}, {"stage", stage.name()}, {"text", toString(rel)}};
    if (!shape.inputs.empty())
        node.rows.push_back(portRow(shape.inputs, node));
    std::string name = shape.name;
    if (!shape.parameter.empty())
        name += "\n" + shape.parameter;
    node.rows.push_back(textRow(name, node.ref, node.location));
    node.rows.back().cells[0].bold = true;
    node.rows.push_back(portRow(shape.outputs, node));
    std::string id = node.id;
    graph.nodes.push_back(std::move(node));
    for (const auto& [port, iv] : shape.inputs)
        addRelationEdge(graph, stage, s, id, port, iv, /*intoRelation=*/true, rel->location);
    for (const auto& [port, iv] : shape.outputs)
        addRelationEdge(graph, stage, s, id, port, iv, /*intoRelation=*/false, rel->location);
}

void addStage(const GraphInput& input, int s, bool clustered, Graph& graph) {
    const Stage& stage = input.schedule.stages()[s];
    std::string cluster;
    if (clustered) {
        cluster = "cluster_stage" + std::to_string(s);
        graph.clusters.push_back(
            GraphCluster{cluster, stage.name(), stageRef(s), stage->location, std::string()});
    }
    for (size_t i = 0; i < stage->allIterVars.size(); ++i)
        graph.nodes.push_back(iterVarNode(input, s, int(i), cluster));
    for (size_t r = 0; r < stage->relations.size(); ++r)
        addRelation(input, s, int(r), cluster, graph);
    RankGroup leaves;
    leaves.cluster = cluster;
    leaves.ordered = true;
    for (const IterVar& leaf : stage->leafIterVars)
        leaves.nodes.push_back(ivId(s, iterVarIndexOf(stage, leaf)));
    if (!leaves.nodes.empty())
        graph.rankGroups.push_back(std::move(leaves));
}

} // namespace

Graph iterVarGraph(const GraphInput& input, const Stage& stage) {
    BS_CHECK(input.schedule.defined()) << "iterVarGraph of an undefined schedule";
    Graph graph;
    graph.kind = GraphKind::IterVarRelations;
    graph.rankDir = RankDir::TopToBottom;
    if (stage.defined()) {
        int s = requireStageIndex(input.schedule, stage, "IterVar relation graph");
        graph.name = "IterVar relations of " + stage.name();
        addStage(input, s, /*clustered=*/false, graph);
        if (stage->allIterVars.empty()) {
            // Nothing to draw: say why instead of an empty graph.
            GraphNode note;
            note.id = "note0";
            note.kind = GraphNodeKind::Note;
            note.style = NodeStyle::Note;
            note.title = stage.name();
            note.ref = stageRef(s);
            note.location = stage->location;
            note.rows.push_back(textRow(stage->op.as<PlaceholderOpNode>()
                                            ? "a placeholder: an input, no loops"
                                            : "an extern stage: its body is opaque, it has no "
                                              "loops to schedule",
                                        note.ref, note.location));
            graph.nodes.push_back(std::move(note));
        }
    } else {
        // Placeholders have no IterVars, and Graphviz drops empty clusters anyway.
        graph.name = "IterVar relations";
        const std::vector<Stage>& stages = input.schedule.stages();
        for (size_t s = 0; s < stages.size(); ++s)
            if (!stages[s]->allIterVars.empty())
                addStage(input, int(s), /*clustered=*/true, graph);
    }
    markProblem(graph, input);
    checkGraph(graph);
    return graph;
}

} // namespace bs::viz
