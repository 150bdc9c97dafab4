// The Loop Nest dock (issue 18, item 3) on the seed's Ex. 3: the program played one store at a
// time, C's row live while D reads it, the controls (step, seek, play), a cell's tooltip, an
// edit keeping the place, and a program that cannot run said so.
#include "GuiTestSupport.h"

#include "edit/ScheduleTools.h"
#include "panels/AnimationPanel.h"

#include <QDockWidget>
#include <QHelpEvent>
#include <QTextDocument>
#include <QToolTip>
#include <QtTest>

namespace bs::gui::test {

namespace {

QString ex3(const char* axis) {
    return QStringLiteral("import tvm\n"
                          "C = tvm.compute((5, 16), lambda i, j: tvm.const(5), name='C')\n"
                          "D = tvm.compute((5, 16), lambda i, j: C[i, j] * 2, name='D')\n"
                          "s = tvm.create_schedule(D.op)\n"
                          "s[C].compute_at(s[D], D.op.axis[%1])\n")
        .arg(QLatin1String(axis));
}

} // namespace

class AnimationPanelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void playsEx3StepByStep();
    void aProgramThatCannotRunIsSaidSo();
};

void AnimationPanelTest::playsEx3StepByStep() {
    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    window.document()->textDocument()->setPlainText(ex3("0"));
    window.document()->reanalyse();
    QVERIFY(waitForAnalysis(*window.document()));
    AnimationPanel* panel = window.scheduleTools()->animation();
    QSignalSpy shown(panel, &AnimationPanel::animationShown);
    QDockWidget* dock = window.dock(QStringLiteral("loopNestDock"));
    QVERIFY(dock);
    dock->raise();
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY(panel->player());
    QCOMPARE(panel->player()->animation().steps(), 160);
    QCOMPARE(panel->statusText(), QStringLiteral("Before the first step: 160 steps recorded"));

    // Step 18: D[0, 1] computed from C[0, 1]; the whole row of C is live.
    panel->seek(17);
    QCOMPARE(panel->statusText(), QStringLiteral("step 18 of 160: computes D[0, 1] from C[0, 1]"));
    const AnimationPlayer& player = *panel->player();
    QCOMPARE(player.animation().buffers()[1].name, std::string("C"));
    QCOMPARE(player.liveNow(1), 16);
    AnimationView* view = panel->view();
    QCOMPARE(view->cellAt(view->cellCenter(0, 1)), (std::pair<int, int64_t>{0, 1}));
    QHelpEvent tip(QEvent::ToolTip, view->cellCenter(0, 1),
                   view->mapToGlobal(view->cellCenter(0, 1)));
    QCoreApplication::sendEvent(view, &tip);
    QTRY_COMPARE(QToolTip::text(), QStringLiteral("D[0, 1]: computed at this step"));
    QToolTip::hideText();
    panel->stepForward();
    QCOMPARE(panel->player()->step(), 18);
    panel->stepBack();
    panel->stepBack();
    QCOMPARE(panel->player()->step(), 16);

    // Playing runs to the end at the chosen speed, then stops.
    panel->setSpeed(10000);
    panel->play();
    QVERIFY(panel->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isPlaying(), 10000);
    QCOMPARE(panel->player()->step(), 159);

    // An edit keeps the place: C at D's inner loop holds one element at a time.
    panel->seek(17);
    window.document()->textDocument()->setPlainText(ex3("1"));
    window.document()->reanalyse();
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QTRY_COMPARE(panel->player()->step(), 17);
    QCOMPARE(panel->player()->peakAllocated(1), 1);
}

void AnimationPanelTest::aProgramThatCannotRunIsSaidSo() {
    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    window.document()->textDocument()->setPlainText(
        QStringLiteral("import tvm\n"
                       "n = tvm.var('n')\n"
                       "A = tvm.placeholder((n,), name='A')\n"
                       "B = tvm.compute((n,), lambda i: A[i] + 1, name='B')\n"
                       "s = tvm.create_schedule(B.op)\n"));
    window.document()->reanalyse();
    QVERIFY(waitForAnalysis(*window.document()));
    AnimationPanel* panel = window.scheduleTools()->animation();
    QSignalSpy shown(panel, &AnimationPanel::animationShown);
    window.dock(QStringLiteral("loopNestDock"))->raise();
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY(!panel->player());
    QVERIFY2(panel->statusText().startsWith(QStringLiteral("Cannot play the loop nest: ")) &&
                 panel->statusText().contains(QStringLiteral("constant shapes")),
             qPrintable(panel->statusText()));
}

BS_GUI_TEST_SUITE(AnimationPanelTest);

} // namespace bs::gui::test

#include "AnimationPanelTest.moc"
