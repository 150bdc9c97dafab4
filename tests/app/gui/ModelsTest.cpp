// The adapters between engine results and the views, without widgets: which stage and loop
// each IR line belongs to, the translation between selection names and viz::ObjectRef, the
// graphs built for the docks, and the "why" of each consumer request.
#include "GuiTestSupport.h"
#include "TestPrograms.h"

#include "analysis/Analysis.h"
#include "ir/Op.h"
#include "models/GraphModels.h"
#include "models/IrLines.h"
#include "models/StageQueries.h"
#include "models/TraceRows.h"
#include "panels/IrPanel.h"
#include "te/Compute.h"

#include <QtTest>

namespace bs::gui::test {

class ModelsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void irLinesBelongToTheInnermostProduceBlock();
    void irLinesOfTheSharedScopeExample();
    void objectRefsRoundTripThroughNames();
    void graphsAreBuiltForTheSelectedStage();
    void requestRowsSayWhyAnAxisWasRelaxed();
    void symbolicExtentsSayWhatTheyDependOnAndTheirMaximum();
};

void ModelsTest::irLinesBelongToTheInnermostProduceBlock() {
    const QList<IrLine> lines = irLines(QStringLiteral("// attr [compute(C)] realize_scope = \"\"\n"
                                                       "realize C([0, 8]) {\n"
                                                       "  produce C {\n"
                                                       "    for (i.outer, 0, 2) {\n"
                                                       "      produce B {\n"
                                                       "        B(i) =1\n"
                                                       "      }\n"
                                                       "      C(i) =B(i)\n"
                                                       "    }\n"
                                                       "  }\n"
                                                       "}"));
    QCOMPARE(lines.size(), 11);
    QCOMPARE(lines[0].stage, QStringLiteral("C"));
    QVERIFY(lines[0].namesStage);
    QCOMPARE(lines[1].stage, QStringLiteral("C"));
    QCOMPARE(lines[3].stage, QStringLiteral("C"));
    QCOMPARE(lines[3].loopVar, QStringLiteral("i.outer"));
    QCOMPARE(lines[4].stage, QStringLiteral("B"));
    QCOMPARE(lines[5].stage, QStringLiteral("B"));
    QVERIFY(!lines[5].namesStage);
    QCOMPARE(lines[6].stage, QStringLiteral("B"));
    QCOMPARE(lines[7].stage, QStringLiteral("C"));
    QCOMPARE(lines[10].stage, QString());
}

void ModelsTest::irLinesOfTheSharedScopeExample() {
    const Analysis analysis = analyze(sharedScopeExample());
    QVERIFY(analysis.ok());
    const QString text = loweredIrText(analysis, LowerPass::Final);
    const QStringList printed = text.split(QLatin1Char('\n'));
    const QList<IrLine> lines = irLines(text);
    for (int n = 0; n < printed.size(); ++n) {
        if (printed[n].trimmed().startsWith(QLatin1String("allocate B")) ||
            printed[n].contains(QLatin1String("storage_scope")))
            QCOMPARE(lines[n].stage, QStringLiteral("B"));
        if (printed[n].trimmed().startsWith(QLatin1String("C[")))
            QCOMPARE(lines[n].stage, QStringLiteral("C"));
    }
    // The thread_extent line before C's store opens C's loop over j, bound to threadIdx.x.
    const int storeC = int(printed.indexOf(QRegularExpression(QStringLiteral("^\\s*C\\[.*"))));
    QCOMPARE(lines[storeC - 1].loopVar, QStringLiteral("threadIdx.x"));
    QCOMPARE(iterVarOfLoop(analysis, QStringLiteral("C"), QStringLiteral("threadIdx.x")),
             QStringLiteral("j"));
    QCOMPARE(iterVarOfLoop(analysis, QStringLiteral("C"), QStringLiteral("k")), QString());
}

void ModelsTest::objectRefsRoundTripThroughNames() {
    const Analysis analysis = analyze(sharedScopeExample());
    const viz::ObjectRef ref = objectRefOf(analysis, QStringLiteral("C"), QStringLiteral("j"));
    QCOMPARE(ref.stage, 2);
    QCOMPARE(ref.iterVar, 1);
    const ObjectNames names = objectNamesOf(analysis, ref);
    QCOMPARE(names.stage, QStringLiteral("C"));
    QCOMPARE(names.iterVar, QStringLiteral("j"));
    QCOMPARE(objectRefOf(analysis, QStringLiteral("nope")).stage, -1);
    QCOMPARE(objectNamesOf(analysis, viz::ObjectRef{7, 0, -1}).stage, QString());
}

void ModelsTest::graphsAreBuiltForTheSelectedStage() {
    const Analysis analysis = analyze(sharedScopeExample());
    QString message;
    const auto dag = buildGraphOf(analysis, viz::GraphKind::StageDag, QString(), &message);
    QVERIFY(dag);
    QCOMPARE(int(dag->nodes.size()), 3);
    const auto ivs =
        buildGraphOf(analysis, viz::GraphKind::IterVarRelations, QStringLiteral("B"), &message);
    QVERIFY(ivs);
    QCOMPARE(QString::fromStdString(ivs->name), QStringLiteral("IterVar relations of B"));
    QVERIFY(!buildGraphOf(analysis, viz::GraphKind::ConsumerRequests, QString(), &message));
    QVERIFY(message.contains(QStringLiteral("Select a stage")));
    const auto requests =
        buildGraphOf(analysis, viz::GraphKind::ConsumerRequests, QStringLiteral("B"), &message);
    QVERIFY(requests && requests->findNode("consumer0"));
    Analysis failed;
    QVERIFY(!buildGraphOf(failed, viz::GraphKind::StageDag, QString(), &message));
}

void ModelsTest::requestRowsSayWhyAnAxisWasRelaxed() {
    const Analysis analysis = analyze(sharedScopeExample());
    const StageTrace* trace = findStageTrace(analysis, QStringLiteral("B"));
    QVERIFY(trace);
    const QList<TableRow> rows = requestRows(analysis, *trace);
    QCOMPARE(rows.size(), 2);
    const int why = int(requestHeaders().indexOf(QStringLiteral("Why")));
    QVERIFY(rows[0].cells[why].contains(QStringLiteral("not relaxed")));
    QVERIFY(rows[0].cells[why].contains(QStringLiteral("blockIdx.x")));
    QVERIFY(rows[1].cells[why].startsWith(QStringLiteral("j [threadIdx.x] relaxed")));
    QVERIFY(rows[1].cells[why].contains(QStringLiteral("shared")));
}

/// The extent cell of `stage`'s IterVar `iterVar` in the bounds table.
QString extentCell(const QList<TableRow>& rows, const QString& stage, const QString& iterVar) {
    const int column = int(boundsHeaders().indexOf(QStringLiteral("Extent")));
    for (const TableRow& row : rows) {
        if (row.stage == stage && row.iterVar == iterVar)
            return row.cells[column];
    }
    return QStringLiteral("<no row>");
}

void ModelsTest::symbolicExtentsSayWhatTheyDependOnAndTheirMaximum() {
    // The fuse example split by 48, which does not divide a row of 64: how many rows of B a
    // segment touches varies with the outer loop, at most 2.
    auto fusedAndSplit = [](const Expr& factor) {
        Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                           {"i", "j"});
        Tensor C = compute({64, 64},
                           [&](const std::vector<Var>& v) {
                               return B({v[0], v[1]});
                           },
                           "C", "", {"i", "j"});
        Schedule s = createSchedule(C.op);
        const auto* c = C.op.as<ComputeOpNode>();
        auto [outer, inner] = s[C].split(s[C].fuse(c->axis[0], c->axis[1]), factor);
        (void)inner;
        s[B].computeAt(s[C], outer);
        return Program{s, {C}, true};
    };
    const Analysis varying = analyze(fusedAndSplit(48));
    QVERIFY(varying.ok());
    const QString rows = extentCell(boundsRows(varying), QStringLiteral("B"), QStringLiteral("i"));
    QVERIFY2(rows.endsWith(QStringLiteral("  (at most 2; depends on i.j.fused.outer)")),
             qPrintable(rows));
    // A te.var factor: the extent is the scalar, and what depends on it says so.
    const Analysis free = analyze(fusedAndSplit(Var("f")));
    QVERIFY2(free.ok(), free.error ? free.error->message.c_str() : "");
    QCOMPARE(extentCell(boundsRows(free), QStringLiteral("C"), QStringLiteral("i.j.fused.inner")),
             QStringLiteral("f"));
    const QString outer =
        extentCell(boundsRows(free), QStringLiteral("C"), QStringLiteral("i.j.fused.outer"));
    QVERIFY2(outer.endsWith(QStringLiteral("(depends on f)")), qPrintable(outer));
    // A constant extent is left as it is.
    QCOMPARE(
        extentCell(boundsRows(analyze(fuseExample())), QStringLiteral("B"), QStringLiteral("j")),
        QStringLiteral("8"));
}

BS_GUI_TEST_SUITE(ModelsTest);

} // namespace bs::gui::test

#include "ModelsTest.moc"
