/// \file
/// A dock showing one engine/viz graph of the current Analysis (issue 7, items 1-2): the stage
/// DAG, the IterVar relations of the selected stage, the attach tree with the selected stage's
/// attach path highlighted, or the consumer requests of the selected stage. The model is built
/// on the GUI thread from the Analysis (cheap), then laid out by Graphviz on a worker thread
/// (GraphLayouter); until the layout arrives the previous drawing stays. A model identical to
/// the one shown (same DOT text) is not laid out again. Clicking a node or row selects its
/// stage or IterVar; the shared selection is drawn in the accent colour.
///
/// In the stage DAG, long chains of stages are drawn as one node (viz/CollapseChains.h) that a
/// click expands; a chain holding the selected stage, or the stage the current step is about,
/// is expanded by itself, and Collapse folds them all again.
///
/// The Step-through's current step (issue 13, item 4) is drawn in the step colours over it:
/// what the step touches (models/StepFocus.h), and in the IterVar graph the stage that owns the
/// step's relation (for a pass-up, the consumer's relations) with the set travelling along each
/// of the relation's edges. While the Compare dock shows a diff, what differs between its sides
/// is marked too: a dotted border around changed nodes, changed rows tinted.
#pragma once

#include "analysis/Analysis.h"
#include "models/ChangeMarks.h"
#include "models/StepFocus.h"
#include "views/GraphScene.h"
#include "viz/GraphModel.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <set>

class QLabel;
class QToolButton;

namespace bs::gui {

class GraphLayouter;
class GraphView;
struct LaidOutGraph;

class GraphPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphPanel(viz::GraphKind kind, QWidget* parent = nullptr);

    viz::GraphKind kind() const { return m_kind; }
    GraphScene* scene() const { return m_scene; }
    GraphView* view() const { return m_view; }

    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    /// Shows the shared selection (rebuilding the graphs that depend on the selected stage).
    /// Emits nothing.
    void showSelection(const QString& stage, const QString& iterVar);

    /// Draws what the current step touches (nullopt: no step), over the selection; a focus of
    /// another Analysis than the one shown is ignored. Emits nothing.
    void showStepFocus(std::optional<StepFocus> focus);
    /// Marks the stages and IterVars the Compare dock finds changed (empty: none), in the
    /// graphs of the current analysis. Emits nothing.
    void showChanges(const ChangedObjects& changed);
    /// The stage the graph is about: the IterVar graph's is the step's relation stage while a
    /// step is shown, else the selected stage.
    QString graphStage() const;

    /// The graph drawn now (null while there is none).
    std::shared_ptr<const LaidOutGraph> shownGraph() const;
    /// Whether a layout for the latest model is still running.
    bool isLayingOut() const { return m_waiting; }
    /// The caption above the drawing: the graph's name, or why there is none.
    QString caption() const;
    /// Expands the collapsed chain `id` of the stage DAG (as a click on it does).
    void expandChain(const QString& id);
    /// Collapses every long chain of the stage DAG again (the Collapse button).
    void collapseChains();

    /// Judges drags of this graph's nodes and rows (null, the default: nothing can be dragged);
    /// a drop whose verdict is an action is then requested by dropRequested.
    using DropHandler = std::function<DropVerdict(const GraphDrop&)>;
    void setDropHandler(DropHandler handler);

    /// Writes the graph shown: DOT (`.dot`, the model's DOT text), SVG (`.svg`, rendered by
    /// Graphviz) or PNG (anything else, the drawing at twice its size). Atomic; false with
    /// `errorMessage` set on failure.
    bool exportTo(const QString& path, QString* errorMessage) const;

Q_SIGNALS:
    /// The user clicked the node or row of `stage` (and of its IterVar `iterVar`).
    void objectChosen(const QString& stage, const QString& iterVar);
    /// The layout of the latest model arrived (or failed): the drawing is up to date.
    void graphShown();
    /// The user asked to export this graph (the panel's Export button).
    void exportRequested();
    /// The user right-clicked the node chosen last (objectChosen came first).
    void contextMenuRequested(const QPoint& screenPos);
    /// The user dropped a node or row on another one (setDropHandler judged it an action).
    void dropRequested(const bs::gui::GraphDrop& drop);
    /// While dragging: what dropping at the pointer would do, or why not (empty: nothing).
    void dragFeedback(const QString& text);

private:
    void rebuild();
    void onLaidOut(std::shared_ptr<const LaidOutGraph> graph);
    void onLayoutFailed(const QString& message);
    void showMessage(const QString& message);
    void applySelection();
    bool hasStepFocus() const;
    void updateCaption();
    /// The stage DAG `graph` with its long chains collapsed, but none holding the selected
    /// stage or the one the current step is about (those are expanded from now on).
    viz::Graph collapsedDag(const viz::Graph& graph);
    /// The id of `stage`'s node in the stage DAG (empty when there is none).
    std::string stageNodeId(const QString& stage) const;
    /// `source` dropped on `site` in names; nullopt while the graph drawn is not the latest
    /// analysis's (its objects would be misnamed).
    std::optional<GraphDrop> dropOf(const viz::ObjectRef& source, const DropSite& site) const;

    viz::GraphKind m_kind;
    GraphScene* m_scene;
    GraphView* m_view;
    GraphLayouter* m_layouter;
    QLabel* m_caption;
    std::shared_ptr<const Analysis> m_analysis;
    QString m_stage;
    QString m_iterVar;
    std::optional<StepFocus> m_focus;
    ChangedObjects m_changed;
    /// The DOT text of the model last sent to the layouter (skips identical relayouts).
    std::string m_requestedDot;
    bool m_waiting = false;
    DropHandler m_dropHandler;
    std::set<std::string> m_expandedChains; ///< chain ids drawn whole (stage DAG)
    std::set<std::string> m_hiddenNodes;    ///< node ids the DAG model last built collapses
    QToolButton* m_collapseButton = nullptr;
};

} // namespace bs::gui
