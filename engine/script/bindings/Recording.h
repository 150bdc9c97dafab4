/// \file
/// Where the bindings record the program a script defines (`create_schedule`, `boundscope.show`,
/// `tvm.lower`, `boundscope.tc`). Each script run owns its ProgramRecorder (analysis/Program.h)
/// and gets the program back from it as a value: script/RecordedRun installs the run's recorder
/// for the run (every thread of the script records into it) and reads it after. Outside such a run
/// (a plain `python3` that imports the extension) the bindings record into the module's own
/// recorder.
#pragma once

#include "analysis/Program.h"

#include <memory>

namespace bs::script {

/// The recorder of the script running: the installed one, else the module's own.
std::shared_ptr<ProgramRecorder> activeRecorder();

/// Makes `recorder` the one the bindings record into (null: the module's own again) and returns
/// the one installed before.
std::shared_ptr<ProgramRecorder> installRecorder(std::shared_ptr<ProgramRecorder> recorder);

} // namespace bs::script
