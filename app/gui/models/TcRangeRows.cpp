#include "models/TcRangeRows.h"

#include "models/EngineText.h"
#include "tc/RangeComparison.h"

#include <QCoreApplication>

namespace bs::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("TcRangeRows", text); }

QString agreementText(tc::RangeAgreement agreement) {
    switch (agreement) {
    case tc::RangeAgreement::Equal:
        return tr("✓ equal");
    case tc::RangeAgreement::Narrower:
        return tr("≠ InferBound narrower");
    case tc::RangeAgreement::Wider:
        return tr("≠ InferBound wider");
    case tc::RangeAgreement::Undecided:
        return tr("? not provable");
    case tc::RangeAgreement::NotCompared:
        return tr("– no loop");
    }
    return QString();
}

QString agreementToolTip(tc::RangeAgreement agreement) {
    switch (agreement) {
    case tc::RangeAgreement::Equal:
        return tr("InferBound's range is TC's range");
    case tc::RangeAgreement::Narrower:
        return tr("The consumers need less than the inputs allow: InferBound's range lies inside "
                  "TC's (for an attached stage, per iteration of the loops around it)");
    case tc::RangeAgreement::Wider:
        return tr("The consumers need more than TC's range: InferBound's range contains it");
    case tc::RangeAgreement::Undecided:
        return tr("Neither range could be proven to contain the other");
    case tc::RangeAgreement::NotCompared:
        return tr("The variable has no loop of its own in this schedule");
    }
    return QString();
}

TableRow rowOf(const tc::RangeComparison& c) {
    TableRow row;
    const QString statement = QStringLiteral("%1: %2").arg(c.line).arg(qstr(c.statement));
    row.cells = {qstr(c.variable), qstr(c.tcRange), qstr(c.inferBoundRange),
                 agreementText(c.agreement), statement};
    const QString iterVar = c.iterVar.empty()
                                ? QString()
                                : tr("IterVar %1 of stage %2").arg(qstr(c.iterVar), qstr(c.stage));
    row.toolTips = {iterVar, tr("TC, input-driven: %1").arg(qstr(c.tcOrigin)),
                    tr("InferBound, consumer-driven: %1").arg(iterVar),
                    agreementToolTip(c.agreement), statement};
    row.stage = qstr(c.stage);
    row.iterVar = qstr(c.iterVar);
    return row;
}

} // namespace

QStringList tcRangeHeaders() {
    return {tr("Variable"), tr("TC range"), tr("InferBound range"), tr("Agreement"),
            tr("Statement")};
}

QList<TableRow> tcRangeRows(const Analysis& analysis) {
    QList<TableRow> rows;
    if (!analysis.lowered)
        return rows;
    for (const auto& program : analysis.program.tcPrograms) {
        for (const tc::RangeComparison& c :
             tc::compareRanges(*program, analysis.lowered->normalized, analysis.lowered->bounds))
            rows << rowOf(c);
    }
    return rows;
}

QStringList tcWarningLines(const Analysis& analysis) {
    QStringList lines;
    for (const auto& program : analysis.program.tcPrograms) {
        for (const Diagnostic& d : program->warnings) {
            const QString kind = d.severity == Severity::Note ? tr("note") : tr("warning");
            lines << tr("line %1: %2: %3").arg(d.location.line).arg(kind, qstr(d.message));
        }
    }
    return lines;
}

QString tcRangesSummary(const Analysis& analysis) {
    if (analysis.program.tcPrograms.empty())
        return tr("This program does not come from Tensor Comprehensions: there are no TC ranges "
                  "to compare (open a .tc file, or build stages with boundscope.tc).");
    QStringList names;
    for (const auto& program : analysis.program.tcPrograms)
        names << qstr(program->name);
    return tr("TC's ranges of %1, inferred from the inputs, next to InferBound's under the %2 "
              "rules, inferred from the consumers.")
        .arg(names.join(QStringLiteral(", ")),
             QString::fromLatin1(boundRulesName(analysis.options.rules)));
}

} // namespace bs::gui
