#include "document/AnalysisRunner.h"

#include "analysis/TcSource.h"
#include "support/Cancellation.h"

#if BOUNDSCOPE_WITH_PYTHON
#include "script/RecordedRun.h"
#include "script/ScriptRunner.h"
#endif

#include <QElapsedTimer>

namespace bs::gui {

namespace {

#if BOUNDSCOPE_WITH_PYTHON
script::ScriptResult interruptedBeforeRunning(const AnalysisRequest& request) {
    script::ScriptResult result;
    result.status = script::ScriptStatus::Interrupted;
    result.diagnostic =
        Diagnostic{"interrupted", SourceLocation{request.fileName, 0}, Severity::Error};
    return result;
}

/// Runs the script, stopping it when `cancelled` is set. A Stop can come before the run is
/// registered with the ScriptRunner (the interpreter may still be starting), when
/// ScriptRunner::interrupt() finds nothing to interrupt; so the run is registered first
/// (startSource) and the flag checked after: the canceller sets the flag before it calls
/// interrupt(), so one of the two always sees the other.
script::ScriptResult runCancellable(const AnalysisRequest& request, script::ScriptRunner& runner,
                                    const std::atomic<bool>* cancelled) {
    if (cancelled && *cancelled)
        return interruptedBeforeRunning(request);
    std::future<script::ScriptResult> run = runner.startSource(request.source, request.fileName);
    if (cancelled && *cancelled)
        runner.interrupt();
    return run.get();
}

/// Runs the script and reads the program it defined (script/RecordedRun.h keeps the runs of two
/// documents, or of an edit's check, from reading each other's program). Returns false when the
/// script failed.
bool runScript(const AnalysisRequest& request, script::ScriptRunner& runner,
               const std::atomic<bool>* cancelled, AnalysisOutcome& outcome) {
    Program built;
    script::ScriptResult result = script::runRecorded(
        runner, [&] { return runCancellable(request, runner, cancelled); }, &built);
    outcome.output = result.output + result.errorOutput;
    if (!result.ok()) {
        outcome.interrupted = result.status == script::ScriptStatus::Interrupted ||
                              result.status == script::ScriptStatus::TimedOut;
        outcome.error = result.diagnostic.value_or(
            Diagnostic{"the script failed", SourceLocation{request.fileName, 0}, Severity::Error});
        // What the script built up to the failing line is shown, but it is not the script's
        // program: a rules change runs the script again rather than analyse half of it.
        if (built.defined() && !outcome.interrupted)
            outcome.analysis =
                std::make_shared<Analysis>(failedAnalysis(built, request.options, *outcome.error));
        return false;
    }
    outcome.program = std::move(built);
    return true;
}
#endif

/// A `.tc` source is built, not run (analysis/TcSource.h); its warnings are its output.
void buildTcSource(const AnalysisRequest& request, AnalysisOutcome& outcome) {
    outcome.program = tcSourceProgram(request.source, request.fileName);
    for (const Diagnostic& warning : outcome.program.tcPrograms.front()->warnings)
        outcome.output += warning.toString() + "\n";
}

bool runScriptOrExplain(const AnalysisRequest& request, script::ScriptRunner* runner,
                        const std::atomic<bool>* cancelled, AnalysisOutcome& outcome) {
    outcome.ranScript = true;
    if (isTcFileName(request.fileName)) {
        buildTcSource(request, outcome);
        return true;
    }
#if BOUNDSCOPE_WITH_PYTHON
    if (runner)
        return runScript(request, *runner, cancelled, outcome);
#else
    (void)runner;
    (void)cancelled;
#endif
    outcome.error = Diagnostic{"this build has no Python front end (configure with "
                               "-DBOUNDSCOPE_WITH_PYTHON=ON to run scripts)",
                               SourceLocation{request.fileName, 0}, Severity::Error};
    return false;
}

} // namespace

AnalysisOutcome runAnalysisRequest(const AnalysisRequest& request, script::ScriptRunner* runner,
                                   const std::atomic<bool>* cancelled) {
    QElapsedTimer timer;
    timer.start();
    AnalysisOutcome outcome;
    // Nothing may escape a worker thread: user errors become the outcome's error, and anything
    // else is reported as an internal error rather than terminating the app.
    try {
        if (request.program) {
            outcome.program = *request.program;
        } else if (!runScriptOrExplain(request, runner, cancelled, outcome)) {
            outcome.elapsedMs = timer.elapsed();
            return outcome;
        }
        // A newer request makes this one's analysis pointless: the engine stops at its next
        // stage or pass (support/Cancellation.h).
        CancellationScope scope(cancelled);
        auto analysis = std::make_shared<Analysis>(analyze(outcome.program, request.options));
        if (analysis->error)
            outcome.error = analysis->error;
        outcome.analysis = std::move(analysis);
    } catch (const Cancelled&) {
        outcome = AnalysisOutcome();
        outcome.interrupted = true;
        outcome.error =
            Diagnostic{"interrupted", SourceLocation{request.fileName, 0}, Severity::Error};
    } catch (const UserError& e) {
        outcome.error = e.diagnostic();
    } catch (const std::exception& e) {
        outcome.error = Diagnostic{std::string("internal error: ") + e.what(), SourceLocation{},
                                   Severity::Error};
    }
    outcome.elapsedMs = timer.elapsed();
    return outcome;
}

AnalysisRunner::AnalysisRunner(QObject* parent) : QObject(parent) {
#if BOUNDSCOPE_WITH_PYTHON
    m_scripts = std::make_shared<script::ScriptRunner>();
#endif
    connect(&m_jobs, &JobRunner::busyChanged, this, &AnalysisRunner::busyChanged);
}

AnalysisRunner::~AnalysisRunner() = default;

void AnalysisRunner::start(AnalysisRequest request) {
    std::function<void()> interrupt;
#if BOUNDSCOPE_WITH_PYTHON
    interrupt = [scripts = m_scripts] { scripts->interrupt(); };
#endif
    const std::string fileName = request.fileName;
    m_jobs.start<AnalysisOutcome>(
        [scripts = m_scripts, request = std::move(request)] {
            return runAnalysisRequest(request, scripts.get(), cancellationFlag());
        },
        [this, fileName](JobOutcome<AnalysisOutcome> outcome) {
            // runAnalysisRequest catches everything itself; no value means the request was
            // stopped before it ran (or no thread could run it).
            if (outcome.value) {
                Q_EMIT finished(*outcome.value);
                return;
            }
            AnalysisOutcome stopped;
            stopped.interrupted = outcome.cancelled;
            stopped.error = Diagnostic{outcome.cancelled ? std::string("interrupted")
                                                         : outcome.error.toStdString(),
                                       SourceLocation{fileName, 0}, Severity::Error};
            Q_EMIT finished(stopped);
        },
        std::move(interrupt));
}

void AnalysisRunner::stop() { m_jobs.cancel(); }

} // namespace bs::gui
