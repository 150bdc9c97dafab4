/// \file
/// Text in markup: what the SVG and HTML writers (graphs, heatmaps, animation frames, the
/// report) put between tags and in attributes.
#pragma once

#include <string>

namespace bs {

/// Escapes text for HTML, SVG or a Graphviz HTML-like label: `&`, `<`, `>`, `"` and `'` become
/// entities and control characters are dropped (line breaks are the caller's, as `<BR/>`).
std::string escapeHtml(const std::string& text);

} // namespace bs
