/// \file
/// Writing an output file without ever leaving a partial one (DESIGN.md): the bytes go to a
/// temporary file beside the target, are flushed to disk and renamed over it, so a failure at
/// any step leaves the target as it was and no temporary behind. Used for the CLI's and the
/// engine's outputs (graphs, saved kernels).
#pragma once

#include <string>

namespace bs {

/// Writes `bytes` to `path` atomically (temporary file in the same folder + fsync + rename).
/// Throws UserError `cannot write '<path>': <reason>` when the folder is missing or not
/// writable, `path` is a folder, or the disk is full. A device, pipe or socket at `path`
/// (`/dev/stdout`) is written where it is, never replaced. A symbolic link is kept: the file it
/// points to is replaced. A file that exists keeps its permissions.
void writeFileAtomically(const std::string& path, const std::string& bytes);

} // namespace bs
