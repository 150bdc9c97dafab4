/// \file
/// Turning a Python exception raised by a script into one Diagnostic for the user: the message
/// is `Type: text` as Python prints its last traceback line (`NameError: name 'foo' is not
/// defined`), or just the text for an engine error (tvm.error.TVMError), and the location is the
/// line of the script's innermost frame in the traceback (for a SyntaxError in the script, the
/// line it names).
#pragma once

#include "script/ScriptRunner.h"

#include <pybind11/pybind11.h>

#include <optional>

namespace bs::script {

struct PythonFailure {
    ScriptStatus status = ScriptStatus::Failed; ///< Failed, or Interrupted for KeyboardInterrupt
    Diagnostic diagnostic;
    std::string traceback;
};

/// Describes `error`, raised by the script in `scriptFile`; nullopt when it is a successful exit
/// (SystemExit with code 0 or None). Python thread.
std::optional<PythonFailure> describePythonError(const pybind11::error_already_set& error,
                                                 const std::string& scriptFile);

/// Adds the variables of `scope` (a script's globals or a frame's locals) that hold tensors and
/// schedules to `names`. Python thread.
void addScriptNames(const pybind11::dict& scope, ScriptNames& names);

/// `text` on one line: each line break and the indentation after it become one space.
std::string toOneLine(const std::string& text);

} // namespace bs::script
