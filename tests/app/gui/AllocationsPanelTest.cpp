// The Allocations panel (panels/AllocationsPanel.h) on the examples the allocation report was
// made for: the seed's fuse example and the GatherBound example.
#include "GuiTestSupport.h"
#include "TestPrograms.h"

#include "MainWindow.h"
#include "document/ExampleCatalog.h"
#include "edit/ScheduleTools.h"
#include "panels/AllocationsPanel.h"
#include "panels/RunPanel.h"
#include "schedule/InferBoundTight.h"
#include "te/Compute.h"

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QTableView>
#include <QtTest>

namespace bs::gui::test {

namespace {

constexpr int kReportTimeoutMs = 60000;

/// The cells of `stage`'s row, by header.
QMap<QString, QString> rowOf(const AllocationsPanel& panel, const QString& stage) {
    QMap<QString, QString> cells;
    const int row = panel.model()->findRow(stage);
    if (row < 0)
        return cells;
    const QStringList headers = allocationHeaders();
    for (int c = 0; c < headers.size(); ++c)
        cells[headers[c]] = panel.model()->row(row).cells.value(c);
    return cells;
}

/// Opens `example`, analyses it and waits for the panel's report; false on any failure.
bool showExample(ScriptDocument& document, AllocationsPanel& panel, const QString& example) {
    QString error;
    if (!document.openExample(findExample(examplesDirectory(), example), &error) ||
        !waitForAnalysis(document) || document.problem()) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    QSignalSpy ready(&panel, &AllocationsPanel::reportReady);
    panel.setAnalysis(document.analysis());
    return ready.wait(kReportTimeoutMs) && panel.report();
}

/// TVM's test_local_stage_predicate, "local vs. vthread": B "local", one row of 2 for each of the
/// 3 virtual threads C's second axis is bound to (lowering allocates B[6]).
Schedule localStageWithVirtualThreads() {
    Tensor A = placeholder({1, 3, 2}, DataType::float32(), "A");
    Tensor B = compute(
        {1, 3, 2},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1], v[2]});
        },
        "B");
    Tensor C = compute(
        {1, 3, 2},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1], v[2]});
        },
        "C");
    Schedule s = createSchedule(C.op);
    const auto* b = B.op.as<ComputeOpNode>();
    const auto* c = C.op.as<ComputeOpNode>();
    IterVar vthread = threadAxis("vthread");
    s[B].computeAt(s[C], c->axis[0]);
    s[B].setScope("local");
    IterVar inner = s[B].split(b->axis[1], 3).second;
    s[C].bind(c->axis[0], threadAxis("blockIdx.x"));
    s[C].bind(c->axis[1], vthread);
    s[B].bind(inner, vthread);
    return s;
}

} // namespace

class AllocationsPanelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fuseExampleAllocatesEightElementsExceptUnderTvm05();
    void gatherExampleWastesHalfOfTForDisjointRequests();
    void aHintIsWrittenInTheScriptsNames();
    void selectingARowShowsItsCausesAndSelectsTheStage();
    void aStageSelectedBeforeTheReportIsSelectedWhenItArrives();
    void sampledTouchedCountsAreExplained();
    void virtualThreadCopiesShowPerThreadSizeAndCount();
    void aCountGivenUpSaysWhyInTheNeededTip();
    void rulesChangeMeasuresTheWasteUnderTheNewRules();
    void noProgramClearsThePanel();
    void aCauseOfOneKindIsNamedOnceInItsRow();
    void mainWindowShowsTheReportAndTheScheduleTools();
};

void AllocationsPanelTest::fuseExampleAllocatesEightElementsExceptUnderTvm05() {
    ScriptDocument document;
    AllocationsPanel panel;
#if BOUNDSCOPE_WITH_PYTHON
    QVERIFY(showExample(document, panel, QStringLiteral("fuse_split_attach")));
#else
    QSignalSpy ready(&panel, &AllocationsPanel::reportReady);
    document.analyseProgram(fuseExample());
    QVERIFY(waitForAnalysis(document));
    panel.setAnalysis(document.analysis());
    QVERIFY(ready.wait(kReportTimeoutMs));
#endif
    const auto b = rowOf(panel, QStringLiteral("B"));
    QCOMPARE(b.value(QStringLiteral("tvm-0.5")), QStringLiteral("4096"));
    QCOMPARE(b.value(QStringLiteral("tvm")), QStringLiteral("8"));
    if (panel.report()->tightAvailable)
        QCOMPARE(b.value(QStringLiteral("tight")), QStringLiteral("8"));
    QCOMPARE(b.value(QStringLiteral("Needed")), QStringLiteral("8"));
    QCOMPARE(b.value(QStringLiteral("Waste")), QStringLiteral("0.0 %"));
    QVERIFY(b.value(QStringLiteral("Causes")).contains(QStringLiteral("fuse-fallback")));
    QVERIFY(rowOf(panel, QStringLiteral("C"))
                .value(QStringLiteral("Buffer"))
                .contains(QStringLiteral("output")));
}

void AllocationsPanelTest::gatherExampleWastesHalfOfTForDisjointRequests() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("this build has no Python front end");
#endif
    ScriptDocument document;
    AllocationsPanel panel;
    QVERIFY(showExample(document, panel, QStringLiteral("gather_disjoint")));
    const auto t = rowOf(panel, QStringLiteral("T"));
    QCOMPARE(t.value(QStringLiteral("tvm")), QStringLiteral("16"));
    QCOMPARE(t.value(QStringLiteral("tvm-0.5")), QStringLiteral("16"));
    QCOMPARE(t.value(QStringLiteral("Needed")), QStringLiteral("8"));
    QCOMPARE(t.value(QStringLiteral("Waste")), QStringLiteral("50.0 %"));
    QVERIFY(t.value(QStringLiteral("Causes")).contains(QStringLiteral("disjoint-requests")));
    // Compact storage packs the two boxes (issue 20), where the rectangles cannot.
    if (hasIsl()) {
        QCOMPARE(t.value(QStringLiteral("tight")), QStringLiteral("16"));
        QCOMPARE(t.value(QStringLiteral("compact")), QStringLiteral("8"));
    }
    // The interpreter ran it: touched counts are known.
    QVERIFY(t.value(QStringLiteral("Touched")) != QStringLiteral("?"));
    QVERIFY(panel.statusText().contains(QStringLiteral("realized buffer")));
}

void AllocationsPanelTest::aHintIsWrittenInTheScriptsNames() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("this build has no Python front end");
#endif
    if (!hasIsl())
        QSKIP("the disjoint requests' fix is found under the tight rules");
    // The gather, its T held in `Tmp` and its schedule in `sch`: the fix is Python for this
    // script, as the CLI's `alloc` writes it (the panel showed `s[T]`).
    ScriptDocument document;
    QVERIFY(analyseSource(
        document,
        QStringLiteral("import tvm\n"
                       "from tvm import te\n"
                       "A = te.placeholder((4, 4), name='A')\n"
                       "Tmp = te.compute((4, 4), lambda i, j: A[i, j] + 1.0, name='T')\n"
                       "CA = te.compute((2, 2), lambda i, j: Tmp[i, j] * 2.0, name='CA')\n"
                       "CB = te.compute((2, 2), lambda i, j: Tmp[i + 2, j + 2] * 3.0, name='CB')\n"
                       "Out = te.compute((2, 2), lambda i, j: CA[i, j] + CB[i, j], name='Out')\n"
                       "sch = te.create_schedule(Out.op)\n")));
    AllocationsPanel panel;
    QSignalSpy ready(&panel, &AllocationsPanel::reportReady);
    panel.setAnalysis(document.analysis());
    QVERIFY(ready.wait(kReportTimeoutMs) && panel.report());
    panel.showStage(QStringLiteral("T"));
    QVERIFY2(
        panel.detailsText().contains(QStringLiteral("sch[Tmp].compute_inline(): T disappears")),
        qPrintable(panel.detailsText()));
    // Under other rules too: the program the rules change analyses again keeps its names.
    document.setRules(BoundRules::Tvm05);
    QVERIFY(waitForAnalysis(document));
    panel.setAnalysis(document.analysis());
    QVERIFY(ready.wait(kReportTimeoutMs));
    panel.showStage(QStringLiteral("T"));
    QVERIFY2(!panel.detailsText().contains(QStringLiteral("s[T]")),
             qPrintable(panel.detailsText()));
}

void AllocationsPanelTest::selectingARowShowsItsCausesAndSelectsTheStage() {
    ScriptDocument document;
    AllocationsPanel panel;
    QSignalSpy ready(&panel, &AllocationsPanel::reportReady);
    document.analyseProgram(fuseExample());
    QVERIFY(waitForAnalysis(document));
    panel.setAnalysis(document.analysis());
    QVERIFY(ready.wait(kReportTimeoutMs));
    QSignalSpy chosen(&panel, &AllocationsPanel::stageChosen);
    panel.showStage(QStringLiteral("B"));
    QCOMPARE(chosen.count(), 0); // showing a selection echoes nothing back
    QVERIFY(panel.detailsText().contains(QStringLiteral("fuse-fallback")));
    QVERIFY(panel.detailsText().contains(QStringLiteral("fix: ")));
    auto* view = panel.findChild<QTableView*>(QStringLiteral("allocationsTable"));
    QVERIFY(view);
    view->selectRow(panel.model()->findRow(QStringLiteral("C")));
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(chosen.first().first().toString(), QStringLiteral("C"));
}

void AllocationsPanelTest::aStageSelectedBeforeTheReportIsSelectedWhenItArrives() {
    ScriptDocument document;
    AllocationsPanel panel;
    QSignalSpy ready(&panel, &AllocationsPanel::reportReady);
    document.analyseProgram(fuseExample());
    QVERIFY(waitForAnalysis(document));
    panel.setAnalysis(document.analysis());
    panel.showStage(QStringLiteral("B")); // the report is still being computed
    QVERIFY(ready.wait(kReportTimeoutMs));
    auto* view = panel.findChild<QTableView*>(QStringLiteral("allocationsTable"));
    QVERIFY(view);
    QCOMPARE(view->currentIndex().row(), panel.model()->findRow(QStringLiteral("B")));
    QVERIFY(panel.detailsText().contains(QStringLiteral("fuse-fallback")));
    // Engine text names no command-line flag, and choosing other rules is never a fix.
    QVERIFY2(!panel.detailsText().contains(QStringLiteral("--rules")) &&
                 !panel.detailsText().contains(QStringLiteral("hint: use")),
             qPrintable(panel.detailsText()));
}

void AllocationsPanelTest::sampledTouchedCountsAreExplained() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("built without the Python front end");
#endif
    ScriptDocument document;
    AllocationsPanel panel;
    // 256 x 256 x 256 multiply-adds: more than the interpreter runs whole, so it runs a sample
    // of the k.outer loop. The shared tiles are allocated inside it and measured (~); C, around
    // it, is not (?).
    QVERIFY(showExample(document, panel, QStringLiteral("gpu_matmul_shared")));
    QCOMPARE(rowOf(panel, QStringLiteral("A.shared")).value(QStringLiteral("Touched")),
             QStringLiteral("~256"));
    QCOMPARE(rowOf(panel, QStringLiteral("C")).value(QStringLiteral("Touched")),
             QStringLiteral("?"));
    QVERIFY2(
        panel.statusText().contains(QStringLiteral("Touched (~) comes from a sample: the program "
                                                   "computes more than the interpreter's budget")),
        qPrintable(panel.statusText()));
}

void AllocationsPanelTest::virtualThreadCopiesShowPerThreadSizeAndCount() {
    const AllocReport report = allocReport(localStageWithVirtualThreads());
    const QList<TableRow> rows = allocationRows(report);
    QCOMPARE(rows.size(), 2);
    const TableRow& b = rows[0];
    QCOMPARE(b.stage, QStringLiteral("B"));
    const QStringList headers = allocationHeaders();
    auto cell = [&](const char* header) {
        return b.cells.value(headers.indexOf(QLatin1String(header)));
    };
    auto tip = [&](const char* header) {
        return b.toolTips.value(headers.indexOf(QLatin1String(header)));
    };
    QCOMPARE(cell("tvm-0.5"), QStringLiteral("2x3"));
    QCOMPARE(cell("tvm"), QStringLiteral("2x3"));
    QVERIFY2(tip("tvm").contains(
                 QStringLiteral("one copy for each of 3 virtual threads (vthread): 6 allocated")),
             qPrintable(tip("tvm")));
    QCOMPARE(cell("Touched"), QStringLiteral("6"));
    QVERIFY2(tip("Touched").contains(
                 QStringLiteral("6 touched over the whole run, of 6 allocated for its 3 "
                                "virtual threads")),
             qPrintable(tip("Touched")));
    if (report.tightAvailable) {
        QCOMPARE(cell("tight"), QStringLiteral("2x3"));
        QCOMPARE(cell("Needed"), QStringLiteral("2x3"));
        QCOMPARE(cell("Waste"), QStringLiteral("0.0 %"));
    }
    QCOMPARE(cell("Causes"), QStringLiteral("vthread-copies"));
    const QString details = allocationDetails(*report.find("B"));
    QVERIFY2(
        details.contains(
            QStringLiteral("vthread-copies: one copy per virtual thread (not waste)")) &&
            details.contains(QStringLiteral("lowering allocates 2 elements for each, 6 in all")),
        qPrintable(details));
    // The consumer has no copies: its cells are plain counts.
    QCOMPARE(rows[1].cells.value(headers.indexOf(QStringLiteral("tvm"))), QStringLiteral("6"));
}

void AllocationsPanelTest::aCountGivenUpSaysWhyInTheNeededTip() {
    // Repro 14's shared cache: ISL's work limit gave up its per-thread count.
    AllocReport report;
    BufferReport buffer;
    buffer.name = "A1.shared";
    buffer.scope = "shared";
    buffer.distinct = 162840;
    buffer.countGivenUp = true;
    report.buffers.push_back(buffer);
    const QList<TableRow> rows = allocationRows(report);
    QCOMPARE(rows.size(), 1);
    const int needed = allocationHeaders().indexOf(QStringLiteral("Needed"));
    QCOMPARE(rows[0].cells.value(needed), QStringLiteral("?"));
    QVERIFY2(rows[0].toolTips.value(needed).contains(
                 QStringLiteral("counting it exactly took ISL past its work limit")),
             qPrintable(rows[0].toolTips.value(needed)));
}

void AllocationsPanelTest::rulesChangeMeasuresTheWasteUnderTheNewRules() {
    ScriptDocument document;
    AllocationsPanel panel;
    QSignalSpy ready(&panel, &AllocationsPanel::reportReady);
    document.analyseProgram(fuseExample());
    QVERIFY(waitForAnalysis(document));
    panel.setAnalysis(document.analysis());
    QVERIFY(ready.wait(kReportTimeoutMs));
    QCOMPARE(rowOf(panel, QStringLiteral("B")).value(QStringLiteral("Waste")),
             QStringLiteral("0.0 %"));
    // Waste and fixes are measured under the rules selected (issue 13, item 7): a new report.
    document.setRules(BoundRules::Tvm05);
    QVERIFY(waitForAnalysis(document));
    panel.setAnalysis(document.analysis());
    QVERIFY(panel.isComputing());
    QVERIFY(ready.wait(kReportTimeoutMs));
    QCOMPARE(panel.report()->wasteRules, BoundRules::Tvm05);
    QCOMPARE(rowOf(panel, QStringLiteral("B")).value(QStringLiteral("Waste")),
             QStringLiteral("99.8 %"));
    // The same program under the same rules again keeps that report.
    const AllocReport* report = panel.report();
    panel.setAnalysis(document.analysis());
    QVERIFY(!panel.isComputing());
    QCOMPARE(panel.report(), report);
}

void AllocationsPanelTest::aCauseOfOneKindIsNamedOnceInItsRow() {
    // Three splits that do not divide are three causes of one kind: the row said
    // "split-remainder, split-remainder, split-remainder" (the CLI's table names it once).
    AllocReport report;
    BufferReport buffer;
    buffer.name = buffer.stage = "C.local";
    for (WasteCause kind :
         {WasteCause::SplitRemainder, WasteCause::Recompute, WasteCause::SplitRemainder})
        buffer.causes.push_back(AllocCause{kind, "", "", "", {BoundRules::Tvm}});
    report.buffers.push_back(buffer);
    const QList<TableRow> rows = allocationRows(report);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].cells.value(allocationHeaders().indexOf(QStringLiteral("Causes"))),
             QStringLiteral("split-remainder, recompute"));
}

void AllocationsPanelTest::noProgramClearsThePanel() {
    AllocationsPanel panel;
    panel.setAnalysis(nullptr);
    QCOMPARE(panel.model()->rowCount(), 0);
    QVERIFY(!panel.report());
    QCOMPARE(panel.statusText(), QStringLiteral("No program"));
}

void AllocationsPanelTest::mainWindowShowsTheReportAndTheScheduleTools() {
    MainWindow window(MainWindow::Options{false, false});
    ScheduleTools* tools = window.scheduleTools();
    QVERIFY(tools);
    QCOMPARE(window.dock(QStringLiteral("allocationsDock"))->widget(),
             static_cast<QWidget*>(tools->allocations()));
    QCOMPARE(window.dock(QStringLiteral("runDock"))->widget(), static_cast<QWidget*>(tools->run()));
    QVERIFY(window.menuBar()->actions().contains(tools->menu()->menuAction()));
    QSignalSpy ready(tools->allocations(), &AllocationsPanel::reportReady);
    window.document()->analyseProgram(fuseExample());
    QVERIFY(ready.wait(kReportTimeoutMs));
    QVERIFY(tools->allocations()->model()->findRow(QStringLiteral("B")) >= 0);
    // The shared selection reaches the panel, and its rows reach the selection.
    window.selection()->select(QStringLiteral("B"));
    QVERIFY(tools->allocations()->detailsText().contains(QStringLiteral("fuse-fallback")));
    auto* view = tools->allocations()->findChild<QTableView*>(QStringLiteral("allocationsTable"));
    view->selectRow(tools->allocations()->model()->findRow(QStringLiteral("C")));
    QCOMPARE(window.selection()->stage(), QStringLiteral("C"));
}

BS_GUI_TEST_SUITE(AllocationsPanelTest);

} // namespace bs::gui::test

#include "AllocationsPanelTest.moc"
