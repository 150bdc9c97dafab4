/// \file
/// Reading a script file (a Python script or a `.tc` file) the way every front end does: only a
/// regular file of a script's size is read, so a device (`/dev/zero`), a pipe or a folder given
/// by mistake is one clear message instead of a run that never ends.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace bs {

/// Scripts larger than this are refused (no hand-written or generated script comes near it).
constexpr std::uintmax_t kMaxScriptBytes = std::uintmax_t(64) << 20;

/// Why `path` cannot be read as a script (`No such file or directory`, `it is a folder`, `it is
/// not a regular file (a device, a pipe or a socket)`, `it is larger than 64 MiB`), or an empty
/// string when it can.
std::string whyScriptUnreadable(const std::string& path);

/// The text of the script at `path`, or nullopt with `reason` set (whyScriptUnreadable's, or
/// the read's errno text).
std::optional<std::string> readScriptFile(const std::string& path, std::string& reason);

} // namespace bs
