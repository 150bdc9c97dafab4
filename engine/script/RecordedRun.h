/// \file
/// Running a script for the program it defines. Each run owns a ProgramRecorder
/// (analysis/Program.h), installed for the run (script/bindings/Recording.h) and read on the
/// Python thread after it; the program comes back as a value. One lock keeps each
/// install-run-read together against another such run (two documents analysed at once, an edit
/// checked while the app analyses).
#pragma once

#include "analysis/Program.h"
#include "script/ScriptRunner.h"

#include <functional>

namespace bs::script {

/// Calls `run` (which runs one script and waits for it) with a recorder of its own, and sets
/// `program` to what the script defined (undefined when it made no schedule), its engine code
/// written in the names the script ended with (Program::inSourceNames, inScriptNames).
ScriptResult runRecorded(ScriptRunner& runner, const std::function<ScriptResult()>& run,
                         Program* program);

} // namespace bs::script
