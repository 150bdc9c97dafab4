// The Heatmap dock (issue 18, item 1) on the seed's GatherBound example: T's cells coloured by
// the consumer that reads them, the 8 elements no one reads, the legend's counts, a cell's
// tooltip, and a stage without a buffer said so.
#include "GuiTestSupport.h"

#include "document/StepCursor.h"
#include "edit/ScheduleTools.h"
#include "panels/HeatmapPanel.h"
#include "steps/StepTools.h"

#include <QLabel>

#include <QDockWidget>
#include <QHelpEvent>
#include <QTextDocument>
#include <QToolTip>
#include <QtTest>

namespace bs::gui::test {

namespace {

const char* const kGather =
    "import tvm\n"
    "from tvm import te\n"
    "A = te.placeholder((4, 4), name='A')\n"
    "T = te.compute((4, 4), lambda i, j: A[i, j] + 1, name='T')\n"
    "CA = te.compute((2, 2), lambda i, j: T[i, j] * 2, name='CA')\n"
    "CB = te.compute((2, 2), lambda i, j: T[i + 2, j + 2] * 3, name='CB')\n"
    "Out = te.compute((2, 2), lambda i, j: CA[i, j] + CB[i, j], name='Out')\n"
    "s = te.create_schedule(Out.op)\n"
    "s[CA].compute_inline()\n";

} // namespace

class HeatmapPanelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void gatherBoundShowsTheTwoRegionsAndTheUnreadHalf();
    void oneIterationAloneAndTheStepThatRealizedIt();
    void aProgramTooLargeToRunIsSaidSo();
};

void HeatmapPanelTest::gatherBoundShowsTheTwoRegionsAndTheUnreadHalf() {
    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    window.document()->textDocument()->setPlainText(QString::fromLatin1(kGather));
    window.document()->reanalyse();
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(!window.document()->problem());
    HeatmapPanel* panel = window.scheduleTools()->heatmap();
    QDockWidget* dock = window.dock(QStringLiteral("heatmapDock"));
    QVERIFY(dock);
    dock->raise();
    QSignalSpy shown(panel, &HeatmapPanel::heatmapShown);
    window.selection()->select(QStringLiteral("T"));
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    const Heatmap* map = panel->heatmap();
    QVERIFY(map);
    // CA is inlined into Out: Out reads T[0:2, 0:2] through it, CB reads T[2:4, 2:4].
    QCOMPARE(map->consumers, (std::vector<std::string>{"CB", "Out"}));
    QCOMPARE(map->unread, 8);
    QVERIFY2(panel->statusText().startsWith(QStringLiteral("T: 16 elements (4 × 4) under tvm")),
             qPrintable(panel->statusText()));
    QVERIFY2(panel->legendText().contains(QStringLiteral("read by no consumer: 8 of 16")),
             qPrintable(panel->legendText()));
    QVERIFY(panel->legendText().contains(QStringLiteral("read by Out: 4")));
    // Hovering a cell says which consumer read it; the corner nobody reads says so.
    HeatmapGrid* grid = panel->grid();
    QCOMPARE(grid->cellAt(grid->cellCenter(0, 0)), 0);
    QCOMPARE(QString::fromStdString(map->describeCell(grid->cellAt(grid->cellCenter(0, 0)))),
             QStringLiteral("T[0, 0]: read by Out (1 read); computed"));
    QCOMPARE(QString::fromStdString(map->describeCell(grid->cellAt(grid->cellCenter(0, 3)))),
             QStringLiteral("T[0, 3]: read by no consumer; computed"));
    QHelpEvent tip(QEvent::ToolTip, grid->cellCenter(3, 3),
                   grid->mapToGlobal(grid->cellCenter(3, 3)));
    QCoreApplication::sendEvent(grid, &tip);
    QTRY_COMPARE(QToolTip::text(), QStringLiteral("T[3, 3]: read by CB (1 read); computed"));
    QToolTip::hideText();

    // Another stage of the same analysis is read from the same run of the program.
    window.selection()->select(QStringLiteral("CB"));
    QVERIFY2(panel->statusText().startsWith(QStringLiteral("Reading the run for CB")),
             qPrintable(panel->statusText()));
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY(panel->heatmap() && panel->heatmap()->buffer == "CB");

    // An inlined stage has no buffer: the panel says so instead of drawing anything.
    window.selection()->select(QStringLiteral("CA"));
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY(!panel->heatmap());
    QVERIFY2(panel->statusText().contains(QStringLiteral("computed inline: it has no buffer")),
             qPrintable(panel->statusText()));
}

void HeatmapPanelTest::oneIterationAloneAndTheStepThatRealizedIt() {
    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    QString error;
    QVERIFY2(window.openExample(QStringLiteral("fuse_split_attach"), &error), qPrintable(error));
    QVERIFY(waitForAnalysis(*window.document()));
    HeatmapPanel* panel = window.scheduleTools()->heatmap();
    QSignalSpy shown(panel, &HeatmapPanel::heatmapShown);
    window.dock(QStringLiteral("heatmapDock"))->raise();
    window.selection()->select(QStringLiteral("B"));
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY(panel->heatmap());
    QCOMPARE(panel->heatmap()->entries, 512);
    QCOMPARE(panel->iteration(), 0);
    // Each entry is one row of 8, so the grid's first cell is read once per iteration.
    QCOMPARE(QString::fromStdString(panel->heatmap()->describeCell(0)),
             QStringLiteral("B[0, 0]: read by C (512 reads, in iterations 1-512); computed "
                            "(512 stores)"));
    panel->showIteration(3);
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY(panel->heatmap());
    QCOMPARE(panel->heatmap()->iteration, 2);
    QVERIFY2(panel->statusText().contains(
                 QStringLiteral("allocated 512 times; iteration 3 alone computes 8 and reads 8")),
             qPrintable(panel->statusText()));
    // The region's link goes to the step that realized it.
    QSignalSpy step(panel, &HeatmapPanel::stepRequested);
    QLabel* link = nullptr;
    for (QLabel* label : panel->findChildren<QLabel*>())
        if (label->text().contains(QStringLiteral("How InferBound derived this region")))
            link = label;
    QVERIFY(link && link->text().contains(QStringLiteral("step")));
    Q_EMIT link->linkActivated(QStringLiteral("step"));
    QCOMPARE(step.count(), 1);
    const int id = step.at(0).at(0).toInt();
    QVERIFY(id >= 0);
    QTRY_COMPARE(window.stepTools()->cursor()->step(), id);
}

void HeatmapPanelTest::aProgramTooLargeToRunIsSaidSo() {
    // 134 million stores: the panel says why there is no heatmap at once, instead of running the
    // interpreter for minutes.
    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    window.document()->textDocument()->setPlainText(QStringLiteral(
        "import tvm\n"
        "from tvm import te\n"
        "N = 8192\n"
        "A = te.placeholder((N, N), name='A')\n"
        "B = te.compute((N, N), lambda i, j: A[i, j] * 2.0, name='B')\n"
        "C = te.compute((N, N), lambda i, j: B[i, j] + B[i, (j + 1) % N], name='C')\n"
        "s = te.create_schedule(C.op)\n"
        "yo, yi = s[C].split(C.op.axis[0], factor=8)\n"
        "s[B].compute_at(s[C], yo)\n"));
    window.document()->reanalyse();
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(!window.document()->problem());
    HeatmapPanel* panel = window.scheduleTools()->heatmap();
    window.dock(QStringLiteral("heatmapDock"))->raise();
    QSignalSpy shown(panel, &HeatmapPanel::heatmapShown);
    window.selection()->select(QStringLiteral("B"));
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY(!panel->heatmap());
    QVERIFY2(panel->statusText().startsWith(QStringLiteral(
                 "No heatmap of B: the heatmap runs the program in the interpreter, and this "
                 "one makes up to 134.2 million stores")),
             qPrintable(panel->statusText()));
}

BS_GUI_TEST_SUITE(HeatmapPanelTest);

} // namespace bs::gui::test

#include "HeatmapPanelTest.moc"
