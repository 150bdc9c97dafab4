/// \file
/// Writing a graph to a file, for the CLI's `graph --format dot|svg|png -o OUT` and the GUI's
/// export (DESIGN.md: "never a partial output file"): the bytes are produced first, written to
/// a temporary file beside OUT, flushed to disk and renamed over OUT, so a failure at any step
/// leaves OUT as it was and no temporary behind.
#pragma once

#include "viz/Layout.h"

#include <string>

namespace bs::viz {

/// Writes `bytes` to `path` atomically (temporary file in the same folder + fsync + rename).
/// Throws UserError `cannot write '<path>': <reason>` when the folder is missing or not
/// writable, `path` is a folder, or the disk is full. A device, pipe or socket at `path`
/// (`/dev/stdout`) is written where it is, never replaced.
void writeFileAtomically(const std::string& path, const std::string& bytes);

/// Renders `graph` in `format` (viz/Layout.h `render`) and writes it to `path` atomically.
/// Throws UserError as `render` and `writeFileAtomically` do; nothing is written on failure.
void writeGraph(const Graph& graph, GraphFormat format, const std::string& path);

} // namespace bs::viz
