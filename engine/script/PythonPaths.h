/// \file
/// Finding Boundscope's Python packages (resources/python) at run time: the build copies them
/// next to the binaries (build/python), so an executable looks there first, then falls back to
/// the source tree it was built from.
#pragma once

#include <string>

namespace bs::script {

/// The directory holding the `boundscope` and `tvm` packages, searched in this order:
/// `$BOUNDSCOPE_PYTHON_DIR`; `python/` in the executable's directory or one of its first four
/// parents (build/python for build/app/cli/boundscope); `../share/boundscope/python` from the
/// executable (an install); the source tree's resources/python. Empty when none has them.
std::string findPythonDirectory();

/// Whether `directory` holds both packages.
bool isPythonDirectory(const std::string& directory);

} // namespace bs::script
