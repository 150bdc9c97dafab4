/// \file
/// One run of a script on the Python thread: a fresh `__main__` module, sys.argv, sys.path[0]
/// and sys.stdout/sys.stderr set as `python3 FILE` would have them (output captured), the code
/// compiled under the script's file name so tracebacks and call guards can find its frames, and
/// everything restored afterwards.
#pragma once

#include "script/ScriptRunner.h"

#include <pybind11/pybind11.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace bs::script {

/// Shared by a run's caller, its task on the Python thread and its watchdog.
struct RunControl {
    explicit RunControl(uint64_t id) : id(id) {}

    const uint64_t id;
    std::atomic<bool> interruptRequested{false};
    std::atomic<bool> timedOut{false};

    std::mutex mutex;
    std::condition_variable finished;
    bool done = false; ///< guarded by `mutex`

    void markDone();
};

/// Runs `source` as the script `fileName` (Python thread only). `globals` receives the script's
/// module namespace, also after a failure.
ScriptResult executeScript(const std::string& source, const std::string& fileName,
                           const ScriptOptions& options, RunControl& control,
                           pybind11::object& globals);

} // namespace bs::script
