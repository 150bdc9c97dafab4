#include "document/JobRunner.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

#include "document/Mailbox.h"
#include "support/Cancellation.h"
#include "support/DeepStack.h"
#include "support/Diagnostic.h"

namespace bs::gui {

JobRunner::JobRunner(QObject* parent)
    : QObject(parent), m_mailbox(std::make_shared<Mailbox<JobRunner>>(this)) {}

JobRunner::~JobRunner() {
    m_mailbox->close();
    m_waiting.reset();
    stopRunning();
}

void JobRunner::runCatching(const std::function<void()>& body, QString* error, bool* cancelled) {
    try {
        body();
    } catch (const Cancelled&) {
        *cancelled = true;
    } catch (const UserError& e) {
        const Diagnostic& d = e.diagnostic();
        *error = QString::fromStdString(d.message + (d.fix.empty() ? "" : "; fix: " + d.fix));
    } catch (const std::exception& e) {
        *error = QStringLiteral("internal error: %1").arg(QString::fromUtf8(e.what()));
    } catch (...) {
        *error = QStringLiteral("internal error: an unknown exception");
    }
}

void JobRunner::submit(Job job) {
    if (!m_running) {
        launch(std::move(job));
        return;
    }
    // The running job is stale: stop it; this one starts when it ends (a script runs on the one
    // Python thread anyway, and its interrupt must not reach the next job).
    m_waiting = std::move(job);
    m_deliver = false;
    m_deliverInstead = nullptr;
    stopRunning();
}

void JobRunner::cancel() {
    if (m_waiting) {
        m_deliverInstead = std::move(m_waiting->deliverCancelled);
        m_waiting.reset();
    }
    stopRunning();
}

void JobRunner::discard() {
    m_waiting.reset();
    m_deliver = false;
    m_deliverInstead = nullptr;
    stopRunning();
}

void JobRunner::stopRunning() {
    if (!m_running)
        return;
    if (m_cancelled)
        *m_cancelled = true;
    if (m_interrupt)
        m_interrupt();
}

std::function<void(std::function<void()>)> JobRunner::guiThread() const {
    return [mailbox = m_mailbox](std::function<void()> task) {
        mailbox->post([task = std::move(task)](JobRunner*) { task(); });
    };
}

namespace {

/// The calling thread's nice value raised to 10 where it is lower (Linux threads have their
/// own); a failure leaves the thread as it was.
void lowerThisThreadsPriority() {
#ifdef __linux__
    const auto self = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, self);
    if (errno == 0 && nice < 10)
        setpriority(PRIO_PROCESS, self, 10);
#endif
}

} // namespace

void JobRunner::launch(Job job) {
    const quint64 generation = ++m_generation;
    m_cancelled = std::make_shared<std::atomic<bool>>(false);
    m_interrupt = std::move(job.interrupt);
    m_deliver = true;
    setRunning(true);
    try {
        startDeepStackThread([mailbox = m_mailbox, cancelled = m_cancelled,
                              run = std::move(job.run), generation, background = m_background] {
            if (background)
                lowerThisThreadsPriority();
            std::function<void()> deliver;
            {
                CancellationScope scope(cancelled.get());
                deliver = run();
            }
            mailbox->post([generation, deliver = std::move(deliver)](JobRunner* runner) {
                runner->onJobDone(generation, deliver);
            });
        });
    } catch (const std::exception&) {
        // No thread (the system is out of them): the job ends unrun, as cancelled.
        m_interrupt = nullptr;
        m_cancelled.reset();
        m_deliver = false;
        setRunning(false);
        job.deliverCancelled();
    }
}

void JobRunner::onJobDone(quint64 generation, const std::function<void()>& deliver) {
    if (generation != m_generation)
        return;
    m_interrupt = nullptr;
    m_cancelled.reset();
    if (m_waiting) {
        Job next = std::move(*m_waiting);
        m_waiting.reset();
        launch(std::move(next));
        return;
    }
    const bool wanted = m_deliver;
    m_deliver = false;
    const std::function<void()> instead = std::move(m_deliverInstead);
    m_deliverInstead = nullptr;
    // Idle before delivering: the receiver may start the next job from its handler.
    setRunning(false);
    if (instead)
        instead();
    else if (wanted)
        deliver();
}

void JobRunner::setRunning(bool running) {
    if (running == m_running)
        return;
    m_running = running;
    Q_EMIT busyChanged(running);
}

} // namespace bs::gui
