/// \file
/// Graphviz DOT text of a graph model (viz/GraphModel.h): table nodes as HTML-like labels (as
/// TEDD draws them, reference/TEDD.md), plain nodes as quoted labels, every user text escaped.
/// The output is deterministic (clusters, then unclustered nodes, then rank groups, then edges,
/// each in model order), so tests can compare it and `layout()` can parse it back by id. It
/// needs no Graphviz library: `boundscope graph --format dot` works in every build.
#pragma once

#include "support/Markup.h" // escapeHtml, for HTML-like labels
#include "viz/GraphModel.h"

#include <string>

namespace bs::viz {

/// The DOT text of `graph`: `digraph "<name>" { ... }`. Nodes and edges carry their model ids
/// as the `id` attribute (SVG output keeps them as element ids).
std::string toDot(const Graph& graph);

/// `text` as a DOT double-quoted string: `"` and `\` escaped, newlines as `\n`.
std::string quoteDot(const std::string& text);

/// The fill colour the DOT writer gives a node style (`#RRGGBB`), for GUIs that want the same.
const char* styleFill(NodeStyle style);

} // namespace bs::viz
