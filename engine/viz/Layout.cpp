#include "viz/Layout.h"

#include "viz/Dot.h"

#include "support/Check.h"

#ifdef BOUNDSCOPE_WITH_GRAPHVIZ
#include <gvc.h>

#include <unordered_map>
#endif

namespace bs::viz {

bool Box::overlaps(const Box& other) const {
    return x < other.x + other.width && other.x < x + width && y < other.y + other.height &&
           other.y < y + height;
}

const NodeLayout* GraphLayout::findNode(const std::string& id) const {
    for (const NodeLayout& node : nodes)
        if (node.id == id)
            return &node;
    return nullptr;
}

const char* graphFormatName(GraphFormat format) {
    switch (format) {
    case GraphFormat::Dot:
        return "dot";
    case GraphFormat::Svg:
        return "svg";
    case GraphFormat::Png:
        return "png";
    }
    BS_UNREACHABLE("unknown graph format");
}

std::optional<GraphFormat> parseGraphFormat(const std::string& name) {
    for (GraphFormat format : {GraphFormat::Dot, GraphFormat::Svg, GraphFormat::Png})
        if (name == graphFormatName(format))
            return format;
    return std::nullopt;
}

std::mutex& graphvizMutex() {
    static std::mutex mutex;
    return mutex;
}

#ifndef BOUNDSCOPE_WITH_GRAPHVIZ

bool graphvizAvailable() { return false; }

GraphLayout layout(const Graph&) { throw UserError("Graphviz support was not built"); }

std::string renderDot(const std::string& dot, const std::string&, GraphFormat format) {
    if (format == GraphFormat::Dot)
        return dot;
    throw UserError(std::string("cannot render ") + graphFormatName(format) +
                    ": Graphviz support was not built (export as dot instead)");
}

#else

namespace {

// Everything below runs with graphvizMutex() held.

/// Graphviz's messages of the current call (agseterrf sends them here instead of stderr).
std::string& graphvizMessages() {
    static std::string messages;
    return messages;
}

int collectMessage(char* message) {
    graphvizMessages() += message;
    return 0;
}

/// The one context, created on first use with the plugins of the installed Graphviz.
GVC_t* context() {
    static GVC_t* gvc = [] {
        agseterrf(collectMessage);
        return gvContext();
    }();
    return gvc;
}

/// Graphviz's last messages, trimmed, for an error text.
std::string messagesText() {
    std::string m = graphvizMessages();
    while (!m.empty() && (m.back() == '\n' || m.back() == ' '))
        m.pop_back();
    return m.empty() ? "" : ": " + m;
}

/// A graph parsed from DOT and laid out with `dot`, freed (layout, then graph) on scope exit.
/// `name` names the graph in error messages.
class LaidOutGraph {
public:
    LaidOutGraph(const std::string& dot, const std::string& name) {
        graphvizMessages().clear();
        m_gvc = context();
        if (!m_gvc)
            throw UserError("Graphviz could not be initialised" + messagesText());
        m_graph = agmemread(dot.c_str());
        if (!m_graph)
            throw UserError("Graphviz could not read the graph '" + name + "'" + messagesText());
        if (gvLayout(m_gvc, m_graph, "dot") != 0) {
            agclose(m_graph);
            throw UserError("Graphviz could not lay out the graph '" + name + "'" + messagesText());
        }
    }
    ~LaidOutGraph() {
        gvFreeLayout(m_gvc, m_graph);
        agclose(m_graph);
    }
    LaidOutGraph(const LaidOutGraph&) = delete;
    LaidOutGraph& operator=(const LaidOutGraph&) = delete;

    GVC_t* gvc() const { return m_gvc; }
    Agraph_t* graph() const { return m_graph; }

private:
    GVC_t* m_gvc = nullptr;
    Agraph_t* m_graph = nullptr;
};

/// Graphviz's coordinates have y growing upwards from the bounding box's lower left corner;
/// ours grow downwards from its upper left.
struct Flip {
    boxf bb;
    Point operator()(pointf p) const { return {p.x - bb.LL.x, bb.UR.y - p.y}; }
};

Box boxAround(pointf center, double width, double height, const Flip& flip) {
    Point c = flip(center);
    return {c.x - width / 2, c.y - height / 2, width, height};
}

NodeLayout nodeLayout(Agraph_t* g, const std::string& id, const Flip& flip) {
    Agnode_t* n = agnode(g, const_cast<char*>(id.c_str()), 0);
    BS_CHECK(n) << "node " << id << " is missing from the laid-out graph";
    // ND_width/ND_height are in inches.
    return {id, boxAround(ND_coord(n), ND_width(n) * 72.0, ND_height(n) * 72.0, flip)};
}

EdgeLayout edgeLayout(Agedge_t* e, const std::string& id, const Flip& flip) {
    EdgeLayout out;
    out.id = id;
    if (const splines* spl = ED_spl(e)) {
        for (int i = 0; i < spl->size; ++i) {
            const bezier& bz = spl->list[i];
            EdgeSpline piece;
            for (int k = 0; k < bz.size; ++k)
                piece.points.push_back(flip(bz.list[k]));
            if (bz.sflag)
                piece.arrowAtStart = flip(bz.sp);
            if (bz.eflag)
                piece.arrowAtEnd = flip(bz.ep);
            out.splines.push_back(std::move(piece));
        }
    }
    if (const textlabel_t* label = ED_label(e); label && label->set)
        out.labelCenter = flip(label->pos);
    return out;
}

/// Model edges by id (invisible ordering edges have no id and are skipped).
std::unordered_map<std::string, Agedge_t*> edgesById(Agraph_t* g) {
    std::unordered_map<std::string, Agedge_t*> byId;
    char idName[] = "id";
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n))
        for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e))
            if (const char* id = agget(e, idName); id && *id)
                byId.emplace(id, e);
    return byId;
}

/// Cluster boxes by name. Clusters are numbered from 1 in GD_clust, in Graphviz's order (not
/// the model's), and may nest.
void collectClusters(Agraph_t* g, const Flip& flip, std::unordered_map<std::string, Box>& out) {
    for (int i = 1; i <= GD_n_cluster(g); ++i) {
        Agraph_t* sg = GD_clust(g)[i];
        boxf bb = GD_bb(sg);
        pointf center{(bb.LL.x + bb.UR.x) / 2, (bb.LL.y + bb.UR.y) / 2};
        out[agnameof(sg)] = boxAround(center, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y, flip);
        collectClusters(sg, flip, out);
    }
}

} // namespace

bool graphvizAvailable() { return true; }

GraphLayout layout(const Graph& graph) {
    std::string dot = toDot(graph); // outside the lock: it needs no Graphviz
    std::lock_guard<std::mutex> lock(graphvizMutex());
    LaidOutGraph laidOut(dot, graph.name);
    Agraph_t* g = laidOut.graph();
    Flip flip{GD_bb(g)};
    GraphLayout out;
    out.width = flip.bb.UR.x - flip.bb.LL.x;
    out.height = flip.bb.UR.y - flip.bb.LL.y;
    for (const GraphNode& node : graph.nodes)
        out.nodes.push_back(nodeLayout(g, node.id, flip));
    std::unordered_map<std::string, Agedge_t*> byId = edgesById(g);
    for (const GraphEdge& edge : graph.edges) {
        auto it = byId.find(edge.id);
        BS_CHECK(it != byId.end()) << "edge " << edge.id << " is missing from the laid-out graph";
        out.edges.push_back(edgeLayout(it->second, edge.id, flip));
    }
    std::unordered_map<std::string, Box> clusters;
    collectClusters(g, flip, clusters);
    for (const GraphCluster& cluster : graph.clusters) {
        auto it = clusters.find(cluster.id);
        BS_CHECK(it != clusters.end()) << "cluster " << cluster.id << " was not laid out";
        out.clusters.push_back({cluster.id, it->second});
    }
    return out;
}

std::string renderDot(const std::string& dot, const std::string& name, GraphFormat format) {
    if (format == GraphFormat::Dot)
        return dot;
    std::lock_guard<std::mutex> lock(graphvizMutex());
    LaidOutGraph laidOut(dot, name);
    char* data = nullptr;
    unsigned int length = 0;
    if (gvRenderData(laidOut.gvc(), laidOut.graph(), graphFormatName(format), &data, &length) !=
            0 ||
        !data) {
        if (data)
            gvFreeRenderData(data);
        throw UserError(std::string("Graphviz could not render ") + graphFormatName(format) +
                        messagesText());
    }
    std::string bytes(data, length);
    gvFreeRenderData(data);
    return bytes;
}

#endif

std::string render(const Graph& graph, GraphFormat format) {
    return renderDot(toDot(graph), graph.name, format);
}

} // namespace bs::viz
