#include "script/bindings/Recording.h"

#include <mutex>
#include <utility>

namespace bs::script {

namespace {

/// Installed by RecordedRun for one run. One for the process, not per thread, so that a thread
/// the script starts records into its run too (RecordedRun runs one script at a time); shared,
/// so that such a thread still holds a live recorder after the run took the program.
std::mutex g_mutex;
std::shared_ptr<ProgramRecorder> g_installed;

} // namespace

std::shared_ptr<ProgramRecorder> activeRecorder() {
    std::lock_guard lock(g_mutex);
    if (g_installed)
        return g_installed;
    static const auto moduleRecorder = std::make_shared<ProgramRecorder>();
    return moduleRecorder;
}

std::shared_ptr<ProgramRecorder> installRecorder(std::shared_ptr<ProgramRecorder> recorder) {
    std::lock_guard lock(g_mutex);
    return std::exchange(g_installed, std::move(recorder));
}

} // namespace bs::script
