/// \file
/// Attributing engine objects to script lines. Every binding that calls into the engine is
/// declared with `bs::script::Located` (a pybind11 call guard): for the duration of the call
/// the engine's current source location (support/Diagnostic.h) is the line of the user's script
/// that made the call, so the stages, IterVars and relations created there remember it, and a
/// `UserError` thrown there names it.
///
/// "The user's script" is, while the ScriptRunner runs a script, the innermost Python frame of
/// that script file; otherwise (or when the call comes from a module the script imported) the
/// innermost frame that is not part of Boundscope's own Python package.
#pragma once

#include "support/Diagnostic.h"

#include <pybind11/pybind11.h>

#include <string>

namespace bs::script {

/// The script line making the current call from Python; unknown when no Python frame qualifies.
/// Needs the GIL.
SourceLocation pythonCallerLocation();

/// Sets the engine's current source location to `pythonCallerLocation()` for its lifetime.
class ScriptCallGuard {
public:
    ScriptCallGuard();
    ScriptCallGuard(const ScriptCallGuard&) = delete;
    ScriptCallGuard& operator=(const ScriptCallGuard&) = delete;

private:
    ScopedSourceLocation m_scope;
};

/// The call guard every binding into the engine uses: `.def("split", ..., Located())`.
using Located = pybind11::call_guard<ScriptCallGuard>;

/// The file of the script the runner is executing (empty when none). Set by the runner on the
/// Python thread; read with the GIL held.
void setActiveScriptFile(std::string path);
const std::string& activeScriptFile();

/// Declares a directory whose Python files are Boundscope's own (resources/python): their frames
/// are never the user's line. Called by the `boundscope` package when it is imported.
void addLibraryPath(std::string directory);

} // namespace bs::script
