/// \file
/// Where the bindings record the program a script defines (`create_schedule`, `boundscope.show`,
/// `tvm.lower`, `boundscope.tc`). Each script run owns its ProgramRecorder (analysis/Program.h)
/// and gets the program back from it as a value: script/RecordedRun installs the run's recorder
/// on the Python thread for the run and reads it after. Outside such a run (a plain `python3`
/// that imports the extension) the bindings record into the module's own recorder.
#pragma once

#include "analysis/Program.h"

namespace bs::script {

/// The recorder of the script running on this thread: the installed one, else the module's own.
ProgramRecorder& activeRecorder();

/// Makes `recorder` the one the bindings record into on this thread (null: the module's own
/// again) and returns the one installed before.
ProgramRecorder* installRecorder(ProgramRecorder* recorder);

} // namespace bs::script
