#include "script/ScriptRunner.h"

#include "support/ScriptFile.h"

#include "script/PythonThread.h"
#include "script/ScriptExecution.h"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace bs::script {

namespace py = pybind11;

struct ScriptRunner::State {
    std::mutex mutex;
    std::vector<std::shared_ptr<RunControl>> runs; ///< queued or running; guarded by `mutex`
    py::object globals; ///< the last finished script's namespace; Python thread only

    void remove(const std::shared_ptr<RunControl>& control) {
        std::lock_guard<std::mutex> lock(mutex);
        runs.erase(std::remove(runs.begin(), runs.end(), control), runs.end());
    }
};

namespace {

uint64_t nextRunId() {
    static std::atomic<uint64_t> counter{0};
    return ++counter;
}

/// Interrupts the run once `timeout` has passed since it started, and again every 100 ms until
/// it ends (a script may catch one KeyboardInterrupt, or be inside a long C call).
void startWatchdog(const std::shared_ptr<RunControl>& control, std::chrono::milliseconds timeout) {
    std::thread([control, timeout] {
        std::unique_lock<std::mutex> lock(control->mutex);
        if (control->finished.wait_for(lock, timeout, [&] { return control->done; }))
            return;
        control->timedOut = true;
        control->interruptRequested = true;
        while (!control->done) {
            lock.unlock();
            PythonThread::instance().interrupt(control->id);
            lock.lock();
            control->finished.wait_for(lock, std::chrono::milliseconds(100),
                                       [&] { return control->done; });
        }
    }).detach();
}

std::future<ScriptResult> readyResult(ScriptResult result) {
    std::promise<ScriptResult> promise;
    promise.set_value(std::move(result));
    return promise.get_future();
}

} // namespace

ScriptRunner::ScriptRunner() : m_state(std::make_shared<State>()) {}

ScriptRunner::~ScriptRunner() {
    if (!PythonThread::started())
        return;
    // The namespace must be released with the GIL: hand the state to the Python thread.
    PythonThread::instance().post([state = std::move(m_state)]() mutable {
        state->globals = py::object();
        state.reset();
    });
}

ScriptResult ScriptRunner::runFile(const std::string& path, const ScriptOptions& options) {
    return startFile(path, options).get();
}

ScriptResult ScriptRunner::runSource(const std::string& source, const std::string& fileName,
                                     const ScriptOptions& options) {
    return startSource(source, fileName, options).get();
}

std::future<ScriptResult> ScriptRunner::startFile(const std::string& path,
                                                  const ScriptOptions& options) {
    std::string reason;
    auto source = readScriptFile(path, reason);
    if (!source) {
        ScriptResult result;
        result.status = ScriptStatus::CannotOpen;
        result.diagnostic =
            Diagnostic{"cannot open '" + path + "': " + reason, SourceLocation{}, Severity::Error};
        return readyResult(std::move(result));
    }
    return startSource(*source, path, options);
}

std::future<ScriptResult> ScriptRunner::startSource(const std::string& source,
                                                    const std::string& fileName,
                                                    const ScriptOptions& options) {
    auto control = std::make_shared<RunControl>(nextRunId());
    auto promise = std::make_shared<std::promise<ScriptResult>>();
    std::future<ScriptResult> future = promise->get_future();
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->runs.push_back(control);
    }
    PythonThread::instance().post([state = m_state, control, promise, source, fileName, options] {
        // The time limit counts from the start of the run, not from when it was queued.
        if (options.timeout.count() > 0)
            startWatchdog(control, options.timeout);
        py::object globals;
        ScriptResult result = executeScript(source, fileName, options, *control, globals);
        if (globals)
            state->globals = std::move(globals);
        state->remove(control);
        control->markDone();
        promise->set_value(std::move(result));
    });
    return future;
}

void ScriptRunner::interrupt() {
    std::vector<std::shared_ptr<RunControl>> runs;
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        runs = m_state->runs;
    }
    for (const auto& control : runs) {
        control->interruptRequested = true;
        PythonThread::instance().interrupt(control->id);
    }
}

bool ScriptRunner::isBusy() const {
    std::lock_guard<std::mutex> lock(m_state->mutex);
    return !m_state->runs.empty();
}

void ScriptRunner::withGlobals(const std::function<void(const py::dict& globals)>& fn) {
    PythonThread::instance().call([this, &fn] {
        py::dict globals =
            m_state->globals ? py::reinterpret_borrow<py::dict>(m_state->globals) : py::dict();
        fn(globals);
    });
}

std::string ScriptRunner::pythonDirectory() {
    PythonThread& thread = PythonThread::instance();
    std::string directory;
    thread.call([&] { directory = thread.pythonDirectory(); });
    return directory;
}

} // namespace bs::script
