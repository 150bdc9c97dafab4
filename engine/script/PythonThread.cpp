#include "script/PythonThread.h"

#include "script/EmbeddedModule.h"
#include "script/PythonPaths.h"
#include "support/DeepStack.h"

#include <pybind11/embed.h>

#include <future>
#include <memory>
#include <stdexcept>

namespace bs::script {

namespace py = pybind11;

namespace {
std::atomic<bool> g_started{false};
} // namespace

PythonThread& PythonThread::instance() {
    // Deliberately leaked: the thread and the interpreter live until the process exits.
    static PythonThread* const thread = new PythonThread();
    return *thread;
}

bool PythonThread::started() { return g_started.load(); }

PythonThread::PythonThread() {
    g_started = true;
    // A deep stack: scripts build expressions, and the engine calls they make recurse through
    // them (support/DeepStack.h). The thread's id is known before anything is posted to it.
    auto started = std::make_shared<std::promise<std::thread::id>>();
    std::future<std::thread::id> id = started->get_future();
    startDeepStackThread([this, started] {
        started->set_value(std::this_thread::get_id());
        threadMain();
    });
    m_threadId = id.get();
}

bool PythonThread::isCurrentThread() const { return std::this_thread::get_id() == m_threadId; }

void PythonThread::post(std::function<void()> task) {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_tasks.push_back(std::move(task));
    }
    m_wakeUp.notify_one();
}

void PythonThread::call(const std::function<void()>& task) {
    if (isCurrentThread()) {
        task();
        return;
    }
    std::promise<void> done;
    post([&task, &done] {
        try {
            task();
            done.set_value();
        } catch (const py::error_already_set& error) {
            // Python objects stay on this thread: hand over only the text.
            done.set_exception(std::make_exception_ptr(std::runtime_error(error.what())));
        } catch (...) {
            done.set_exception(std::current_exception());
        }
    });
    done.get_future().get();
}

void PythonThread::threadMain() {
    setUpInterpreter();
    // Between tasks the GIL is released, so nothing else is needed to hand it back and forth.
    PyThreadState* state = PyEval_SaveThread();
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wakeUp.wait(lock, [this] { return !m_tasks.empty(); });
            task = std::move(m_tasks.front());
            m_tasks.pop_front();
        }
        PyEval_RestoreThread(state);
        task();
        task = nullptr; // what it captured may hold Python objects: release them with the GIL
        state = PyEval_SaveThread();
    }
}

void PythonThread::setUpInterpreter() {
    // Registered here, not by a static initializer, so that everything Python learns about
    // threads happens on this thread, which thereby becomes Python's main thread. No signal
    // handlers: Ctrl-C stays with the host.
    registerEmbeddedModule();
    py::initialize_interpreter(/*init_signal_handlers=*/false, 0, nullptr,
                               /*add_program_dir_to_path=*/false);
    m_pythonThreadIdent = PyThread_get_thread_ident();
    try {
        py::module_ sys = py::module_::import("sys");
        sys.attr("dont_write_bytecode") = true;
        m_pythonDirectory = findPythonDirectory();
        if (m_pythonDirectory.empty()) {
            m_setupError = "cannot find Boundscope's Python packages (resources/python); set "
                           "BOUNDSCOPE_PYTHON_DIR to their directory";
            return;
        }
        sys.attr("path").attr("insert")(0, m_pythonDirectory);
        py::module_::import("boundscope._embedding").attr("install")(m_pythonDirectory);
    } catch (const py::error_already_set& error) {
        m_setupError = std::string("cannot set up Boundscope's Python packages: ") + error.what();
    }
}

void PythonThread::setExecutingRun(uint64_t runId) { m_executingRun.store(runId); }

void PythonThread::deliverInterrupt(uint64_t runId) {
    PyGILState_STATE gil = PyGILState_Ensure();
    // The Python thread changes the executing run only with the GIL held, so under the GIL this
    // check cannot race: the run is still inside PyEval_EvalCode.
    if (m_executingRun.load() == runId)
        PyThreadState_SetAsyncExc(m_pythonThreadIdent, PyExc_KeyboardInterrupt);
    PyGILState_Release(gil);
}

void PythonThread::interrupt(uint64_t runId) {
    if (runId == 0 || m_executingRun.load() != runId)
        return;
    // An asynchronous exception is the one way to reach Python's eval loop from another thread
    // that always wakes it (Py_AddPendingCall from a non-main thread does not set the eval
    // breaker in Python 3.11), but it needs the GIL, which a long engine call may hold: take it
    // on a helper thread so the caller (the GUI) never waits.
    std::thread([this, runId] { deliverInterrupt(runId); }).detach();
}

void PythonThread::clearPendingInterrupt() {
    // A KeyboardInterrupt delivered just as the script ended must not hit later code.
    PyThreadState_SetAsyncExc(m_pythonThreadIdent, nullptr);
}

} // namespace bs::script
