/// \file
/// The app's one way to do engine work off the GUI thread (issue 17, item 3): the analysis, graph
/// layout, code generation, the allocation report, runs and the checks of schedule edits all go
/// through a JobRunner; no panel starts a thread of its own. A runner keeps one job in flight.
/// Starting another supersedes it: the running job is cancelled (its CancellationScope flag is
/// set and its interrupt hook called, support/Cancellation.h), the new job waits until it ends,
/// a job still waiting is replaced without running, and only the newest job's outcome is
/// delivered, on the GUI thread. cancel() stops the running job and still delivers its outcome,
/// marked cancelled. Nothing thrown by a job escapes: user errors and internal errors come back
/// as the outcome's message.
///
/// Workers are detached threads with a deep stack (support/DeepStack.h): a script that ignores
/// interrupts must never make the app wait on exit, and the engine recurses through deep
/// expressions. A runner that is destroyed drops the outcomes still to come.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace bs::gui {

template <class Receiver> class Mailbox;

/// How a job ended: its value, or why there is none.
template <class Result> struct JobOutcome {
    std::optional<Result> value; ///< set unless the job threw
    QString error;               ///< a UserError's message, or "internal error: ..."
    bool cancelled = false; ///< the job stopped at a cancellation point (support/Cancellation.h)

    bool ok() const { return value.has_value(); }
};

class JobRunner : public QObject {
    Q_OBJECT
public:
    explicit JobRunner(QObject* parent = nullptr);
    /// Cancels the running job without waiting for it; outcomes still to come are dropped.
    ~JobRunner() override;

    /// Runs `work` on a worker thread under a CancellationScope of the job's own flag, then
    /// `deliver` on the GUI thread with its outcome, unless a newer job was started meanwhile.
    /// `interrupt`, when given, is called on the GUI thread when the job is cancelled or
    /// superseded while it runs (to stop what the flag cannot reach, such as a Python script).
    template <class Result>
    void start(std::function<Result()> work, std::function<void(JobOutcome<Result>)> deliver,
               std::function<void()> interrupt = {});

    /// Cancels the running job and forgets a waiting one. The newest job's handler still hears
    /// of it: the running job's outcome (cancelled, or not if it ended anyway), or a cancelled
    /// outcome for the waiting job, once the running one has ended.
    void cancel();
    /// Forgets the running and the waiting job: neither outcome will be delivered.
    void discard();
    /// A job is running or waiting.
    bool isBusy() const { return m_running; }
    /// Runs this runner's jobs at a lower CPU priority (nice 10 on Linux; nothing elsewhere): for
    /// the views read after the graphs (generated code, the loop nest, allocations, heatmap), so
    /// that on a machine with few cores they do not delay the analysis and layouts of an edit.
    void setBackground(bool background) { m_background = background; }
    /// A function a worker may call to run `task` on the GUI thread, while this runner lives
    /// (progress reports).
    std::function<void(std::function<void()>)> guiThread() const;

Q_SIGNALS:
    void busyChanged(bool busy);

private:
    /// A type-erased job: `run` works on the worker and returns what to do on the GUI thread.
    struct Job {
        std::function<std::function<void()>()> run;
        std::function<void()> interrupt;
        std::function<void()> deliverCancelled; ///< its handler, told it was cancelled unrun
    };
    /// What a failed job reports: fills `error`/`cancelled` from the exception `body` threw.
    static void runCatching(const std::function<void()>& body, QString* error, bool* cancelled);

    void submit(Job job);
    void launch(Job job);
    void onJobDone(quint64 generation, const std::function<void()>& deliver);
    void stopRunning();
    void setRunning(bool running);

    std::shared_ptr<Mailbox<JobRunner>> m_mailbox;
    std::shared_ptr<std::atomic<bool>> m_cancelled; ///< the running job's flag
    std::function<void()> m_interrupt;              ///< the running job's hook
    std::optional<Job> m_waiting;
    quint64 m_generation = 0; ///< of the running job
    /// The running job's outcome is wanted (false after a newer start or discard()).
    bool m_deliver = false;
    /// What to deliver instead when the running job ends: a waiting job's cancellation.
    std::function<void()> m_deliverInstead;
    bool m_running = false;
    bool m_background = false;
};

template <class Result>
void JobRunner::start(std::function<Result()> work, std::function<void(JobOutcome<Result>)> deliver,
                      std::function<void()> interrupt) {
    Job job;
    job.interrupt = std::move(interrupt);
    job.deliverCancelled = [deliver] {
        JobOutcome<Result> outcome;
        outcome.cancelled = true;
        deliver(std::move(outcome));
    };
    job.run = [work = std::move(work), deliver = std::move(deliver)]() -> std::function<void()> {
        auto outcome = std::make_shared<JobOutcome<Result>>();
        runCatching([&] { outcome->value.emplace(work()); }, &outcome->error, &outcome->cancelled);
        return [deliver, outcome] { deliver(std::move(*outcome)); };
    };
    submit(std::move(job));
}

} // namespace bs::gui
