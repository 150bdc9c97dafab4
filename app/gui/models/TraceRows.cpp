#include "models/TraceRows.h"

#include "analysis/ExtentBound.h"
#include "analysis/ScheduleFixes.h"
#include "ir/Printer.h"

#include <QRegularExpression>

#include <algorithm>

namespace bs::gui {

namespace {

const Schedule& normalizedOf(const Analysis& analysis) {
    static const Schedule kNone;
    return analysis.lowered ? analysis.lowered->normalized : kNone;
}

QString ivName(const IterVar& iv) {
    return iv.defined() ? qstr(iv->var.name()) : QString();
}

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

/// `i`, with the thread it is bound to: `i [blockIdx.x]`.
QString ivLabel(const Analysis& analysis, const IterVar& iv) {
    const Stage owner = ownerOf(normalizedOf(analysis), iv);
    QString label = ivName(iv);
    const IterVarAttr* attr = owner.defined() ? owner.attrOf(iv) : nullptr;
    if (attr && attr->bindThread.defined())
        label += QStringLiteral(" [%1]").arg(qstr(attr->bindThread->threadTag));
    return label;
}

/// An attach path, innermost first, its loops grouped by the stage that owns them:
/// `C: j.inner → j.outer → i`, or `D: dj → di → E: ej → ei` for a chained attachment.
QString attachPathText(const Analysis& analysis, const std::vector<IterVar>& path) {
    QStringList parts;
    const StageNode* current = nullptr;
    for (const IterVar& iv : path) {
        const Stage owner = ownerOf(normalizedOf(analysis), iv);
        QString part = ivLabel(analysis, iv);
        if (owner.defined() && owner.get() != current)
            part = qstr(owner.name()) + QStringLiteral(": ") + part;
        current = owner.get();
        parts << part;
    }
    return parts.join(QStringLiteral(" → "));
}

QString consumerName(const ConsumerTrace& c) {
    return qstr(c.consumer->name);
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
        return QStringLiteral("at %1 of %2").arg(ivName(spec->attachIVar), qstr(spec->attachStage.name())) +
               (spec.same_as(stage) ? QString() : QStringLiteral(" with %1").arg(qstr(spec.name())));
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

/// root / leaf / root, leaf / inner: where `iv` sits between the stage's roots and leaves.
QString roleText(const Stage& stage, const IterVar& iv) {
    if (iv->iterType == IterVarType::ThreadIndex && !stage.hasIterVar(iv))
        return QStringLiteral("thread");
    bool isRoot = false;
    for (const IterVar& root : stage->op->rootIterVars())
        isRoot = isRoot || root.same_as(iv);
    QStringList roles;
    if (isRoot)
        roles << QStringLiteral("root");
    if (stage.isLeaf(iv))
        roles << QStringLiteral("leaf");
    QString text = roles.isEmpty() ? QStringLiteral("inner") : roles.join(QStringLiteral(", "));
    const IterVarAttr* attr = stage.attrOf(iv);
    if (attr && attr->bindThread.defined())
        text += QStringLiteral(" → %1").arg(qstr(attr->bindThread->threadTag));
    return text;
}

/// Whether the loop `leaf` comes from the root variable `root`, by TVM's naming of derived
/// IterVars (`i.outer`, `i.inner`, `i.j.fused`, `i.rebased`).
bool derivesFrom(const QString& leaf, const QString& root) {
    return leaf == root || leaf.split(QLatin1Char('.')).contains(root);
}

/// Why the region requested along one axis is what it is: the phase-1 decision (relaxed or not,
/// and the reason) of each consumer loop the index depends on, and the relaxed attach loops.
QString whyText(const Analysis& analysis, const ConsumerTrace& c, const Expr& index) {
    static const QRegularExpression identifier(QStringLiteral("[A-Za-z_][\\w.]*"));
    QStringList roots;
    for (QRegularExpressionMatchIterator it = identifier.globalMatch(exprText(index));
         it.hasNext();)
        roots << it.next().captured();
    auto related = [&roots](const QString& leaf) {
        return std::any_of(roots.begin(), roots.end(),
                           [&leaf](const QString& root) { return derivesFrom(leaf, root); });
    };
    QStringList reasons;
    for (const LeafSetEntry& e : c.leafSets) {
        if (related(ivName(e.iv)))
            reasons << QStringLiteral("%1 %2: %3")
                           .arg(ivLabel(analysis, e.iv),
                                e.leafCase == LeafCase::Relax ? QStringLiteral("relaxed")
                                                              : QStringLiteral("not relaxed"),
                                qstr(e.reason));
    }
    for (const RelaxEntry& e : c.relaxSet)
        reasons << QStringLiteral("%1 relaxed: %2").arg(ivLabel(analysis, e.iv), qstr(e.reason));
    if (reasons.isEmpty() && c.consumer.as<ScanOpNode>())
        return QStringLiteral("a spatial axis of the scan: the rows it computes span it");
    if (c.consumer.as<TensorComputeOpNode>())
        return reasons.isEmpty()
                   ? QStringLiteral("the tensor intrinsic reads this range at every call")
                   : QStringLiteral("the tensor intrinsic's region moves with the loops: ") +
                         reasons.join(QStringLiteral("; "));
    return reasons.isEmpty() ? QStringLiteral("constant index")
                             : reasons.join(QStringLiteral("; "));
}

} // namespace

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

QString exprText(const Expr& e) {
    return e.defined() ? qstr(toString(e)) : QStringLiteral("?");
}

QString rangeText(const Range& r) {
    if (!r.defined())
        return QStringLiteral("undefined");
    return QStringLiteral("min=%1, ext=%2").arg(exprText(r.min), exprText(r.extent));
}

QString intSetText(const IntSet& s) {
    return qstr(s.toString());
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

namespace {

/// The stage named `name` as the script wrote it (its lines and attach point), else as
/// normalize made it (rfactor's `B.repl`).
Stage findScriptStage(const Analysis& analysis, const QString& name) {
    if (!analysis.program.schedule.defined())
        return Stage();
    const Stage stage = findStageByName(analysis.program.schedule, name);
    return stage.defined() ? stage : findStageByName(scheduleShown(analysis), name);
}

} // namespace

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

QStringList boundsHeaders() {
    return {QStringLiteral("Stage"), QStringLiteral("IterVar"), QStringLiteral("Min"),
            QStringLiteral("Extent"), QStringLiteral("Role")};
}

QList<TableRow> boundsRows(const Analysis& analysis) {
    QList<TableRow> rows;
    const Schedule& normalized = normalizedOf(analysis);
    if (!normalized.defined())
        return rows;
    for (const Stage& stage : normalized.stages()) {
        const StageTrace* trace = analysis.lowered->bounds.trace.find(stage->op);
        if (!trace)
            continue;
        for (const auto& [iv, range] : trace->ranges) {
            TableRow row;
            row.stage = qstr(stage.name());
            row.iterVar = ivName(iv);
            // A symbolic extent says what it depends on and its largest value where known
            // (`... (at most 2; depends on i.j.fused.outer)`), as `boundscope bounds` does.
            QString extent = exprText(range.extent);
            const std::string bound =
                describe(boundOfExtent(range.extent, analysis.lowered->bounds.bounds));
            if (!bound.empty())
                extent += QStringLiteral("  (%1)").arg(qstr(bound));
            row.cells = {row.stage, row.iterVar, exprText(range.min), extent, roleText(stage, iv)};
            rows << row;
        }
    }
    return rows;
}

QStringList requestHeaders() {
    return {QStringLiteral("Consumer"), QStringLiteral("Axis"), QStringLiteral("Index"),
            QStringLiteral("Request"), QStringLiteral("Why")};
}

QList<TableRow> requestRows(const Analysis& analysis, const StageTrace& trace) {
    QList<TableRow> rows;
    for (const ConsumerTrace& c : trace.consumers) {
        for (const RequestEntry& r : c.requests) {
            TableRow row;
            row.stage = consumerName(c);
            // The index evaluated over the consumer's domains, then clamped to the shape when
            // it reaches past it (as the requests graph of engine/viz shows it).
            QString request = intSetText(r.request);
            if (r.clamped)
                request = intSetText(r.evaluated) + QStringLiteral(" clamped to ") + request;
            row.cells = {row.stage, QStringLiteral("%1[%2]").arg(qstr(r.tensor.name())).arg(r.axis),
                         exprText(r.index), request, whyText(analysis, c, r.index)};
            row.toolTips = {
                QString(), QStringLiteral("the tensor read and its axis"),
                QStringLiteral("the consumer's index expression for this axis"),
                QStringLiteral("the index evaluated over the consumer's loops (phase 3)"),
                row.cells.last()};
            rows << row;
        }
    }
    return rows;
}

QStringList leafSetHeaders() {
    return {QStringLiteral("Consumer"), QStringLiteral("Leaf"), QStringLiteral("Range"),
            QStringLiteral("Set"),      QStringLiteral("Case"), QStringLiteral("Reason")};
}

QList<TableRow> leafSetRows(const Analysis& analysis, const StageTrace& trace) {
    QList<TableRow> rows;
    for (const ConsumerTrace& c : trace.consumers) {
        for (const LeafSetEntry& e : c.leafSets) {
            TableRow row;
            row.stage = consumerName(c);
            row.iterVar = ivName(e.iv);
            row.cells = {row.stage,         ivLabel(analysis, e.iv),        rangeText(e.range),
                         intSetText(e.set), qstr(leafCaseName(e.leafCase)), qstr(e.reason)};
            rows << row;
        }
    }
    return rows;
}

QStringList relaxHeaders() {
    return {QStringLiteral("Consumer"), QStringLiteral("Loop"), QStringLiteral("Variable"),
            QStringLiteral("Set"), QStringLiteral("Reason")};
}

QList<TableRow> relaxRows(const Analysis& analysis, const StageTrace& trace) {
    QList<TableRow> rows;
    for (const ConsumerTrace& c : trace.consumers) {
        for (const RelaxEntry& e : c.relaxSet) {
            TableRow row;
            row.stage = consumerName(c);
            row.iterVar = ivName(e.iv);
            row.cells = {row.stage, ivLabel(analysis, e.iv), qstr(e.var.name()), intSetText(e.set),
                         qstr(e.reason)};
            rows << row;
        }
    }
    return rows;
}

QStringList rootSetHeaders() {
    return {QStringLiteral("Consumer"), QStringLiteral("Root"), QStringLiteral("Phase-2 set"),
            QStringLiteral("Covered"), QStringLiteral("Domain")};
}

QList<TableRow> rootSetRows(const Analysis& analysis, const StageTrace& trace) {
    QList<TableRow> rows;
    for (const ConsumerTrace& c : trace.consumers) {
        for (const RootSetEntry& e : c.rootSets) {
            TableRow row;
            row.stage = consumerName(c);
            row.iterVar = ivName(e.iv);
            row.cells = {row.stage, ivLabel(analysis, e.iv),
                         e.upState ? intSetText(*e.upState) : QStringLiteral("(not reached)"),
                         rangeText(e.covered), intSetText(e.domain)};
            rows << row;
        }
    }
    return rows;
}

QStringList unionHeaders() {
    return {QStringLiteral("Root"), QStringLiteral("Axis"), QStringLiteral("Union"),
            QStringLiteral("Range"), QStringLiteral("Source")};
}

QList<TableRow> unionRows(const StageTrace& trace) {
    QList<TableRow> rows;
    for (const RootBound& b : trace.rootBounds) {
        TableRow row;
        row.stage = qstr(trace.op->name);
        row.iterVar = ivName(b.iv);
        row.cells = {row.iterVar,
                     b.outputAxis >= 0                           ? QString::number(b.outputAxis)
                     : b.iv->iterType == IterVarType::CommReduce ? QStringLiteral("reduce")
                                                                 : QStringLiteral("—"),
                     b.unionSet ? intSetText(*b.unionSet) : QStringLiteral("—"), rangeText(b.range),
                     qstr(b.source)};
        rows << row;
    }
    return rows;
}

} // namespace bs::gui
