#include "script/RecordedRun.h"

#include <mutex>

namespace bs::script {

ScriptResult runRecorded(ScriptRunner& runner, const std::function<ScriptResult()>& run,
                         Program* program) {
    static std::mutex recorderMutex;
    std::lock_guard<std::mutex> lock(recorderMutex);
    runner.withGlobals([](const pybind11::dict&) { ProgramRecorder::current().reset(); });
    ScriptResult result = run();
    runner.withGlobals([program](const pybind11::dict&) {
        *program = ProgramRecorder::current().program();
        ProgramRecorder::current().reset();
    });
    return result;
}

} // namespace bs::script
