/// \file
/// Lays out graph models with Graphviz off the GUI thread (issue 7: "graphs are laid out by
/// Graphviz in a worker thread ... layout never blocks typing"). viz::layout() holds the one
/// Graphviz mutex itself (viz/Layout.h), so several layouters may run at once. The worker gets
/// only the plain-data viz::Graph, never an engine handle. Its JobRunner delivers only the newest
/// request's layout; one that has not started is replaced.
#pragma once

#include "document/JobRunner.h"
#include "viz/Layout.h"

#include <QObject>
#include <QString>

#include <memory>

namespace bs::gui {

/// A graph model and where Graphviz put its nodes and edges.
struct LaidOutGraph {
    viz::Graph graph;
    viz::GraphLayout layout;
};

/// Lays out `graph` on the calling thread; throws a UserError when Graphviz rejects it.
std::shared_ptr<const LaidOutGraph> layOutGraph(viz::Graph graph);

class GraphLayouter : public QObject {
    Q_OBJECT
public:
    explicit GraphLayouter(QObject* parent = nullptr);
    ~GraphLayouter() override;

    /// Lays out `graph` in the background; a request still waiting is replaced.
    void request(viz::Graph graph);
    bool isBusy() const { return m_jobs.isBusy(); }

Q_SIGNALS:
    /// The layout of the newest request.
    void laidOut(std::shared_ptr<const bs::gui::LaidOutGraph> graph);
    /// Graphviz rejected the newest request (or is not built in).
    void failed(const QString& message);

private:
    JobRunner m_jobs;
};

} // namespace bs::gui
