#include "document/GraphLayouter.h"

namespace bs::gui {

std::shared_ptr<const LaidOutGraph> layOutGraph(viz::Graph graph) {
    auto result = std::make_shared<LaidOutGraph>();
    result->layout = viz::layout(graph);
    result->graph = std::move(graph);
    return result;
}

GraphLayouter::GraphLayouter(QObject* parent) : QObject(parent) {}

GraphLayouter::~GraphLayouter() = default;

void GraphLayouter::request(viz::Graph graph) {
    // A layout is bounded (the graphs of one schedule) and has no cancellation point: a newer
    // request waits for it and replaces any request still waiting.
    m_jobs.start<std::shared_ptr<const LaidOutGraph>>(
        [graph = std::move(graph)]() mutable { return layOutGraph(std::move(graph)); },
        [this](JobOutcome<std::shared_ptr<const LaidOutGraph>> outcome) {
            if (outcome.value)
                Q_EMIT laidOut(std::move(*outcome.value));
            else
                Q_EMIT failed(outcome.error);
        });
}

} // namespace bs::gui
