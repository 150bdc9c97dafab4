/// \file
/// Runs the current script and analyses its program off the GUI thread (DESIGN.md: "Python runs
/// on one thread of its own; the GUI never holds Python objects, only the engine's results").
/// One request is in flight at a time (a JobRunner): its job hands the script to the
/// ScriptRunner (which runs it on the Python thread), reads the program the script defined from
/// the ProgramRecorder on that same thread, then calls `bs::analyze()` itself. A newer request
/// supersedes the running one: its script is interrupted, its analysis stops at the next stage
/// or pass, and its outcome is dropped, so the views only ever see the latest text.
#pragma once

#include "analysis/Analysis.h"
#include "document/JobRunner.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace bs::script {
class ScriptRunner;
}

namespace bs::gui {

/// What to analyse: a script's text, or a program built in C++ (tests, and rules changes that
/// re-analyse the program the unchanged script already produced).
struct AnalysisRequest {
    std::string source;
    std::string fileName; ///< the name diagnostics and the recorded locations use
    AnalysisOptions options;
    /// When set, this program is analysed and no script runs.
    std::optional<Program> program;
};

/// The result of one request, handed back to the GUI thread.
struct AnalysisOutcome {
    /// The Analysis of the program; null when the script failed before creating a schedule.
    /// When the script failed after, the analysis of what it built up to the failing line
    /// (failedAnalysis: nothing lowered, `error` says what failed).
    std::shared_ptr<const Analysis> analysis;
    /// The program the script defined (undefined when it created no schedule or failed).
    Program program;
    /// True when the request ran the script (false for a given program).
    bool ranScript = false;
    /// The problem to show: the script's diagnostic or the analysis error.
    std::optional<Diagnostic> error;
    bool interrupted = false;
    /// What the script wrote to stdout and stderr.
    std::string output;
    qint64 elapsedMs = 0;

    bool ok() const { return analysis && analysis->ok() && !error; }
};

/// Runs one request to completion on the calling thread (never throws). Public for tests of
/// the pipeline without threads; `runner` may be null when no script is to run. Setting
/// `*cancelled` (any thread) before or while the script runs makes it stop as interrupted.
AnalysisOutcome runAnalysisRequest(const AnalysisRequest& request, script::ScriptRunner* runner,
                                   const std::atomic<bool>* cancelled = nullptr);

class AnalysisRunner : public QObject {
    Q_OBJECT
public:
    explicit AnalysisRunner(QObject* parent = nullptr);
    /// Does not wait for a running script: it is interrupted and its outcome discarded.
    ~AnalysisRunner() override;

    /// Starts `request`, superseding the one in flight (interrupted, outcome dropped).
    void start(AnalysisRequest request);
    /// Interrupts the running script and forgets a queued request; the running one's outcome
    /// arrives as an interrupted error.
    void stop();
    bool isBusy() const { return m_jobs.isBusy(); }

Q_SIGNALS:
    /// The outcome of the latest request (never of a superseded one).
    void finished(const bs::gui::AnalysisOutcome& outcome);
    void busyChanged(bool busy);

private:
    std::shared_ptr<script::ScriptRunner> m_scripts;
    JobRunner m_jobs;
};

} // namespace bs::gui
