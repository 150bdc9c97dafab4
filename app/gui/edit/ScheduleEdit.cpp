#include "edit/ScheduleEdit.h"

#include "edit/PythonNames.h"
#include "ir/Op.h"
#include "models/TraceRows.h"
#include "te/Compute.h"
#include "te/Operation.h"

#include <QRegularExpression>

namespace bs::gui {

namespace {

/// What an edit acts on, looked up in one schedule (the program's, or the dry run's copy).
struct EditTargets {
    Stage stage;
    IterVar iv;                 ///< IterVar edits
    int leaf = -1;              ///< its position among the leaves
    Stage targetStage;          ///< ComputeAt
    IterVar targetIv;           ///< ComputeAt
    std::vector<Stage> readers; ///< CacheRead: the stages whose operation reads the stage's
};

IterVar leafNamed(const Stage &stage, const QString &name) {
    const std::string wanted = name.toStdString();
    for (const IterVar &iv : stage->leafIterVars) {
        if (iv->var.name() == wanted)
            return iv;
    }
    return IterVar();
}

bool reads(const Operation &reader, const Operation &producer) {
    for (const Tensor &t : reader->inputTensors()) {
        if (t.op.same_as(producer))
            return true;
    }
    return false;
}

/// Finds the stages and IterVars `edit` names in `sch`; the message when one is missing.
QString resolve(const Schedule &sch, const ScheduleEdit &edit, EditTargets *out) {
    out->stage = findStageByName(sch, edit.stage);
    if (!out->stage.defined())
        return QStringLiteral("no stage '%1' in the schedule").arg(edit.stage);
    const bool placeholder = out->stage->op.as<PlaceholderOpNode>() != nullptr;
    if (placeholder && edit.kind != EditKind::CacheRead)
        return QStringLiteral("'%1' is a placeholder: it has no loops to schedule").arg(edit.stage);
    if (isIterVarEdit(edit.kind)) {
        out->iv = leafNamed(out->stage, edit.iterVar);
        if (!out->iv.defined())
            return QStringLiteral("'%1' is not a loop of stage '%2'").arg(edit.iterVar, edit.stage);
        out->leaf = out->stage.leafIndex(out->iv);
    }
    if (edit.kind == EditKind::ComputeAt) {
        out->targetStage = findStageByName(sch, edit.targetStage);
        if (!out->targetStage.defined())
            return QStringLiteral("no stage '%1' to compute '%2' at")
                .arg(edit.targetStage, edit.stage);
        out->targetIv = leafNamed(out->targetStage, edit.targetIterVar);
        if (!out->targetIv.defined())
            return QStringLiteral("'%1' is not a loop of stage '%2'")
                .arg(edit.targetIterVar, edit.targetStage);
    }
    if (edit.kind == EditKind::CacheRead) {
        for (const Stage &s : sch.stages()) {
            if (reads(s->op, out->stage->op))
                out->readers.push_back(s);
        }
        if (out->readers.empty())
            return QStringLiteral("no stage reads '%1': nothing to cache").arg(edit.stage);
    }
    return QString();
}

/// Checks the arguments the engine cannot check because they only exist as text here, and
/// the neighbours fuse and reorder need.
QString checkArguments(const ScheduleEdit &edit, const EditTargets &t) {
    static const QRegularExpression kScope(QStringLiteral("^[A-Za-z_][\\w.]*$"));
    const int leaves = t.stage.defined() ? int(t.stage->leafIterVars.size()) : 0;
    switch (edit.kind) {
    case EditKind::Split:
        if (edit.factor <= 0)
            return QStringLiteral(
                       "split of '%1' in stage '%2': factor must be a positive integer, got %3")
                .arg(edit.iterVar, edit.stage)
                .arg(edit.factor);
        return QString();
    case EditKind::Fuse:
    case EditKind::MoveIn:
        if (t.leaf + 1 >= leaves)
            return QStringLiteral("'%1' is the innermost loop of stage '%2'")
                .arg(edit.iterVar, edit.stage);
        return QString();
    case EditKind::MoveOut:
        if (t.leaf == 0)
            return QStringLiteral("'%1' is the outermost loop of stage '%2'")
                .arg(edit.iterVar, edit.stage);
        return QString();
    case EditKind::Bind:
        if (!threadTags().contains(edit.thread))
            return QStringLiteral("unknown thread axis '%1'").arg(edit.thread);
        return QString();
    case EditKind::SetScope:
    case EditKind::CacheRead:
    case EditKind::CacheWrite:
        if (!kScope.match(edit.scope).hasMatch())
            return QStringLiteral("invalid storage scope '%1'").arg(edit.scope);
        return QString();
    default:
        return QString();
    }
}

/// Applies an IterVar edit to `t` (in place: the caller passes targets in a copy).
void applyToLoop(const ScheduleEdit &edit, const EditTargets &t) {
    const Stage &s = t.stage;
    const std::vector<IterVar> &leaves = s->leafIterVars;
    switch (edit.kind) {
    case EditKind::Split:
        s.split(t.iv, makeConst(DataType::int32(), edit.factor));
        return;
    case EditKind::Fuse:
        s.fuse(t.iv, leaves[size_t(t.leaf) + 1]);
        return;
    case EditKind::MoveOut:
        s.reorder({t.iv, leaves[size_t(t.leaf) - 1]});
        return;
    case EditKind::MoveIn:
        s.reorder({leaves[size_t(t.leaf) + 1], t.iv});
        return;
    case EditKind::Bind:
        s.bind(t.iv, threadAxis(edit.thread.toStdString()));
        return;
    case EditKind::Vectorize:
        s.vectorize(t.iv);
        return;
    case EditKind::Unroll:
        s.unroll(t.iv);
        return;
    case EditKind::Parallel:
        s.parallel(t.iv);
        return;
    default:
        return;
    }
}

/// Applies a stage edit to `t` (in place: the caller passes targets in a copy of `sch`).
void applyToStage(const Schedule &sch, const ScheduleEdit &edit, const EditTargets &t) {
    const Stage &s = t.stage;
    switch (edit.kind) {
    case EditKind::ComputeAt:
        s.computeAt(t.targetStage, t.targetIv);
        return;
    case EditKind::ComputeInline:
        s.computeInline();
        return;
    case EditKind::ComputeRoot:
        s.computeRoot();
        return;
    case EditKind::SetScope:
        s.setScope(edit.scope.toStdString());
        return;
    case EditKind::CacheRead: {
        std::vector<Operation> readers;
        for (const Stage &r : t.readers)
            readers.push_back(r->op);
        sch.cacheRead(s->op.output(0), edit.scope.toStdString(), readers);
        return;
    }
    case EditKind::CacheWrite:
        sch.cacheWrite(s->op.output(0), edit.scope.toStdString());
        return;
    default:
        return;
    }
}

/// Tries `edit` on a copy of the program's schedule: the engine's message when it refuses.
QString dryRun(const Program &program, const ScheduleEdit &edit) {
    const Schedule copy = program.schedule.copy();
    EditTargets targets;
    if (QString error = resolve(copy, edit, &targets); !error.isEmpty())
        return error;
    try {
        if (isIterVarEdit(edit.kind))
            applyToLoop(edit, targets);
        else
            applyToStage(copy, edit, targets);
        // What the call accepts but lowering refuses (an output attached, an attach cycle,
        // TVM's timing) is refused here too: the edit would break the program.
        copy.normalize();
    } catch (const UserError &e) {
        return QString::fromStdString(e.diagnostic().message);
    } catch (const std::exception &e) { // InternalError: a Boundscope bug, reported, not fatal
        return QString::fromStdString(e.what());
    }
    return QString();
}

/// The Python text of a checked IterVar edit.
QString loopPython(const ScheduleEdit &edit, const EditTargets &t, const PythonNames &names) {
    const QString stage = names.stage(t.stage);
    const QString iv = names.iterVar(t.stage, t.iv);
    const auto leaf = [&](int offset) {
        return names.iterVar(t.stage, t.stage->leafIterVars[size_t(t.leaf + offset)]);
    };
    const QString ivName = edit.iterVar;
    switch (edit.kind) {
    case EditKind::Split:
        return QStringLiteral("%1, %2 = %3.split(%4, factor=%5)\n")
            .arg(names.freshName(ivName + QStringLiteral("_outer")),
                 names.freshName(ivName + QStringLiteral("_inner")), stage, iv)
            .arg(edit.factor);
    case EditKind::Fuse: {
        const QString next =
            QString::fromStdString(t.stage->leafIterVars[size_t(t.leaf) + 1]->var.name());
        return QStringLiteral("%1 = %2.fuse(%3, %4)\n")
            .arg(names.freshName(ivName + QLatin1Char('_') + next + QStringLiteral("_fused")),
                 stage, iv, leaf(1));
    }
    case EditKind::MoveOut:
        return QStringLiteral("%1.reorder(%2, %3)\n").arg(stage, iv, leaf(-1));
    case EditKind::MoveIn:
        return QStringLiteral("%1.reorder(%2, %3)\n").arg(stage, leaf(1), iv);
    case EditKind::Bind: {
        bool needsImport = false;
        const QString thread = names.threadAxis(edit.thread, &needsImport);
        return QStringLiteral("%1%2.bind(%3, %4)\n")
            .arg(needsImport ? QStringLiteral("import tvm\n") : QString(), stage, iv, thread);
    }
    case EditKind::Vectorize:
    case EditKind::Unroll:
    case EditKind::Parallel:
        return QStringLiteral("%1.%2(%3)\n").arg(stage, editKindName(edit.kind), iv);
    default:
        return QString();
    }
}

/// The Python text of a checked stage edit.
QString stagePython(const ScheduleEdit &edit, const EditTargets &t, const PythonNames &names) {
    const QString s = *names.schedule();
    const QString stage = names.stage(t.stage);
    switch (edit.kind) {
    case EditKind::ComputeAt:
        return QStringLiteral("%1.compute_at(%2, %3)\n")
            .arg(stage, names.stage(t.targetStage), names.iterVar(t.targetStage, t.targetIv));
    case EditKind::ComputeInline:
    case EditKind::ComputeRoot:
        return QStringLiteral("%1.%2()\n").arg(stage, editKindName(edit.kind));
    case EditKind::SetScope:
        return QStringLiteral("%1.set_scope(\"%2\")\n").arg(stage, edit.scope);
    case EditKind::CacheRead: {
        QStringList readers;
        for (const Stage &r : t.readers)
            readers << names.tensor(r);
        return QStringLiteral("%1 = %2.cache_read(%3, \"%4\", [%5])\n")
            .arg(names.freshName(edit.stage + QLatin1Char('_') + edit.scope), s,
                 names.tensor(t.stage), edit.scope, readers.join(QStringLiteral(", ")));
    }
    case EditKind::CacheWrite:
        return QStringLiteral("%1 = %2.cache_write(%3, \"%4\")\n")
            .arg(names.freshName(edit.stage + QLatin1Char('_') + edit.scope), s,
                 names.tensor(t.stage), edit.scope);
    default:
        return QString();
    }
}

} // namespace

QString editKindName(EditKind kind) {
    switch (kind) {
    case EditKind::Split:
        return QStringLiteral("split");
    case EditKind::Fuse:
        return QStringLiteral("fuse");
    case EditKind::MoveOut:
    case EditKind::MoveIn:
        return QStringLiteral("reorder");
    case EditKind::Bind:
        return QStringLiteral("bind");
    case EditKind::Vectorize:
        return QStringLiteral("vectorize");
    case EditKind::Unroll:
        return QStringLiteral("unroll");
    case EditKind::Parallel:
        return QStringLiteral("parallel");
    case EditKind::ComputeAt:
        return QStringLiteral("compute_at");
    case EditKind::ComputeInline:
        return QStringLiteral("compute_inline");
    case EditKind::ComputeRoot:
        return QStringLiteral("compute_root");
    case EditKind::SetScope:
        return QStringLiteral("set_scope");
    case EditKind::CacheRead:
        return QStringLiteral("cache_read");
    case EditKind::CacheWrite:
        return QStringLiteral("cache_write");
    }
    return QString();
}

bool isIterVarEdit(EditKind kind) {
    switch (kind) {
    case EditKind::Split:
    case EditKind::Fuse:
    case EditKind::MoveOut:
    case EditKind::MoveIn:
    case EditKind::Bind:
    case EditKind::Vectorize:
    case EditKind::Unroll:
    case EditKind::Parallel:
        return true;
    default:
        return false;
    }
}

QString ScheduleEdit::description() const {
    const QString what = editKindName(kind);
    const QString iv = stage + QLatin1Char('.') + iterVar;
    switch (kind) {
    case EditKind::Split:
        return QStringLiteral("split %1 by %2").arg(iv).arg(factor);
    case EditKind::Fuse:
        return QStringLiteral("fuse %1 with the next loop").arg(iv);
    case EditKind::MoveOut:
        return QStringLiteral("move %1 out").arg(iv);
    case EditKind::MoveIn:
        return QStringLiteral("move %1 in").arg(iv);
    case EditKind::Bind:
        return QStringLiteral("bind %1 to %2").arg(iv, thread);
    case EditKind::ComputeAt:
        return QStringLiteral("compute_at %1 → %2.%3").arg(stage, targetStage, targetIterVar);
    case EditKind::SetScope:
    case EditKind::CacheRead:
    case EditKind::CacheWrite:
        return QStringLiteral("%1 %2 \"%3\"").arg(what, stage, scope);
    default:
        return isIterVarEdit(kind) ? what + QLatin1Char(' ') + iv : what + QLatin1Char(' ') + stage;
    }
}

QStringList threadTags() {
    return {QStringLiteral("blockIdx.x"),  QStringLiteral("blockIdx.y"),
            QStringLiteral("blockIdx.z"),  QStringLiteral("threadIdx.x"),
            QStringLiteral("threadIdx.y"), QStringLiteral("threadIdx.z"),
            QStringLiteral("vthread")};
}

QStringList storageScopes() {
    return {QStringLiteral("shared"), QStringLiteral("local"), QStringLiteral("global"),
            QStringLiteral("warp")};
}

EditText writeEdit(const QString &script, const Program &program, const ScheduleEdit &edit) {
    if (!program.defined())
        return {QString(), QStringLiteral("the script defines no schedule to edit")};
    const PythonNames names(script, program);
    if (!names.schedule())
        return {QString(), QStringLiteral("the schedule made at line %1 is not kept in a top-level "
                                          "variable (write `s = te.create_schedule(...)`)")
                               .arg(program.schedule->location.line)};
    EditTargets targets;
    if (QString error = resolve(program.schedule, edit, &targets); !error.isEmpty())
        return {QString(), error};
    if (QString error = checkArguments(edit, targets); !error.isEmpty())
        return {QString(), error};
    if (QString error = dryRun(program, edit); !error.isEmpty())
        return {QString(), error};
    return {isIterVarEdit(edit.kind) ? loopPython(edit, targets, names)
                                     : stagePython(edit, targets, names),
            QString()};
}

QString appendLines(const QString &script, const QString &lines) {
    if (script.isEmpty() || script.endsWith(QLatin1Char('\n')))
        return script + lines;
    return script + QLatin1Char('\n') + lines;
}

} // namespace bs::gui
