// The one runner of the app's background work (issue 17, item 3): only the newest job's outcome
// arrives, a superseded job is cancelled and the next waits for it, errors come back as
// messages, and a cancelled job says so.
#include "GuiTestSupport.h"

#include "document/JobRunner.h"
#include "support/Cancellation.h"
#include "support/Diagnostic.h"

#include <QtTest>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <atomic>
#include <chrono>
#include <thread>

namespace bs::gui::test {

namespace {

constexpr int kJobTimeoutMs = 10000;

/// Spins until the job's cancellation flag is set (as an engine loop checks it), then throws.
int waitUntilCancelled() {
    for (;;) {
        throwIfCancelled();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

} // namespace

class JobRunnerTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deliversTheValueOnTheGuiThread();
    void aNewerJobSupersedesTheRunningOne();
    void aWaitingJobIsReplacedWithoutRunning();
    void errorsComeBackAsMessages();
    void cancelDeliversACancelledOutcome();
    void discardDropsTheOutcome();
    void cancelAfterANewerStartTellsTheNewestHandler();
    void aRunnerDestroyedMidJobDropsItsOutcome();
    void guiThreadRunsTasksOnTheGuiThread();
    void backgroundJobsRunAtALowerPriority();
};

void JobRunnerTest::deliversTheValueOnTheGuiThread() {
    JobRunner jobs;
    QSignalSpy busy(&jobs, &JobRunner::busyChanged);
    std::optional<int> got;
    QThread* deliveredOn = nullptr;
    jobs.start<int>([] { return 6 * 7; },
                    [&](JobOutcome<int> outcome) {
                        got = outcome.value;
                        deliveredOn = QThread::currentThread();
                    });
    QVERIFY(jobs.isBusy());
    QVERIFY(QTest::qWaitFor([&] { return got.has_value(); }, kJobTimeoutMs));
    QCOMPARE(*got, 42);
    QCOMPARE(deliveredOn, QCoreApplication::instance()->thread());
    QVERIFY(!jobs.isBusy());
    QCOMPARE(busy.count(), 2); // busy, then idle
}

void JobRunnerTest::aNewerJobSupersedesTheRunningOne() {
    JobRunner jobs;
    std::atomic<bool> firstStarted{false};
    std::atomic<bool> secondStartedEarly{false};
    std::atomic<bool> firstEnded{false};
    int interrupts = 0;
    QList<int> delivered;
    jobs.start<int>(
        [&] {
            firstStarted = true;
            struct Ended {
                std::atomic<bool>& flag;
                ~Ended() { flag = true; }
            } ended{firstEnded};
            return waitUntilCancelled();
        },
        [&](JobOutcome<int>) { delivered << 1; }, [&] { ++interrupts; });
    QVERIFY(QTest::qWaitFor([&] { return firstStarted.load(); }, kJobTimeoutMs));
    jobs.start<int>(
        [&] {
            secondStartedEarly = !firstEnded;
            return 2;
        },
        [&](JobOutcome<int> outcome) { delivered << *outcome.value; });
    QCOMPARE(interrupts, 1); // the running job's hook, besides its flag
    QVERIFY(QTest::qWaitFor([&] { return !jobs.isBusy(); }, kJobTimeoutMs));
    QCOMPARE(delivered, QList<int>{2});
    QVERIFY(!secondStartedEarly); // one job at a time
}

void JobRunnerTest::aWaitingJobIsReplacedWithoutRunning() {
    JobRunner jobs;
    std::atomic<bool> release{false};
    std::atomic<int> ran{0};
    QList<int> delivered;
    jobs.start<int>(
        [&] {
            while (!release)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 1;
        },
        [&](JobOutcome<int>) { delivered << 1; });
    for (int job = 2; job <= 4; ++job)
        jobs.start<int>(
            [&ran, job] {
                ++ran;
                return job;
            },
            [&](JobOutcome<int> outcome) { delivered << *outcome.value; });
    release = true;
    QVERIFY(QTest::qWaitFor([&] { return !jobs.isBusy(); }, kJobTimeoutMs));
    QCOMPARE(delivered, QList<int>{4});
    QCOMPARE(ran.load(), 1);
}

void JobRunnerTest::errorsComeBackAsMessages() {
    JobRunner jobs;
    std::optional<JobOutcome<int>> got;
    jobs.start<int>([]() -> int { throw UserError("split of 'i': factor must be positive"); },
                    [&](JobOutcome<int> outcome) { got = std::move(outcome); });
    QVERIFY(QTest::qWaitFor([&] { return got.has_value(); }, kJobTimeoutMs));
    QVERIFY(!got->ok() && !got->cancelled);
    QCOMPARE(got->error, QStringLiteral("split of 'i': factor must be positive"));
    got.reset();
    jobs.start<int>([]() -> int { throw std::logic_error("broken invariant"); },
                    [&](JobOutcome<int> outcome) { got = std::move(outcome); });
    QVERIFY(QTest::qWaitFor([&] { return got.has_value(); }, kJobTimeoutMs));
    QCOMPARE(got->error, QStringLiteral("internal error: broken invariant"));
}

void JobRunnerTest::cancelDeliversACancelledOutcome() {
    JobRunner jobs;
    std::atomic<bool> started{false};
    std::optional<JobOutcome<int>> got;
    jobs.start<int>(
        [&] {
            started = true;
            return waitUntilCancelled();
        },
        [&](JobOutcome<int> outcome) { got = std::move(outcome); });
    QVERIFY(QTest::qWaitFor([&] { return started.load(); }, kJobTimeoutMs));
    jobs.cancel();
    QVERIFY(QTest::qWaitFor([&] { return got.has_value(); }, kJobTimeoutMs));
    QVERIFY(got->cancelled && !got->ok() && got->error.isEmpty());
}

void JobRunnerTest::discardDropsTheOutcome() {
    JobRunner jobs;
    bool delivered = false;
    jobs.start<int>([] { return 1; }, [&](JobOutcome<int>) { delivered = true; });
    jobs.discard();
    QVERIFY(QTest::qWaitFor([&] { return !jobs.isBusy(); }, kJobTimeoutMs));
    QVERIFY(!delivered);
    // The runner is ready for the next job.
    jobs.start<int>([] { return 2; }, [&](JobOutcome<int>) { delivered = true; });
    QVERIFY(QTest::qWaitFor([&] { return delivered; }, kJobTimeoutMs));
}

BS_GUI_TEST_SUITE(JobRunnerTest);

void JobRunnerTest::cancelAfterANewerStartTellsTheNewestHandler() {
    // As Stop after typing: the newest request never ran, but its handler hears it was stopped.
    JobRunner jobs;
    std::atomic<bool> started{false};
    QList<QString> heard;
    jobs.start<int>(
        [&] {
            started = true;
            return waitUntilCancelled();
        },
        [&](JobOutcome<int>) { heard << QStringLiteral("first"); });
    QVERIFY(QTest::qWaitFor([&] { return started.load(); }, kJobTimeoutMs));
    bool secondRan = false;
    jobs.start<int>(
        [&] {
            secondRan = true;
            return 2;
        },
        [&](JobOutcome<int> outcome) {
            heard << (outcome.cancelled ? QStringLiteral("second cancelled")
                                        : QStringLiteral("second"));
        });
    jobs.cancel();
    QVERIFY(QTest::qWaitFor([&] { return !jobs.isBusy(); }, kJobTimeoutMs));
    QCOMPARE(heard, QList<QString>{QStringLiteral("second cancelled")});
    QVERIFY(!secondRan);
}

void JobRunnerTest::aRunnerDestroyedMidJobDropsItsOutcome() {
    std::atomic<bool> ended{false};
    bool delivered = false;
    {
        JobRunner jobs;
        jobs.start<int>(
            [&ended] {
                struct End {
                    std::atomic<bool>& flag;
                    ~End() { flag = true; }
                } end{ended};
                return waitUntilCancelled(); // the destructor cancels it
            },
            [&](JobOutcome<int>) { delivered = true; });
    }
    QVERIFY(QTest::qWaitFor([&] { return ended.load(); }, kJobTimeoutMs));
    QTest::qWait(50); // a late post would arrive now
    QVERIFY(!delivered);
}

void JobRunnerTest::guiThreadRunsTasksOnTheGuiThread() {
    JobRunner jobs;
    QList<int> progress;
    QThread* ranOn = nullptr;
    bool done = false;
    jobs.start<int>(
        [toGui = jobs.guiThread(), &progress, &ranOn] {
            for (int step = 1; step <= 3; ++step)
                toGui([&progress, &ranOn, step] {
                    progress << step;
                    ranOn = QThread::currentThread();
                });
            return 0;
        },
        [&](JobOutcome<int>) { done = true; });
    QVERIFY(QTest::qWaitFor([&] { return done && progress.size() == 3; }, kJobTimeoutMs));
    QCOMPARE(progress, (QList<int>{1, 2, 3}));
    QCOMPARE(ranOn, QCoreApplication::instance()->thread());
}

void JobRunnerTest::backgroundJobsRunAtALowerPriority() {
#ifdef __linux__
    // The nice value of the worker thread itself (Linux threads have their own), as the job sees
    // it; a foreground runner's worker keeps the app's.
    auto niceOfWorker = [](bool background) {
        JobRunner jobs;
        jobs.setBackground(background);
        std::optional<int> got;
        jobs.start<int>(
            [] { return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))); },
            [&](JobOutcome<int> outcome) { got = outcome.value; });
        return QTest::qWaitFor([&] { return got.has_value(); }, kJobTimeoutMs) ? *got : -100;
    };
    const int app = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
    QCOMPARE(niceOfWorker(false), app);
    QCOMPARE(niceOfWorker(true), std::max(app, 10));
#else
    QSKIP("thread priorities are set on Linux only");
#endif
}

} // namespace bs::gui::test

#include "JobRunnerTest.moc"
