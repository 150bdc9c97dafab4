/// \file
/// Running a script for the program it defines. The ProgramRecorder (analysis/Program.h) is one
/// per process, so the reset before a run, the run and the read after it must not interleave
/// with another such run (two documents analysed at once, an edit checked while the app
/// analyses): one lock keeps each reset-run-read together, and the reset and the read happen
/// on the Python thread, in order with the run.
#pragma once

#include "analysis/Program.h"
#include "script/ScriptRunner.h"

#include <functional>

namespace bs::script {

/// Calls `run` (which runs one script and waits for it) with the recorder to itself, and sets
/// `program` to what the script defined (undefined when it made no schedule).
ScriptResult runRecorded(ScriptRunner& runner, const std::function<ScriptResult()>& run,
                         Program* program);

} // namespace bs::script
