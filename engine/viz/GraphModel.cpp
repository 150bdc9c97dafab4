#include "viz/GraphModel.h"

#include "support/Check.h"

#include <cctype>
#include <set>

namespace bs::viz {

const char* graphKindName(GraphKind kind) {
    switch (kind) {
    case GraphKind::StageDag:
        return "dag";
    case GraphKind::IterVarRelations:
        return "itervar";
    case GraphKind::AttachTree:
        return "attach";
    case GraphKind::ConsumerRequests:
        return "requests";
    }
    BS_UNREACHABLE("unknown graph kind");
}

std::optional<GraphKind> parseGraphKind(const std::string& name) {
    for (GraphKind kind : {GraphKind::StageDag, GraphKind::IterVarRelations, GraphKind::AttachTree,
                           GraphKind::ConsumerRequests})
        if (name == graphKindName(kind))
            return kind;
    return std::nullopt;
}

const char* graphNodeKindName(GraphNodeKind kind) {
    switch (kind) {
    case GraphNodeKind::Stage:
        return "stage";
    case GraphNodeKind::IterVar:
        return "itervar";
    case GraphNodeKind::Relation:
        return "relation";
    case GraphNodeKind::Root:
        return "root";
    case GraphNodeKind::Consumer:
        return "consumer";
    case GraphNodeKind::Bounds:
        return "bounds";
    case GraphNodeKind::Note:
        return "note";
    case GraphNodeKind::Chain:
        return "chain";
    }
    BS_UNREACHABLE("unknown node kind");
}

const char* nodeStyleName(NodeStyle style) {
    switch (style) {
    case NodeStyle::Placeholder:
        return "placeholder";
    case NodeStyle::Compute:
        return "compute";
    case NodeStyle::Output:
        return "output";
    case NodeStyle::Inlined:
        return "inlined";
    case NodeStyle::IterVar:
        return "itervar";
    case NodeStyle::Relation:
        return "relation";
    case NodeStyle::Root:
        return "root";
    case NodeStyle::Consumer:
        return "consumer";
    case NodeStyle::Bounds:
        return "bounds";
    case NodeStyle::Note:
        return "note";
    case NodeStyle::Chain:
        return "chain";
    }
    BS_UNREACHABLE("unknown node style");
}

const char* edgeStyleName(EdgeStyle style) {
    switch (style) {
    case EdgeStyle::Dataflow:
        return "dataflow";
    case EdgeStyle::Relation:
        return "relation";
    case EdgeStyle::Attach:
        return "attach";
    case EdgeStyle::Request:
        return "request";
    case EdgeStyle::Note:
        return "note";
    case EdgeStyle::ScanState:
        return "scan_state";
    }
    BS_UNREACHABLE("unknown edge style");
}

std::string GraphNode::field(const std::string& key) const {
    for (const Field& f : fields)
        if (f.key == key)
            return f.value;
    return "";
}

bool GraphNode::hasPort(const std::string& port) const {
    for (const LabelRow& row : rows)
        for (const LabelCell& cell : row.cells)
            if (cell.port == port)
                return true;
    return false;
}

const GraphNode* Graph::findNode(const std::string& id) const {
    for (const GraphNode& node : nodes)
        if (node.id == id)
            return &node;
    return nullptr;
}

std::vector<const GraphNode*> Graph::nodesOfKind(GraphNodeKind kind) const {
    std::vector<const GraphNode*> out;
    for (const GraphNode& node : nodes)
        if (node.kind == kind)
            out.push_back(&node);
    return out;
}

std::vector<const GraphEdge*> Graph::edgesFrom(const std::string& id) const {
    std::vector<const GraphEdge*> out;
    for (const GraphEdge& edge : edges)
        if (edge.from == id)
            out.push_back(&edge);
    return out;
}

std::vector<const GraphEdge*> Graph::edgesTo(const std::string& id) const {
    std::vector<const GraphEdge*> out;
    for (const GraphEdge& edge : edges)
        if (edge.to == id)
            out.push_back(&edge);
    return out;
}

namespace {

/// Ids go into DOT unquoted-safe and into SVG `id` attributes: keep them plain.
bool isPlainId(const std::string& id) {
    if (id.empty())
        return false;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            return false;
    return true;
}

void checkEndpoint(const Graph& graph, const GraphEdge& edge, const std::string& node,
                   const std::string& port) {
    const GraphNode* n = graph.findNode(node);
    BS_CHECK(n) << "edge " << edge.id << " names unknown node " << node;
    BS_CHECK(port.empty() || n->hasPort(port))
        << "edge " << edge.id << " names unknown port " << node << ":" << port;
}

} // namespace

void checkGraph(const Graph& graph) {
    std::set<std::string> ids;
    std::set<std::string> clusters;
    for (const GraphCluster& c : graph.clusters) {
        BS_CHECK(c.id.rfind("cluster_", 0) == 0 && isPlainId(c.id)) << "bad cluster id " << c.id;
        BS_CHECK(c.parent.empty() || clusters.count(c.parent))
            << "cluster " << c.id << " inside " << c.parent << ", which does not come before it";
        BS_CHECK(clusters.insert(c.id).second) << "duplicate cluster " << c.id;
    }
    for (const GraphNode& node : graph.nodes) {
        BS_CHECK(isPlainId(node.id)) << "bad node id '" << node.id << "'";
        BS_CHECK(ids.insert(node.id).second) << "duplicate node id " << node.id;
        BS_CHECK(node.cluster.empty() || clusters.count(node.cluster))
            << "node " << node.id << " in unknown cluster " << node.cluster;
    }
    std::set<std::string> edgeIds;
    for (const GraphEdge& edge : graph.edges) {
        BS_CHECK(isPlainId(edge.id) && edgeIds.insert(edge.id).second) << "bad edge id " << edge.id;
        checkEndpoint(graph, edge, edge.from, edge.fromPort);
        checkEndpoint(graph, edge, edge.to, edge.toPort);
    }
    for (const RankGroup& group : graph.rankGroups)
        for (const std::string& id : group.nodes) {
            const GraphNode* n = graph.findNode(id);
            BS_CHECK(n && n->cluster == group.cluster) << "rank group names node " << id;
        }
}

} // namespace bs::viz
