/// \file
/// The process's one Python thread. It starts the embedded interpreter (once, on first use),
/// becomes Python's main thread, and then runs queued tasks one at a time with the GIL held.
/// It is never stopped: the interpreter lives until the process exits, so no object can outlive
/// it and no exit path waits for a script that ignores interrupts.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace bs::script {

class PythonThread {
public:
    /// The process's Python thread, started on first call.
    static PythonThread& instance();
    /// Whether `instance()` has been called (the interpreter exists or is starting).
    static bool started();

    /// Queues `task` to run on the Python thread with the GIL held. Tasks must not throw.
    void post(std::function<void()> task);
    /// Runs `task` there and waits; exceptions are rethrown to the caller. Called on the Python
    /// thread itself, it runs `task` at once.
    void call(const std::function<void()>& task);
    bool isCurrentThread() const;

    /// Why the interpreter or Boundscope's packages could not be set up; empty when they were.
    /// Valid inside tasks.
    const std::string& setupError() const { return m_setupError; }
    /// The directory of Boundscope's packages put first on sys.path.
    const std::string& pythonDirectory() const { return m_pythonDirectory; }

    /// Marks run `runId` as the code now executing on the Python thread (0: none). Python thread.
    void setExecutingRun(uint64_t runId);
    /// Raises KeyboardInterrupt in run `runId` if it is executing; ignored otherwise. Any thread,
    /// without the GIL; returns at once (the exception is delivered from a helper thread).
    void interrupt(uint64_t runId);
    /// Drops an interrupt that arrived after the run it was meant for ended. Python thread.
    void clearPendingInterrupt();

private:
    PythonThread();
    void threadMain();
    void setUpInterpreter();

    void deliverInterrupt(uint64_t runId);

    std::thread::id m_threadId;
    std::mutex m_mutex;
    std::condition_variable m_wakeUp;
    std::deque<std::function<void()>> m_tasks;
    std::atomic<uint64_t> m_executingRun{0};
    unsigned long m_pythonThreadIdent = 0;
    std::string m_setupError;
    std::string m_pythonDirectory;
};

} // namespace bs::script
