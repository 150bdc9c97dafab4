#include "models/StageQueries.h"

#include "analysis/ScheduleFixes.h"
#include "models/EngineText.h"

namespace bs::gui {

namespace {

/// The stage of `schedule` that owns `iv`, or an undefined Stage.
Stage ownerOf(const Schedule& schedule, const IterVar& iv) {
    if (!schedule.defined())
        return Stage();
    for (const Stage& stage : schedule.stages()) {
        if (stage.hasIterVar(iv))
            return stage;
    }
    return Stage();
}

/// An attach path, innermost first, its loops grouped by the stage that owns them:
/// `C: j.inner → j.outer → i`, or `D: dj → di → E: ej → ei` for a chained attachment.
QString attachPathText(const Analysis& analysis, const AttachPath& path) {
    QStringList parts;
    const StageNode* current = nullptr;
    for (const IterVar& iv : path) {
        const Stage owner = ownerOf(normalizedSchedule(analysis), iv);
        QString part = iterVarLabel(analysis, iv);
        if (owner.defined() && owner.get() != current)
            part = qstr(owner.name()) + QStringLiteral(": ") + part;
        current = owner.get();
        parts << part;
    }
    return parts.join(QStringLiteral(" → "));
}

QString kindText(StageTrace::Kind kind) {
    switch (kind) {
    case StageTrace::Kind::Output:
        return QStringLiteral("output");
    case StageTrace::Kind::Placeholder:
        return QStringLiteral("placeholder");
    case StageTrace::Kind::InlinedAlready:
        return QStringLiteral("inlined");
    case StageTrace::Kind::Computed:
        return QStringLiteral("computed");
    }
    return QString();
}

QString attachPointText(const Stage& stage) {
    // A stage at its group's root is where the group is.
    const Stage spec = stage.attachSpec();
    switch (spec->attachType) {
    case AttachType::Scope:
        return QStringLiteral("at %1 of %2")
                   .arg(iterVarName(spec->attachIVar), qstr(spec->attachStage.name())) +
               (spec.same_as(stage) ? QString()
                                    : QStringLiteral(" with %1").arg(qstr(spec.name())));
    case AttachType::Inline:
        return QStringLiteral("inline");
    case AttachType::InlinedAlready:
        return QStringLiteral("inlined");
    case AttachType::ScanUpdate:
        return QStringLiteral("in every step of scan %1").arg(qstr(spec->attachStage.name())) +
               (spec.same_as(stage) ? QStringLiteral(" (its update)")
                                    : QStringLiteral(" with %1").arg(qstr(spec.name())));
    default:
        return QStringLiteral("root");
    }
}

/// The stage named `name` as the script wrote it (its lines and attach point), else as
/// normalize made it (rfactor's `B.repl`).
Stage findScriptStage(const Analysis& analysis, const QString& name) {
    if (!analysis.program.schedule.defined())
        return Stage();
    const Stage stage = findStageByName(analysis.program.schedule, name);
    return stage.defined() ? stage : findStageByName(scheduleShown(analysis), name);
}

} // namespace

const Schedule& normalizedSchedule(const Analysis& analysis) {
    static const Schedule kNone;
    return analysis.lowered ? analysis.lowered->normalized : kNone;
}

/// `i`, with the thread it is bound to: `i [blockIdx.x]`.
QString iterVarLabel(const Analysis& analysis, const IterVar& iv) {
    const Stage owner = ownerOf(normalizedSchedule(analysis), iv);
    QString label = iterVarName(iv);
    const IterVarAttr* attr = owner.defined() ? owner.attrOf(iv) : nullptr;
    if (attr && attr->bindThread.defined())
        label += QStringLiteral(" [%1]").arg(qstr(attr->bindThread->threadTag));
    return label;
}

Stage findStageByName(const Schedule& schedule, const QString& name) {
    if (!schedule.defined() || name.isEmpty())
        return Stage();
    return stageNamed(schedule, name.toStdString());
}

const StageTrace* findStageTrace(const Analysis& analysis, const QString& name) {
    if (!analysis.lowered)
        return nullptr;
    const BoundTrace& trace = analysis.lowered->bounds.trace;
    // A stage keeps its name when normalize replaces its operation (rfactor's `B.repl`).
    const Stage stage = findStageByName(analysis.lowered->normalized, name);
    if (const StageTrace* found = stage.defined() ? trace.find(stage->op) : nullptr)
        return found;
    const std::string wanted = name.toStdString();
    for (const StageTrace& st : trace.stages) {
        if (st.op->name == wanted)
            return &st;
    }
    return nullptr;
}

QStringList stageNames(const Analysis& analysis) {
    QStringList names;
    const Schedule& schedule = scheduleShown(analysis);
    if (!schedule.defined())
        return names;
    for (const Stage& stage : schedule.stages())
        names << qstr(stage.name());
    return names;
}

const Schedule& scheduleShown(const Analysis& analysis) {
    return analysis.lowered ? analysis.lowered->normalized : analysis.program.schedule;
}

QString problemStage(const Diagnostic& error) {
    const DiagnosticSubject& subject = error.subject;
    if (subject.kind == "itervar-of-other-stage" && !subject.otherStage.empty())
        return qstr(subject.otherStage);
    return qstr(subject.stage);
}

QString failureNote(const Analysis& analysis) {
    if (!analysis.error)
        return QString();
    // Not a failure: why there is nothing to show yet (a new script being analysed).
    if (analysis.error->severity == Severity::Note)
        return QString::fromStdString(analysis.error->message);
    // The message itself is under the script, at its line: the views only point there.
    const int line = analysis.error->location.line;
    return line > 0 ? QStringLiteral("The schedule fails at line %1 (the message is under the "
                                     "script)")
                          .arg(line)
                    : QStringLiteral("The schedule fails (the message is under the script)");
}

StageSummary summarizeStage(const Analysis& analysis, const QString& name) {
    StageSummary summary;
    const Stage stage = findScriptStage(analysis, name);
    if (!stage.defined())
        return summary;
    summary.found = true;
    summary.attachPoint = attachPointText(stage);
    summary.attachPath = QStringLiteral("root");
    const StageTrace* trace = findStageTrace(analysis, name);
    if (!trace)
        return summary;
    summary.kind = kindText(trace->kind);
    if (trace->kind == StageTrace::Kind::Computed && stage->op.as<ExternOpNode>())
        summary.kind = QStringLiteral("extern");
    if (trace->kind == StageTrace::Kind::Computed && stage->op.as<TensorComputeOpNode>())
        summary.kind = QStringLiteral("tensor compute");
    summary.visitIndex = trace->visitIndex;
    summary.visitCount = int(analysis.lowered->bounds.trace.stages.size());
    if (!trace->attachPath.empty())
        summary.attachPath = attachPathText(analysis, trace->attachPath);
    const QString scope = trace->scope.empty() ? QStringLiteral("global") : qstr(trace->scope);
    summary.scope =
        scope + (trace->scopeInferred ? QStringLiteral(" (inferred)") : QStringLiteral(" (set)"));
    return summary;
}

int sourceLine(const Analysis& analysis, const QString& stageName, const QString& iterVar) {
    const Stage stage = findScriptStage(analysis, stageName);
    if (!stage.defined())
        return 0;
    const std::string wanted = iterVar.toStdString();
    for (const IterVar& iv : stage->allIterVars) {
        if (!wanted.empty() && iv->var.name() == wanted && iv->location.known())
            return iv->location.line;
    }
    // The line of `te.compute` (or `cache_read`, ...), which made the operation, reads as
    // "where B comes from"; the stage itself is made later, by create_schedule.
    if (stage->originOp->location.known())
        return stage->originOp->location.line;
    return stage->location.line;
}

} // namespace bs::gui
