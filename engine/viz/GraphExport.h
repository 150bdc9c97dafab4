/// \file
/// Writing a graph to a file, for the CLI's `graph --format dot|svg|png -o OUT` and the GUI's
/// export (DESIGN.md: "never a partial output file"): the bytes are produced first, then
/// written with support/FileWrite.h's writeFileAtomically, so a failure at any step leaves OUT
/// as it was and no temporary behind.
#pragma once

#include "support/FileWrite.h"
#include "viz/Layout.h"

#include <string>

namespace bs::viz {

/// Renders `graph` in `format` (viz/Layout.h `render`) and writes it to `path` atomically.
/// Throws UserError as `render` and `writeFileAtomically` do; nothing is written on failure.
void writeGraph(const Graph& graph, GraphFormat format, const std::string& path);

} // namespace bs::viz
