#include "models/TraceRows.h"

#include "models/EngineText.h"
#include "models/StageQueries.h"

#include "analysis/ExtentBound.h"
#include "analysis/ScheduleFixes.h"
#include "ir/Printer.h"

#include <QRegularExpression>

#include <algorithm>

namespace bs::gui {

namespace {

QString consumerName(const ConsumerTrace& c) { return qstr(c.consumer->name); }

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
        if (related(iterVarName(e.iv)))
            reasons << QStringLiteral("%1 %2: %3")
                           .arg(iterVarLabel(analysis, e.iv),
                                e.leafCase == LeafCase::Relax ? QStringLiteral("relaxed")
                                                              : QStringLiteral("not relaxed"),
                                qstr(e.reason));
    }
    for (const RelaxEntry& e : c.relaxSet)
        reasons
            << QStringLiteral("%1 relaxed: %2").arg(iterVarLabel(analysis, e.iv), qstr(e.reason));
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

QStringList boundsHeaders() {
    return {QStringLiteral("Stage"), QStringLiteral("IterVar"), QStringLiteral("Min"),
            QStringLiteral("Extent"), QStringLiteral("Role")};
}

QList<TableRow> boundsRows(const Analysis& analysis) {
    QList<TableRow> rows;
    const Schedule& normalized = normalizedSchedule(analysis);
    if (!normalized.defined())
        return rows;
    for (const Stage& stage : normalized.stages()) {
        const StageTrace* trace = analysis.lowered->bounds.trace.find(stage->op);
        if (!trace)
            continue;
        for (const auto& [iv, range] : trace->ranges) {
            TableRow row;
            row.stage = qstr(stage.name());
            row.iterVar = iterVarName(iv);
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
            row.iterVar = iterVarName(e.iv);
            row.cells = {row.stage,         iterVarLabel(analysis, e.iv),   rangeText(e.range),
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
            row.iterVar = iterVarName(e.iv);
            row.cells = {row.stage, iterVarLabel(analysis, e.iv), qstr(e.var.name()),
                         intSetText(e.set), qstr(e.reason)};
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
            row.iterVar = iterVarName(e.iv);
            row.cells = {row.stage, iterVarLabel(analysis, e.iv),
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
        row.iterVar = iterVarName(b.iv);
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
