#include "models/GraphModels.h"

#include "models/EngineText.h"
#include "models/StageQueries.h"

namespace bs::gui {

namespace {

int stageIndexOf(const Schedule& schedule, const QString& name) {
    const std::vector<Stage>& stages = schedule.stages();
    for (size_t s = 0; s < stages.size(); ++s) {
        if (qstr(stages[s].name()) == name)
            return int(s);
    }
    return -1;
}

} // namespace

viz::GraphInput graphInputOf(const Analysis& analysis) {
    viz::GraphInput input;
    input.schedule = scheduleShown(analysis);
    if (analysis.lowered) {
        input.bounds = &analysis.lowered->bounds.bounds;
        input.trace = &analysis.lowered->bounds.trace;
    }
    // A failed schedule is drawn as written, with what failed marked.
    if (analysis.error)
        input.problem = analysis.error->subject;
    return input;
}

viz::ObjectRef objectRefOf(const Analysis& analysis, const QString& stage, const QString& iterVar) {
    viz::ObjectRef ref;
    const Schedule& schedule = scheduleShown(analysis);
    if (!schedule.defined() || (ref.stage = stageIndexOf(schedule, stage)) < 0 || iterVar.isEmpty())
        return ref;
    const std::vector<IterVar>& all = schedule.stages()[ref.stage]->allIterVars;
    for (size_t i = 0; i < all.size(); ++i) {
        if (qstr(all[i]->var.name()) == iterVar)
            ref.iterVar = int(i);
    }
    return ref;
}

ObjectNames objectNamesOf(const Analysis& analysis, const viz::ObjectRef& ref) {
    ObjectNames names;
    const Schedule& schedule = scheduleShown(analysis);
    if (!schedule.defined() || ref.stage < 0 || ref.stage >= int(schedule.stages().size()))
        return names;
    const Stage& stage = schedule.stages()[ref.stage];
    names.stage = qstr(stage.name());
    if (ref.iterVar >= 0 && ref.iterVar < int(stage->allIterVars.size()))
        names.iterVar = qstr(stage->allIterVars[ref.iterVar]->var.name());
    return names;
}

std::optional<viz::Graph> buildGraphOf(const Analysis& analysis, viz::GraphKind kind,
                                       const QString& stageName, QString* message) {
    const viz::GraphInput input = graphInputOf(analysis);
    if (!input.schedule.defined()) {
        *message = analysis.error ? failureNote(analysis) : QStringLiteral("no analysis yet");
        return std::nullopt;
    }
    const int index = stageIndexOf(input.schedule, stageName);
    const Stage stage = index >= 0 ? input.schedule.stages()[index] : Stage();
    if (kind == viz::GraphKind::ConsumerRequests && !analysis.lowered) {
        *message = failureNote(analysis) + QStringLiteral("\nInferBound did not run, so no "
                                                          "consumer requested anything.");
        return std::nullopt;
    }
    if (kind == viz::GraphKind::ConsumerRequests && !stage.defined()) {
        *message = QStringLiteral("Select a stage to see what its consumers request of it.");
        return std::nullopt;
    }
    // The builders report a stage they cannot draw (no trace for it) as a user error.
    try {
        switch (kind) {
        case viz::GraphKind::StageDag:
            return viz::stageDag(input);
        case viz::GraphKind::IterVarRelations:
            return viz::iterVarGraph(input, stage);
        case viz::GraphKind::AttachTree:
            return viz::attachTree(input, stage);
        case viz::GraphKind::ConsumerRequests:
            return viz::consumerRequests(input, stage);
        }
    } catch (const UserError& e) {
        *message = QString::fromStdString(e.diagnostic().message);
    } catch (const std::exception& e) {
        *message = QString::fromStdString(e.what());
    }
    return std::nullopt;
}

QString iterVarOfLoop(const Analysis& analysis, const QString& stageName, const QString& loopVar) {
    const Schedule& schedule = scheduleShown(analysis);
    const int index = schedule.defined() ? stageIndexOf(schedule, stageName) : -1;
    if (index < 0 || loopVar.isEmpty())
        return QString();
    const Stage& stage = schedule.stages()[index];
    for (const IterVar& iv : stage->allIterVars) {
        if (qstr(iv->var.name()) == loopVar)
            return loopVar;
    }
    for (const IterVar& iv : stage->leafIterVars) {
        const IterVarAttr* attr = stage.attrOf(iv);
        if (attr && attr->bindThread.defined() && qstr(attr->bindThread->threadTag) == loopVar)
            return qstr(iv->var.name());
    }
    return QString();
}

QString graphKindTitle(viz::GraphKind kind) {
    switch (kind) {
    case viz::GraphKind::StageDag:
        return QStringLiteral("Stage DAG");
    case viz::GraphKind::IterVarRelations:
        return QStringLiteral("IterVar Relations");
    case viz::GraphKind::AttachTree:
        return QStringLiteral("Attach Tree");
    case viz::GraphKind::ConsumerRequests:
        break;
    }
    return QStringLiteral("Consumer Requests");
}

} // namespace bs::gui
