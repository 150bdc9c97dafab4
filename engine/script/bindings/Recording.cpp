#include "script/bindings/Recording.h"

#include <utility>

namespace bs::script {

namespace {

/// Installed by RecordedRun for one run, on the Python thread that runs it.
thread_local ProgramRecorder* t_installed = nullptr;

} // namespace

ProgramRecorder& activeRecorder() {
    if (t_installed)
        return *t_installed;
    static ProgramRecorder moduleRecorder;
    return moduleRecorder;
}

ProgramRecorder* installRecorder(ProgramRecorder* recorder) {
    return std::exchange(t_installed, recorder);
}

} // namespace bs::script
