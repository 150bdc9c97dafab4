/// \file
/// Runs users' Python scripts with real CPython embedded in the process (DESIGN.md, "The front
/// end"). The interpreter is started once per process, on a thread of its own, and every line of
/// Python runs there: callers hand a script over and get C++ values back (its output, a
/// `Diagnostic` on failure), so the GUI never holds a Python object. Inside the interpreter
/// `import tvm` and `from tvm import te` always resolve to Boundscope's compatibility package
/// (resources/python), whatever else is installed.
///
/// A failing script becomes one Diagnostic at the line of the script where it failed (the
/// innermost frame of that file): `ex6.py:12: error: NameError: name 'foo' is not defined`. An
/// engine `UserError` reaches the script as `tvm.error.TVMError` with the same message; left
/// uncaught it is reported with just that message at the script line that made the call. A
/// running script can be interrupted from any thread (it sees KeyboardInterrupt), also by a time
/// limit. A script blocked inside one long C call (`time.sleep`) notices the interrupt when that
/// call returns.
#pragma once

#include "support/Diagnostic.h"

#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pybind11 {
class dict;
}

namespace bs::script {

enum class OutputStream { Stdout, Stderr };

struct ScriptOptions {
    /// `sys.argv[1:]` for the script (`sys.argv[0]` is its file name).
    std::vector<std::string> arguments;
    /// Also write the script's output to this process's stdout/stderr as it is produced.
    bool echoOutput = false;
    /// Called on the Python thread with each piece of output as it is written.
    std::function<void(OutputStream stream, const std::string& text)> onOutput;
    /// Interrupt the script after this long; zero means no limit.
    std::chrono::milliseconds timeout{0};
    /// The limit a timed-out script's message names, when `timeout` is what is left of a
    /// longer one (the CLI's `--timeout` covers the whole command); zero: `timeout`.
    std::chrono::milliseconds limitShown{0};
};

enum class ScriptStatus {
    Ok,          ///< ran to the end (or called sys.exit(0))
    Failed,      ///< raised an exception (or exited with a non-zero status)
    Interrupted, ///< stopped by `interrupt()`
    TimedOut,    ///< stopped by the time limit
    CannotOpen,  ///< the file could not be read; nothing ran
};

/// The script's own names for what the engine names by tensor (`B.local`) and calls `s`.
struct ScriptNames {
    std::map<std::string, std::string> variableOfTensor; ///< tensor name -> variable
    std::string schedule;                                ///< the schedule's variable
};

/// `fix` (engine text such as `s[B.local].compute_at(s[C], C.op.axis[0])`) in `names`, each
/// name renamed once.
std::string inScriptNames(std::string fix, const ScriptNames& names);

struct ScriptResult {
    ScriptStatus status = ScriptStatus::Ok;
    std::string output;      ///< everything written to sys.stdout
    std::string errorOutput; ///< everything written to sys.stderr
    /// Set unless `status` is Ok: the one message for the user, at the script line concerned.
    std::optional<Diagnostic> diagnostic;
    /// Python's formatted traceback of the failure (empty when there was none).
    std::string traceback;
    /// After a run: the variables the script holds its tensors and schedule in, to write the
    /// engine code shown later (the fix of an error found when the program is analysed, the
    /// allocation report's hints) in the script's own names (runRecorded).
    ScriptNames names;

    bool ok() const { return status == ScriptStatus::Ok; }
};

/// Runs scripts on the process's Python thread. Runners are cheap; all of them share the one
/// interpreter, and their runs execute one at a time in the order they were started.
class ScriptRunner {
public:
    ScriptRunner();
    ~ScriptRunner();
    ScriptRunner(const ScriptRunner&) = delete;
    ScriptRunner& operator=(const ScriptRunner&) = delete;

    /// Runs the script in `path` and waits for it. A file that cannot be read gives status
    /// CannotOpen with `cannot open 'PATH': REASON`.
    ScriptResult runFile(const std::string& path, const ScriptOptions& options = {});
    /// Runs `source` as if it were the file `fileName` (the name used in diagnostics).
    ScriptResult runSource(const std::string& source, const std::string& fileName,
                           const ScriptOptions& options = {});
    /// Starts a run and returns at once; the future is ready when the script has finished.
    std::future<ScriptResult> startFile(const std::string& path, const ScriptOptions& options = {});
    std::future<ScriptResult> startSource(const std::string& source, const std::string& fileName,
                                          const ScriptOptions& options = {});

    /// Interrupts this runner's running and queued scripts (any thread; returns at once). A
    /// running script gets KeyboardInterrupt and reports status Interrupted with the diagnostic
    /// `FILE:LINE: error: interrupted`; a queued one reports it without running.
    void interrupt();
    /// Whether one of this runner's scripts is running or queued.
    bool isBusy() const;

    /// Runs `fn` on the Python thread, with the GIL, on the module namespace of this runner's
    /// last finished script (an empty dict before any). For reading a script's results into
    /// engine values; `fn` must not keep Python objects. Exceptions from `fn` are rethrown here.
    void withGlobals(const std::function<void(const pybind11::dict& globals)>& fn);

    /// Where Boundscope's Python packages were found (the directory put first on sys.path).
    static std::string pythonDirectory();

private:
    struct State;
    std::shared_ptr<State> m_state;
};

} // namespace bs::script
