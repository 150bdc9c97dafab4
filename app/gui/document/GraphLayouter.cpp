#include "document/GraphLayouter.h"

#include <QThreadPool>

namespace bs::gui {

std::shared_ptr<const LaidOutGraph> layOutGraph(viz::Graph graph, QString* errorMessage) {
    // Nothing may escape a worker: Graphviz's complaints become the message.
    try {
        auto result = std::make_shared<LaidOutGraph>();
        result->layout = viz::layout(graph);
        result->graph = std::move(graph);
        return result;
    } catch (const std::exception& e) {
        *errorMessage = QString::fromStdString(e.what());
    }
    return nullptr;
}

GraphLayouter::GraphLayouter(QObject* parent)
    : QObject(parent), m_mailbox(std::make_shared<Mailbox<GraphLayouter>>(this)) {}

GraphLayouter::~GraphLayouter() {
    m_mailbox->close();
}

void GraphLayouter::request(viz::Graph graph) {
    if (m_busy) {
        m_pending = std::move(graph);
        return;
    }
    launch(std::move(graph));
}

void GraphLayouter::launch(viz::Graph graph) {
    m_busy = true;
    // The global pool: Qt waits for its tasks when the application ends, and a layout is
    // bounded (graphs of one schedule), unlike a script.
    QThreadPool::globalInstance()->start([mailbox = m_mailbox, graph = std::move(graph)]() mutable {
        QString error;
        std::shared_ptr<const LaidOutGraph> result = layOutGraph(std::move(graph), &error);
        mailbox->post(
            [result, error](GraphLayouter* layouter) { layouter->onDone(result, error); });
    });
}

void GraphLayouter::onDone(std::shared_ptr<const LaidOutGraph> graph, const QString& error) {
    if (m_pending) {
        viz::Graph next = std::move(*m_pending);
        m_pending.reset();
        launch(std::move(next));
        return;
    }
    m_busy = false;
    if (graph)
        Q_EMIT laidOut(std::move(graph));
    else
        Q_EMIT failed(error);
}

} // namespace bs::gui
