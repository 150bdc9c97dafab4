#include "models/StepFocus.h"

#include "models/EngineText.h"
#include "models/GraphModels.h"
#include "models/StageQueries.h"
#include "models/StepOutline.h"
#include "models/StepText.h"

namespace bs::gui {

namespace {

/// The phases about one consumer's request (InferRootBound phases 1-3).
bool isConsumerPhase(StepPhase phase) {
    switch (phase) {
    case StepPhase::Consumer:
    case StepPhase::LeafSet:
    case StepPhase::Relax:
    case StepPhase::PassUp:
    case StepPhase::RootSet:
    case StepPhase::Request:
        return true;
    default:
        return false;
    }
}

/// The phases that set the range of one of the stage's own IterVars.
bool selectsIterVar(StepPhase phase) {
    switch (phase) {
    case StepPhase::Normalize:
    case StepPhase::Union:
    case StepPhase::PassDown:
    case StepPhase::Tight:
        return true;
    default:
        return false;
    }
}

int relationIndex(const Stage& stage, const IterVarRelation& relation) {
    for (size_t r = 0; r < stage->relations.size(); ++r) {
        if (stage->relations[r].same_as(relation))
            return int(r);
    }
    return -1;
}

QString nameOf(const IterVar& iv) { return qstr(iv->var.name()); }

/// The values of `owner`'s IterVars among `values` (later ones replace earlier ones: a leaf
/// set's output replaces the range it started from).
void addValues(StepFocus& focus, const Stage& owner, const std::vector<StepValue>& values) {
    for (const StepValue& value : values) {
        if (value.iv.defined() && owner.hasIterVar(value.iv))
            focus.iterVarValues.insert(nameOf(value.iv), stepValueText(value));
    }
}

void describeIterVars(StepFocus& focus, const BoundStep& step, const Stage& owner) {
    if (step.relation.defined())
        focus.relation = relationIndex(owner, step.relation);
    for (const IterVar& iv : step.iterVars) {
        if (owner.hasIterVar(iv) && !focus.iterVarValues.contains(nameOf(iv)))
            focus.iterVarValues.insert(nameOf(iv), QString());
    }
    addValues(focus, owner, step.inputs);
    addValues(focus, owner, step.outputs);
}

int stageIndex(const Analysis& analysis, const QString& stage) {
    return stage.isEmpty() ? -1 : objectRefOf(analysis, stage).stage;
}

/// Stage nodes (DAG, attach tree) of the step's stage and consumer, and in the DAG the edge
/// along which the consumer reads the stage.
void markStages(const Analysis& analysis, const StepFocus& focus, const viz::Graph& graph,
                StepMarks& marks) {
    const int stage = stageIndex(analysis, focus.stage);
    const int consumer = stageIndex(analysis, focus.consumer);
    QString stageNode;
    QString consumerNode;
    for (const viz::GraphNode& node : graph.nodes) {
        if (node.kind != viz::GraphNodeKind::Stage || node.ref.stage < 0)
            continue;
        const QString id = QString::fromStdString(node.id);
        if (node.ref.stage == stage)
            stageNode = id;
        else if (node.ref.stage == consumer)
            consumerNode = id;
        else
            continue;
        marks.nodes.insert(id);
    }
    if (graph.kind != viz::GraphKind::StageDag || stageNode.isEmpty() || consumerNode.isEmpty())
        return;
    for (const viz::GraphEdge& edge : graph.edges) {
        if (QString::fromStdString(edge.from) == stageNode &&
            QString::fromStdString(edge.to) == consumerNode)
            marks.edges.insert(QString::fromStdString(edge.id));
    }
}

/// The relation node and its edges, each labelled with the value of its IterVar, and the
/// IterVars the step sets (with their value beside them when no relation carries it).
void markRelation(const Analysis& analysis, const StepFocus& focus, const viz::Graph& graph,
                  StepMarks& marks) {
    const int stage = stageIndex(analysis, focus.relationStage);
    if (stage < 0)
        return;
    QString relationNode;
    QHash<QString, QString> titles; // node id -> title
    for (const viz::GraphNode& node : graph.nodes) {
        const QString id = QString::fromStdString(node.id);
        titles.insert(id, QString::fromStdString(node.title));
        if (node.ref.stage != stage)
            continue;
        if (node.kind == viz::GraphNodeKind::Relation && focus.relation >= 0 &&
            node.ref.relation == focus.relation) {
            relationNode = id;
            marks.nodes.insert(id);
        }
        if (node.kind == viz::GraphNodeKind::IterVar &&
            focus.iterVarValues.contains(QString::fromStdString(node.title)))
            marks.nodes.insert(id);
    }
    for (const viz::GraphEdge& edge : graph.edges) {
        const QString from = QString::fromStdString(edge.from);
        const QString to = QString::fromStdString(edge.to);
        if (relationNode.isEmpty() || (from != relationNode && to != relationNode))
            continue;
        const QString id = QString::fromStdString(edge.id);
        marks.edges.insert(id);
        const QString value =
            focus.iterVarValues.value(titles.value(from == relationNode ? to : from));
        if (!value.isEmpty())
            marks.edgeLabels.insert(id, value);
    }
    if (!relationNode.isEmpty())
        return;
    for (const QString& id : std::as_const(marks.nodes)) {
        const QString value = focus.iterVarValues.value(titles.value(id));
        if (!value.isEmpty())
            marks.nodeLabels.insert(id, value);
    }
}

/// Marks the rows of `node` whose first cell is one of `texts`, and the edges leaving
/// (`outgoing`) or entering the ports of those rows.
void markRows(const viz::Graph& graph, const viz::GraphNode& node, const QStringList& texts,
              bool outgoing, StepMarks& marks) {
    const QString id = QString::fromStdString(node.id);
    QSet<std::string> ports;
    for (size_t r = 0; r < node.rows.size(); ++r) {
        const viz::LabelRow& row = node.rows[r];
        if (row.cells.empty() || !texts.contains(QString::fromStdString(row.cells.front().text)))
            continue;
        marks.rows[id].insert(int(r));
        for (const viz::LabelCell& cell : row.cells) {
            if (!cell.port.empty())
                ports.insert(cell.port);
        }
    }
    marks.nodes.insert(id);
    for (const viz::GraphEdge& edge : graph.edges) {
        const bool leaves = outgoing && edge.from == node.id && ports.contains(edge.fromPort);
        const bool enters = !outgoing && edge.to == node.id && ports.contains(edge.toPort);
        if (leaves || enters)
            marks.edges.insert(QString::fromStdString(edge.id));
    }
}

/// The rows of a consumer's note about the IterVars the step sets (phase 1 and 2 steps).
void markNoteRows(const Analysis& analysis, const StepFocus& focus, const viz::GraphNode& node,
                  StepMarks& marks) {
    const QString id = QString::fromStdString(node.id);
    marks.nodes.insert(id);
    for (size_t r = 0; r < node.rows.size(); ++r) {
        const ObjectNames names = objectNamesOf(analysis, node.rows[r].ref);
        if (names.stage == focus.relationStage && focus.iterVarValues.contains(names.iterVar))
            marks.rows[id].insert(int(r));
    }
}

/// The requests graph of the step's stage: the consumer's request row (phase 3), its note
/// (phases 1-2), the union's rows (phase 4).
void markRequests(const Analysis& analysis, const StepFocus& focus, const viz::Graph& graph,
                  StepMarks& marks) {
    const int stage = stageIndex(analysis, focus.stage);
    const int consumer = stageIndex(analysis, focus.consumer);
    const viz::GraphNode* producer = graph.findNode("producer");
    if (stage < 0 || !producer || producer->ref.stage != stage)
        return;
    for (const viz::GraphNode& node : graph.nodes) {
        const bool ofConsumer = consumer >= 0 && node.ref.stage == consumer;
        if (node.kind == viz::GraphNodeKind::Consumer && ofConsumer) {
            if (focus.phase == StepPhase::Request)
                markRows(graph, node, {focus.request}, /*outgoing=*/true, marks);
            else
                marks.nodes.insert(QString::fromStdString(node.id));
        }
        if (node.kind == viz::GraphNodeKind::Note && ofConsumer &&
            focus.phase != StepPhase::Request)
            markNoteRows(analysis, focus, node, marks);
        if (node.kind == viz::GraphNodeKind::Bounds && focus.phase == StepPhase::Union)
            markRows(graph, node, focus.unionAxes, /*outgoing=*/false, marks);
    }
}

} // namespace

StepFocus stepFocusOf(const Analysis& analysis, int id) {
    const BoundSteps* steps = stepsOf(analysis);
    if (!steps || id < 0 || id >= int(steps->size()))
        return StepFocus();
    const BoundStep& step = steps->at(id);
    StepFocus focus;
    focus.analysis = &analysis;
    focus.step = id;
    focus.phase = step.phase;
    focus.stage = stageNameOf(analysis, step.stage);
    if (isConsumerPhase(step.phase))
        focus.consumer = stageNameOf(analysis, step.consumer);
    focus.relationStage = focus.consumer.isEmpty() ? focus.stage : focus.consumer;
    focus.line = step.location.line;
    const Stage owner = findStageByName(scheduleShown(analysis), focus.relationStage);
    if (owner.defined())
        describeIterVars(focus, step, owner);
    const Stage stage = findStageByName(scheduleShown(analysis), focus.stage);
    for (const IterVar& iv : step.iterVars) {
        if (selectsIterVar(step.phase) && stage.defined() && stage.hasIterVar(iv)) {
            focus.iterVar = nameOf(iv);
            break;
        }
    }
    if (step.phase == StepPhase::Request && step.tensor.defined())
        focus.request = QStringLiteral("%1[%2]").arg(qstr(step.tensor.name())).arg(step.axis);
    if (step.phase == StepPhase::Union) {
        for (const IterVar& iv : step.iterVars)
            focus.unionAxes << nameOf(iv);
    }
    return focus;
}

StepMarks stepMarksOf(const Analysis& analysis, const StepFocus& focus, const viz::Graph& graph) {
    StepMarks marks;
    if (!focus.isOf(&analysis))
        return marks;
    switch (graph.kind) {
    case viz::GraphKind::StageDag:
    case viz::GraphKind::AttachTree:
        markStages(analysis, focus, graph, marks);
        break;
    case viz::GraphKind::IterVarRelations:
        markRelation(analysis, focus, graph, marks);
        break;
    case viz::GraphKind::ConsumerRequests:
        markRequests(analysis, focus, graph, marks);
        break;
    }
    return marks;
}

} // namespace bs::gui
