#include "script/ScriptExecution.h"

#include "script/OutputCapture.h"
#include "script/PythonErrors.h"
#include "script/PythonThread.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"

#include <pybind11/eval.h>

#include <filesystem>

namespace bs::script {

namespace py = pybind11;

void RunControl::markDone() {
    {
        std::lock_guard<std::mutex> lock(mutex);
        done = true;
    }
    finished.notify_all();
}

namespace {

/// The interpreter state a script sees, set up for one run and restored when it ends (also when
/// it fails): sys.stdout/stderr, sys.argv, sys.path[0] (the script's directory, as `python3 FILE`
/// has it), sys.modules['__main__'] and the runner's notion of the active script file.
class RunEnvironment {
public:
    RunEnvironment(const std::string& fileName, const std::vector<std::string>& arguments,
                   const std::shared_ptr<OutputCapture>& capture)
        : m_sys(py::module_::import("sys")), m_modules(m_sys.attr("modules")) {
        m_savedStdout = m_sys.attr("stdout");
        m_savedStderr = m_sys.attr("stderr");
        m_savedArgv = m_sys.attr("argv");
        m_savedMain = m_modules.attr("get")("__main__");
        m_savedScriptFile = activeScriptFile();

        py::module_ main = py::module_::import("types").attr("ModuleType")("__main__");
        main.attr("__file__") = fileName;
        main.attr("__builtins__") = py::module_::import("builtins");
        m_globals = main.attr("__dict__");
        m_modules["__main__"] = main;

        py::list argv;
        argv.append(fileName);
        for (const std::string& argument : arguments)
            argv.append(argument);
        m_sys.attr("argv") = argv;
        m_scriptDirectory = py::str(scriptDirectory(fileName));
        m_sys.attr("path").attr("insert")(0, m_scriptDirectory);
        m_sys.attr("stdout") = makeOutputSink(capture, OutputStream::Stdout);
        m_sys.attr("stderr") = makeOutputSink(capture, OutputStream::Stderr);
        // os._exit would end the whole process (the CLI, the app) without a word: within a run it
        // ends the script as sys.exit does, with its status.
        // time.sleep in a thread that is not Python's main one cannot be interrupted: within a
        // run it sleeps in short slices, so a timeout or Stop ends it within one of them.
        m_time = py::module_::import("time");
        m_savedSleep = m_time.attr("sleep");
        py::dict scope;
        scope["_sleep"] = m_savedSleep;
        scope["_monotonic"] = m_time.attr("monotonic");
        py::exec(R"(
def sleep(seconds):
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    end = _monotonic() + seconds
    while True:
        left = end - _monotonic()
        if left <= 0:
            return
        _sleep(min(left, 0.05))
)",
                 scope);
        m_time.attr("sleep") = scope["sleep"];
        m_os = py::module_::import("os");
        m_savedExit = m_os.attr("_exit");
        m_os.attr("_exit") = py::cpp_function(
            [](py::object status) {
                PyErr_SetObject(PyExc_SystemExit, status.ptr());
                throw py::error_already_set();
            },
            py::arg("status"));
        setActiveScriptFile(fileName);
        // What the previous script registered (tvm.register_func) lived on for the runs of
        // its program (`boundscope run`, the app's Run); this script registers its own.
        removeScriptPackedFunctions();
        // So do the operators and intrinsic-lowering rules it registered (tvm.ir).
        py::module_::import("boundscope.intrin").attr("forget_registrations")();
    }

    ~RunEnvironment() {
        setActiveScriptFile(m_savedScriptFile);
        try {
            m_sys.attr("stdout") = m_savedStdout;
            m_sys.attr("stderr") = m_savedStderr;
            m_sys.attr("argv") = m_savedArgv;
            m_os.attr("_exit") = m_savedExit;
            m_time.attr("sleep") = m_savedSleep;
            py::list path = m_sys.attr("path");
            if (py::len(path) > 0 && py::object(path[0]).equal(m_scriptDirectory))
                path.attr("pop")(0);
            if (m_savedMain.is_none())
                m_modules.attr("pop")("__main__", py::none());
            else
                m_modules["__main__"] = m_savedMain;
        } catch (const py::error_already_set&) {
            // A script that broke sys beyond repair cannot be helped here; the next run resets it.
        }
    }

    RunEnvironment(const RunEnvironment&) = delete;
    RunEnvironment& operator=(const RunEnvironment&) = delete;

    const py::object& globals() const { return m_globals; }

private:
    static std::string scriptDirectory(const std::string& fileName) {
        std::error_code error;
        auto dir = std::filesystem::absolute(fileName, error).parent_path();
        return error ? std::string(".") : dir.string();
    }

    py::module_ m_sys;
    py::object m_modules;
    py::object m_savedStdout, m_savedStderr, m_savedArgv, m_savedMain;
    py::module_ m_os, m_time;
    py::object m_savedExit, m_savedSleep;
    py::object m_globals;
    py::object m_scriptDirectory;
    std::string m_savedScriptFile;
};

std::string formatDuration(std::chrono::milliseconds duration) {
    if (duration.count() % 1000 == 0)
        return std::to_string(duration.count() / 1000) + " s";
    return std::to_string(duration.count()) + " ms";
}

/// Evaluates the compiled script; only while it runs can an interrupt reach it.
void evaluate(const py::object& code, const py::object& globals, RunControl& control) {
    PythonThread& thread = PythonThread::instance();
    thread.setExecutingRun(control.id);
    // Checked after publishing the run id, so an interrupt() racing with the start is either
    // seen here or delivered into the running script (see PythonThread::interrupt).
    if (control.interruptRequested.load()) {
        thread.setExecutingRun(0);
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
    }
    PyObject* value = PyEval_EvalCode(code.ptr(), globals.ptr(), globals.ptr());
    thread.setExecutingRun(0);
    thread.clearPendingInterrupt();
    if (!value)
        throw py::error_already_set();
    Py_DECREF(value);
}

void recordFailure(ScriptResult& result, const py::error_already_set& error,
                   const std::string& fileName, const ScriptOptions& options,
                   const RunControl& control) {
    std::optional<PythonFailure> failure;
    try {
        failure = describePythonError(error, fileName);
    } catch (const std::exception& describing) {
        // The exception object itself misbehaves (a __str__ that raises, ...): report it raw.
        failure = PythonFailure{
            ScriptStatus::Failed,
            Diagnostic{toOneLine(error.what()), SourceLocation{fileName, 0}, Severity::Error},
            std::string()};
    }
    if (!failure)
        return; // sys.exit(0)
    result.status = failure->status;
    result.diagnostic = failure->diagnostic;
    result.traceback = failure->traceback;
    if (failure->status == ScriptStatus::Interrupted && control.timedOut.load()) {
        result.status = ScriptStatus::TimedOut;
        result.diagnostic->message =
            "timed out after " +
            formatDuration(options.limitShown.count() ? options.limitShown : options.timeout);
    }
}

} // namespace

ScriptResult executeScript(const std::string& source, const std::string& fileName,
                           const ScriptOptions& options, RunControl& control, py::object& globals) {
    ScriptResult result;
    const std::string& setupError = PythonThread::instance().setupError();
    if (!setupError.empty()) {
        result.status = ScriptStatus::Failed;
        result.diagnostic = Diagnostic{setupError, SourceLocation{fileName, 0}, Severity::Error};
        return result;
    }
    auto capture = std::make_shared<OutputCapture>(options.echoOutput, options.onOutput);
    {
        RunEnvironment environment(fileName, options.arguments, capture);
        globals = environment.globals();
        try {
            // Compiling bytes lets Python honour an encoding declaration, as for a file.
            py::object code = py::module_::import("builtins")
                                  .attr("compile")(py::bytes(source), fileName, "exec", 0, true);
            evaluate(code, globals, control);
            addScriptNames(globals.cast<py::dict>(), result.names);
        } catch (const py::error_already_set& error) {
            recordFailure(result, error, fileName, options, control);
        }
    }
    capture->close();
    result.output = capture->text(OutputStream::Stdout);
    result.errorOutput = capture->text(OutputStream::Stderr);
    return result;
}

} // namespace bs::script
