/// \file
/// A worker thread's way back to a QObject on the GUI thread that may be destroyed before the
/// worker ends (AnalysisRunner, GraphLayouter). The receiver closes the mailbox in its
/// destructor; a worker that posts afterwards finds no receiver and drops its result. Posting
/// under the mutex means the receiver cannot die between the check and the post, and Qt
/// discards events posted to an object that is destroyed before they are delivered.
#pragma once

#include <QMetaObject>

#include <mutex>
#include <utility>

namespace bs::gui {

template <class Receiver> class Mailbox {
public:
    explicit Mailbox(Receiver* receiver) : m_receiver(receiver) {}

    /// Called by the receiver's destructor: later posts are dropped.
    void close() {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_receiver = nullptr;
    }

    /// Calls `deliver(receiver)` on the receiver's thread, unless the mailbox is closed.
    template <class Deliver> void post(Deliver deliver) {
        std::lock_guard<std::mutex> lock(m_mutex);
        Receiver* receiver = m_receiver;
        if (!receiver)
            return;
        QMetaObject::invokeMethod(
            receiver, [receiver, deliver = std::move(deliver)] { deliver(receiver); },
            Qt::QueuedConnection);
    }

private:
    std::mutex m_mutex;
    Receiver* m_receiver; ///< guarded by `m_mutex`
};

} // namespace bs::gui
