/// \file
/// A `.tc` file as a program (issue 8): the CLI and the app analyse a Tensor Comprehensions file
/// as the default schedule of its one definition, sizes left symbolic, with the TcProgram kept
/// in the Program for the side-by-side ranges. No Python is involved.
#pragma once

#include "analysis/Program.h"

#include <string>

namespace bs {

/// Whether `fileName` names a Tensor Comprehensions source (it ends in `.tc`).
bool isTcFileName(const std::string& fileName);

/// Builds the TC definition in `source` (diagnostics name `fileName`) and returns its default
/// schedule with default arguments; `tcPrograms` holds the definition, whose `warnings` are the
/// unchecked preconditions. Throws UserError, located at the TC line, when it cannot be built.
Program tcSourceProgram(const std::string& source, const std::string& fileName);

} // namespace bs
