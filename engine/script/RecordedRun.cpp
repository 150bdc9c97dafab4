#include "script/RecordedRun.h"

#include "script/bindings/Recording.h"

#include <mutex>

namespace bs::script {

ScriptResult runRecorded(ScriptRunner& runner, const std::function<ScriptResult()>& run,
                         Program* program) {
    // Two runs from two threads (two documents, an edit checked while the app analyses) queue
    // their installs and runs on the one Python thread: without the lock, one run could record
    // into the other's recorder.
    static std::mutex runMutex;
    std::lock_guard<std::mutex> lock(runMutex);
    auto recorder = std::make_shared<ProgramRecorder>();
    std::shared_ptr<ProgramRecorder> previous;
    runner.withGlobals([&](const pybind11::dict&) { previous = installRecorder(recorder); });
    ScriptResult result;
    try {
        result = run();
    } catch (...) {
        runner.withGlobals([&](const pybind11::dict&) { installRecorder(previous); });
        throw;
    }
    runner.withGlobals([&](const pybind11::dict&) {
        *program = recorder->program();
        installRecorder(previous);
    });
    if (program->defined())
        program->inSourceNames = [names = result.names](const std::string& code) {
            return inScriptNames(code, names);
        };
    return result;
}

} // namespace bs::script
