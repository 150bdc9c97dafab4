#include "viz/Dot.h"

#include "support/Markup.h"

#include "support/Check.h"

#include <algorithm>
#include <sstream>

namespace bs::viz {

namespace {

constexpr const char* kHighlightColor = "#C0392B";
constexpr const char* kHighlightFill = "#F9E79F";
/// What a failed schedule's error is about (markProblem): dashed where it can be.
constexpr const char* kProblemColor = "#E0001B";
constexpr const char* kProblemFill = "#FADBD8";

const char* rankDirName(RankDir dir) {
    switch (dir) {
    case RankDir::TopToBottom:
        return "TB";
    case RankDir::LeftToRight:
        return "LR";
    case RankDir::BottomToTop:
        return "BT";
    }
    BS_UNREACHABLE("unknown rank direction");
}

/// The lines of `text`, each escaped, joined by `<BR/>`.
std::string htmlLines(const std::string& text) {
    std::string out;
    std::string line;
    std::istringstream in(text);
    bool first = true;
    while (std::getline(in, line)) {
        out += (first ? "" : "<BR/>") + escapeHtml(line);
        first = false;
    }
    return out;
}

size_t columnCount(const GraphNode& node) {
    size_t columns = 1;
    for (const LabelRow& row : node.rows)
        columns = std::max(columns, row.cells.size());
    return columns;
}

/// A `<TD>`; the last cell of a short row spans the remaining columns.
void writeCell(std::ostream& os, const LabelCell& cell, const LabelRow& row, size_t span) {
    os << "<TD";
    if (span > 1)
        os << " COLSPAN=\"" << span << "\"";
    if (!cell.port.empty())
        os << " PORT=\"" << escapeHtml(cell.port) << "\"";
    std::string fill = row.problem                            ? kProblemFill
                       : cell.fill.empty() && row.highlighted ? kHighlightFill
                                                              : cell.fill;
    if (!fill.empty())
        os << " BGCOLOR=\"" << escapeHtml(fill) << "\"";
    // Several lines of data read best left-aligned; a single line or a bold name is centred.
    bool left = !cell.bold && cell.text.find('\n') != std::string::npos;
    os << (left ? " ALIGN=\"LEFT\" BALIGN=\"LEFT\">" : ">");
    std::string text = htmlLines(cell.text);
    os << (cell.bold && !text.empty() ? "<B>" + text + "</B>" : text) << "</TD>";
}

/// TEDD-style table: a bold title row, then the rows; the cells draw the grid, and highlighted
/// nodes get a thick red border around it.
std::string htmlLabel(const GraphNode& node) {
    std::ostringstream os;
    size_t columns = columnCount(node);
    const bool framed = node.highlighted || node.problem;
    os << "<<TABLE BORDER=\"" << (framed ? 3 : 0) << "\" CELLBORDER=\"1\" "
       << "CELLSPACING=\"0\" CELLPADDING=\"4\" BGCOLOR=\"" << styleFill(node.style) << "\" COLOR=\""
       << (node.problem       ? kProblemColor
           : node.highlighted ? kHighlightColor
                              : "#000000")
       << "\">";
    if (!node.title.empty()) {
        os << "<TR><TD";
        if (columns > 1)
            os << " COLSPAN=\"" << columns << "\"";
        os << "><B>" << htmlLines(node.title) << "</B></TD></TR>";
    }
    for (const LabelRow& row : node.rows) {
        os << "<TR>";
        for (size_t c = 0; c < row.cells.size(); ++c) {
            size_t span = c + 1 == row.cells.size() ? columns - row.cells.size() + 1 : 1;
            writeCell(os, row.cells[c], row, span);
        }
        os << "</TR>";
    }
    os << "</TABLE>>";
    return os.str();
}

void writeNode(std::ostream& os, const GraphNode& node, const std::string& indent) {
    os << indent << quoteDot(node.id) << " [id=" << quoteDot(node.id);
    if (node.rows.empty()) {
        os << ", shape=" << (node.style == NodeStyle::Root ? "ellipse" : "box")
           << ", style=filled, fillcolor=\"" << styleFill(node.style)
           << "\", label=" << quoteDot(node.title);
        if (node.problem)
            os << ", style=\"filled,dashed\", color=\"" << kProblemColor << "\", penwidth=3";
        else if (node.highlighted)
            os << ", color=\"" << kHighlightColor << "\", penwidth=3";
    } else {
        os << ", shape=plaintext, margin=0, label=" << htmlLabel(node);
    }
    os << "];\n";
}

void writeRankGroup(std::ostream& os, const RankGroup& group, const std::string& indent) {
    os << indent << "{ rank=same;";
    for (const std::string& id : group.nodes)
        os << " " << quoteDot(id) << ";";
    os << " }\n";
    // Invisible flat edges keep same-rank nodes left to right in the given order.
    if (!group.ordered || group.nodes.size() < 2)
        return;
    os << indent;
    for (size_t i = 0; i < group.nodes.size(); ++i)
        os << (i ? " -> " : "") << quoteDot(group.nodes[i]);
    os << " [style=invis];\n";
}

/// `"node"`, `"node":"port"`, or `"node":"port":n` with a compass point.
std::string endpoint(const std::string& node, const std::string& port, const char* compass) {
    if (port.empty())
        return quoteDot(node);
    return quoteDot(node) + ":" + quoteDot(port) + (*compass ? std::string(":") + compass : "");
}

void writeEdge(std::ostream& os, const GraphEdge& edge) {
    // Relation nodes have their input ports on top and their outputs below (TEDD's 3-row
    // table): enter and leave those cells vertically.
    bool vertical = edge.style == EdgeStyle::Relation;
    os << "  " << endpoint(edge.from, edge.fromPort, vertical ? "s" : "") << " -> "
       << endpoint(edge.to, edge.toPort, vertical ? "n" : "") << " [id=" << quoteDot(edge.id);
    if (!edge.label.empty())
        os << ", label=" << quoteDot(edge.label);
    switch (edge.style) {
    case EdgeStyle::Dataflow:
        break;
    case EdgeStyle::Relation:
        os << ", color=\"#566573\"";
        break;
    case EdgeStyle::Attach:
        os << ", color=\"#1F618D\"";
        break;
    case EdgeStyle::Request:
        os << ", color=\"#117A65\"";
        break;
    case EdgeStyle::Note:
        os << ", style=dashed, arrowhead=none, color=\"#7F8C8D\"";
        break;
    case EdgeStyle::ScanState:
        // The loop back edge: drawn against the dataflow, so it does not rank the state.
        os << ", style=dashed, constraint=false, color=\"#AF601A\", fontcolor=\"#AF601A\"";
        break;
    }
    if (edge.problem)
        os << ", style=dashed, color=\"" << kProblemColor << "\", fontcolor=\"" << kProblemColor
           << "\", penwidth=3";
    else if (edge.highlighted)
        os << ", color=\"" << kHighlightColor << "\", penwidth=3";
    os << "];\n";
}

/// The cluster, with the clusters inside it, indented by `indent`.
void writeCluster(std::ostream& os, const Graph& graph, const GraphCluster& cluster,
                  const std::string& indent) {
    const std::string inner = indent + "  ";
    os << indent << "subgraph " << quoteDot(cluster.id) << " {\n"
       << inner << "id=" << quoteDot(cluster.id) << "; label=" << quoteDot(cluster.label)
       << "; style=rounded; color=\"#85929E\";\n";
    for (const GraphCluster& child : graph.clusters)
        if (child.parent == cluster.id)
            writeCluster(os, graph, child, inner);
    for (const GraphNode& node : graph.nodes)
        if (node.cluster == cluster.id)
            writeNode(os, node, inner);
    for (const RankGroup& group : graph.rankGroups)
        if (group.cluster == cluster.id)
            writeRankGroup(os, group, inner);
    os << indent << "}\n";
}

} // namespace

const char* styleFill(NodeStyle style) {
    switch (style) {
    case NodeStyle::Placeholder:
        return "#E5E8E8";
    case NodeStyle::Compute:
        return "#FFFFFF";
    case NodeStyle::Output:
        return "#D5F5E3";
    case NodeStyle::Inlined:
        return "#F2F3F4";
    case NodeStyle::IterVar:
        return "#FFFFFF";
    case NodeStyle::Relation:
        return "#FCF3CF";
    case NodeStyle::Root:
        return "#D6EAF8";
    case NodeStyle::Consumer:
        return "#EBF5FB";
    case NodeStyle::Bounds:
        return "#E8F8F5";
    case NodeStyle::Note:
        return "#FEF9E7";
    case NodeStyle::Chain:
        return "#EEF2F7";
    }
    BS_UNREACHABLE("unknown node style");
}

std::string quoteDot(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n')
            out += "\\n";
        else if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f)
            out += c;
    }
    return out + "\"";
}

std::string toDot(const Graph& graph) {
    checkGraph(graph);
    std::ostringstream os;
    os << "digraph " << quoteDot(graph.name) << " {\n"
       << "  graph [rankdir=" << rankDirName(graph.rankDir)
       << ", fontname=\"Helvetica\", fontsize=11, nodesep=0.35, ranksep=0.5];\n"
       << "  node [fontname=\"Helvetica\", fontsize=10];\n"
       << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    for (const GraphCluster& cluster : graph.clusters)
        if (cluster.parent.empty())
            writeCluster(os, graph, cluster, "  ");
    for (const GraphNode& node : graph.nodes)
        if (node.cluster.empty())
            writeNode(os, node, "  ");
    for (const RankGroup& group : graph.rankGroups)
        if (group.cluster.empty())
            writeRankGroup(os, group, "  ");
    for (const GraphEdge& edge : graph.edges)
        writeEdge(os, edge);
    os << "}\n";
    return os.str();
}

} // namespace bs::viz
