/// \file
/// Graphviz in-process (cgraph/gvc): `layout()` runs the `dot` layout on a graph model and
/// returns where every node, edge and cluster goes, so a GUI can draw the graph with its own
/// items (UI_ANCHORS.md section 7, option 1: QGVCore's approach); `render()` turns a graph into
/// DOT, SVG or PNG bytes for export.
///
/// Graphviz is not thread-safe: every call into it is made under one global mutex
/// (`graphvizMutex()`, as kgraphviewer wraps gvLayout/gvRender in one QMutex), so layouts may
/// be requested from any number of threads. Each call frees its layout and graph
/// (gvFreeLayout, agclose); the one gvContext lives until the program ends.
///
/// Built without Graphviz (BOUNDSCOPE_WITH_GRAPHVIZ off), `layout()` and SVG/PNG `render()`
/// throw UserError("Graphviz support was not built"); DOT still works.
#pragma once

#include "viz/GraphModel.h"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace bs::viz {

/// A point in the layout, in points (1/72 inch), y growing downwards, origin top-left.
struct Point {
    double x = 0;
    double y = 0;
};

/// An axis-aligned box: top-left corner and size, in points.
struct Box {
    double x = 0;
    double y = 0;
    double width = 0;
    double height = 0;

    Point center() const { return {x + width / 2, y + height / 2}; }
    /// True when the interiors overlap (boxes that only touch do not).
    bool overlaps(const Box& other) const;
};

struct NodeLayout {
    std::string id; ///< the model node's id
    Box box;
};

/// One piece of an edge's spline: cubic Bézier control points p0, (c1, c2, p)..., plus the
/// arrow tips Graphviz draws beyond the curve's ends.
struct EdgeSpline {
    std::vector<Point> points;
    std::optional<Point> arrowAtStart;
    std::optional<Point> arrowAtEnd;
};

struct EdgeLayout {
    std::string id; ///< the model edge's id
    std::vector<EdgeSpline> splines;
    std::optional<Point> labelCenter; ///< where the edge label goes, when it has one
};

struct ClusterLayout {
    std::string id;
    Box box;
};

/// The laid-out graph: one entry per model node and edge, in model order.
struct GraphLayout {
    double width = 0;
    double height = 0;
    std::vector<NodeLayout> nodes;
    std::vector<EdgeLayout> edges;
    std::vector<ClusterLayout> clusters;

    /// The layout of node `id`, or nullptr.
    const NodeLayout* findNode(const std::string& id) const;
};

/// Export formats (the CLI's `--format`).
enum class GraphFormat { Dot, Svg, Png };
/// `dot`, `svg`, `png`.
const char* graphFormatName(GraphFormat format);
std::optional<GraphFormat> parseGraphFormat(const std::string& name);

/// True when this build lays out and renders with Graphviz.
bool graphvizAvailable();

/// The mutex every call into Graphviz holds. Code outside engine/viz that calls Graphviz
/// directly must hold it too.
std::mutex& graphvizMutex();

/// Lays out `graph` with Graphviz's `dot`. Throws UserError when Graphviz is not built in or
/// rejects the graph (with Graphviz's message).
GraphLayout layout(const Graph& graph);

/// The bytes of `graph` in `format`: DOT text (toDot), or SVG / PNG rendered by Graphviz.
/// Throws UserError for SVG/PNG without Graphviz, or when Graphviz has no renderer for it.
std::string render(const Graph& graph, GraphFormat format);

/// The bytes of the DOT text `dot` (a graph called `name`, for messages) in `format`, rendered
/// by Graphviz as `render` does: for DOT written elsewhere (tvm.contrib.tedd).
std::string renderDot(const std::string& dot, const std::string& name, GraphFormat format);

} // namespace bs::viz
