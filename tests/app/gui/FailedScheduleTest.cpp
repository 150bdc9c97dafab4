// A schedule that fails (issue 13, item 5): every view shows the program as built up to the
// failing line, the offending element is marked (the attach edge with no path to its consumer,
// an attach the schedule refused, an IterVar that belongs to another stage), the selection
// opens on it, and the message at its line gives the cause and a fix that works.
#include "GuiTestSupport.h"

#include "document/GraphLayouter.h"
#include "panels/BoundsPanel.h"
#include "panels/EditorPanel.h"
#include "panels/GraphPanel.h"
#include "panels/InspectorPanel.h"
#include "panels/IrPanel.h"
#include "views/GraphScene.h"
#include "views/GraphView.h"
#include "views/IrView.h"
#include "views/ScriptEditor.h"

#include <QComboBox>
#include <QtTest>

namespace bs::gui::test {

namespace {

const char* const kHeader = "import tvm\n"
                            "from tvm import te\n";

/// C computed at B's i, but read by R, which does not run inside B: line 9.
QString noPathScript(const QString& attach) {
    return QString::fromLatin1(kHeader) +
           QStringLiteral("A = te.placeholder((16, 12), name=\"A\")\n"
                          "B = te.compute((16, 12), lambda i, j: A[i, j] * 2.0, name=\"B\")\n"
                          "C = te.compute((16, 12), lambda i, j: B[i, j] + 1.0, name=\"C\")\n"
                          "k = te.reduce_axis((0, 12), name=\"k\")\n"
                          "R = te.compute((16,), lambda i: te.sum(C[i, k], axis=k), name=\"R\")\n"
                          "s = te.create_schedule(R.op)\n") +
           attach;
}

struct Fixture {
    MainWindow window{MainWindow::Options{false, false}};

    Fixture() {
        window.resize(1400, 900);
        window.show();
    }

    bool run(const QString& script) {
        window.document()->textDocument()->setPlainText(script);
        window.document()->reanalyse();
        return waitForAnalysis(*window.document()) && waitForGraphs(window);
    }

    const Analysis* analysis() const { return window.document()->analysis().get(); }
};

/// "from->to label" of the marked edges of a panel's graph.
QStringList problemEdges(GraphPanel* panel) {
    QStringList out;
    if (const auto shown = panel->shownGraph()) {
        for (const viz::GraphEdge& e : shown->graph.edges)
            if (e.problem)
                out << QString::fromStdString(e.from + "->" + e.to + " " + e.label);
    }
    return out;
}

/// The first line of the title of each marked node.
QStringList problemNodes(GraphPanel* panel) {
    QStringList out;
    if (const auto shown = panel->shownGraph()) {
        for (const viz::GraphNode& n : shown->graph.nodes)
            if (n.problem)
                out << QString::fromStdString(n.title.substr(0, n.title.find('\n')));
    }
    return out;
}

} // namespace

class FailedScheduleTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void computeAtWithNoPathMarksTheEdgeAndGivesAFixThatWorks();
    void theFixIsInTheScriptsNamesWhenStagesHaveTheDefaultName();
    void anIterVarOfAnotherStageIsMarkedInTheStageItBelongsTo();
    void anOutputAttachedUnderItsCacheMarksItsAttachEdge();
    void aSyntaxErrorKeepsTheLastProgram();
};

void FailedScheduleTest::init() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("built without the Python front end");
#endif
}

void FailedScheduleTest::computeAtWithNoPathMarksTheEdgeAndGivesAFixThatWorks() {
    Fixture f;
    QVERIFY(f.run(noPathScript(QStringLiteral("s[C].compute_at(s[B], B.op.axis[0])\n"))));
    const auto& problem = f.window.document()->problem();
    QVERIFY(problem.has_value());
    QCOMPARE(problem->location.line, 9);
    QCOMPARE(f.window.editorPanel()->editor()->problemLine(), 9);
    const QString banner = f.window.editorPanel()->bannerText();
    QVERIFY2(banner.startsWith(QStringLiteral("Line 9: invalid schedule: 'C' is computed at loop "
                                              "'i' of 'B', but its consumer 'R'")),
             qPrintable(banner));
    QVERIFY2(banner.contains(QStringLiteral("\nFix: s[C].compute_at(s[R], R.op.axis[0])")),
             qPrintable(banner));
    QVERIFY2(banner.contains(QStringLiteral("as built up to this line")), qPrintable(banner));

    // The views show the program as written, not the last good one; what failed is marked.
    QVERIFY(f.analysis() && !f.analysis()->ok());
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("C"));
    // What InferBound did not infer says so (the fields were blank).
    QVERIFY2(f.window.inspector()->summaryText().count(QStringLiteral("not inferred")) >= 2,
             qPrintable(f.window.inspector()->summaryText()));
    QCOMPARE(problemEdges(f.window.stageDag()),
             (QStringList{QStringLiteral("stage2->stage3 C"),
                          QStringLiteral("stage1->stage2 compute_at i")}));
    QCOMPARE(problemNodes(f.window.stageDag()), QStringList{QStringLiteral("C")});
    QCOMPARE(problemEdges(f.window.attachTree()), QStringList{QStringLiteral("stage1->stage2 ")});
    // The DAG view shows what failed, however small the dock.
    GraphView* dag = f.window.stageDag()->view();
    const QRectF visible = dag->mapToScene(dag->viewport()->rect()).boundingRect();
    QVERIFY(!f.window.stageDag()->scene()->problemRect().isEmpty());
    QVERIFY(visible.intersects(f.window.stageDag()->scene()->problemRect()));
    QVERIFY(f.window.irPanel()->text().isEmpty());
    QVERIFY(f.window.irPanel()->textView()->placeholderText().startsWith(
        QStringLiteral("The schedule fails at line 9 (the message is under the script)")));

    // A rules change runs the script again: the failure stays, half a program is not analysed.
    f.window.rulesSelector()->setCurrentIndex(
        f.window.rulesSelector()->findData(int(BoundRules::Tvm05)));
    QVERIFY(waitForAnalysis(*f.window.document()) && waitForGraphs(f.window));
    QVERIFY(f.window.document()->problem().has_value());
    QCOMPARE(problemNodes(f.window.stageDag()), QStringList{QStringLiteral("C")});

    // The fix, applied as written, analyses, and nothing is marked any more.
    const QString fix = QString::fromStdString(problem->fix);
    const QString call = fix.left(fix.indexOf(QStringLiteral(") computes")) + 1);
    QCOMPARE(call, QStringLiteral("s[C].compute_at(s[R], R.op.axis[0])"));
    QVERIFY(f.run(noPathScript(call + QLatin1Char('\n'))));
    QVERIFY2(!f.window.document()->problem(),
             qPrintable(QString::fromStdString(f.window.document()->problem()->message)));
    QVERIFY(f.analysis()->ok());
    QVERIFY(problemEdges(f.window.stageDag()).isEmpty());
    QVERIFY(problemNodes(f.window.attachTree()).isEmpty());
    QVERIFY(f.window.editorPanel()->bannerText().isEmpty());
}

void FailedScheduleTest::theFixIsInTheScriptsNamesWhenStagesHaveTheDefaultName() {
    // B and C keep te.compute's default name: the schedule names C `compute_1`, which the
    // message and the marks use, but the fix is Python for this script: `s[C]`, not
    // `s[compute_1]` (the app showed the engine's text).
    Fixture f;
    QString script = noPathScript(QStringLiteral("s[C].compute_at(s[B], B.op.axis[0])\n"));
    script.replace(QStringLiteral(", name=\"B\""), QString())
        .replace(QStringLiteral(", name=\"C\""), QString());
    QVERIFY(f.run(script));
    const QString banner = f.window.editorPanel()->bannerText();
    QVERIFY2(banner.startsWith(QStringLiteral("Line 9: invalid schedule: 'compute_1' is computed "
                                              "at loop 'i' of 'compute'")),
             qPrintable(banner));
    QVERIFY2(banner.contains(QStringLiteral("\nFix: s[C].compute_at(s[R], R.op.axis[0])")),
             qPrintable(banner));
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("compute_1"));
    QCOMPARE(problemNodes(f.window.stageDag()), QStringList{QStringLiteral("compute_1")});
    // Under other rules too.
    f.window.rulesSelector()->setCurrentIndex(
        f.window.rulesSelector()->findData(int(BoundRules::Tvm05)));
    QVERIFY(waitForAnalysis(*f.window.document()) && waitForGraphs(f.window));
    QVERIFY2(f.window.editorPanel()->bannerText().contains(
                 QStringLiteral("\nFix: s[C].compute_at(s[R], R.op.axis[0])")),
             qPrintable(f.window.editorPanel()->bannerText()));
}

void FailedScheduleTest::anIterVarOfAnotherStageIsMarkedInTheStageItBelongsTo() {
    Fixture f;
    QVERIFY(f.run(noPathScript(QStringLiteral("xo, xi = s[C].split(B.op.axis[0], factor=4)\n"))));
    const auto& problem = f.window.document()->problem();
    QVERIFY(problem.has_value());
    QCOMPARE(problem->location.line, 9);
    QVERIFY2(QString::fromStdString(problem->message)
                 .endsWith(QStringLiteral("'i' is not an iter var of stage 'C'; it is a loop of "
                                          "stage 'B'")),
             problem->message.c_str());
    // The selection opens on B, whose relations show its i marked; C's own i is not.
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("B"));
    QCOMPARE(problemNodes(f.window.iterVarGraph()).size(), 1);
    QCOMPARE(problemNodes(f.window.stageDag()),
             (QStringList{QStringLiteral("B"), QStringLiteral("C")}));
    f.window.selection()->select(QStringLiteral("C"));
    QVERIFY(waitForGraphs(f.window));
    QVERIFY(problemNodes(f.window.iterVarGraph()).isEmpty());
}

void FailedScheduleTest::anOutputAttachedUnderItsCacheMarksItsAttachEdge() {
    Fixture f;
    QVERIFY(
        f.run(QString::fromLatin1(kHeader) +
              QStringLiteral("A = te.placeholder((64, 64), name=\"A\")\n"
                             "C = te.compute((64, 64), lambda i, j: A[i, j] + 1.0, name=\"C\")\n"
                             "s = te.create_schedule(C.op)\n"
                             "CL = s.cache_write(C, \"local\")\n"
                             "s[C].compute_at(s[CL], CL.op.axis[0])\n")));
    QVERIFY(f.window.document()->problem().has_value());
    QCOMPARE(f.window.document()->problem()->location.line, 7);
    // The cache_write before the failing line is in the views: three stages.
    QCOMPARE(int(f.window.stageDag()->shownGraph()->graph.nodes.size()), 3);
    // The compute_at is in the schedule (TVM refuses it when lowering): its edge is marked.
    QCOMPARE(problemEdges(f.window.attachTree()), QStringList{QStringLiteral("stage1->stage2 ")});
    QVERIFY(f.window.editorPanel()->bannerText().contains(
        QStringLiteral("Fix: attach the other way round")));
}

void FailedScheduleTest::aSyntaxErrorKeepsTheLastProgram() {
    Fixture f;
    QVERIFY(f.run(noPathScript(QStringLiteral("s[C].compute_at(s[R], R.op.axis[0])\n"))));
    QVERIFY(f.analysis()->ok());
    QVERIFY(f.run(noPathScript(QStringLiteral("s[C].compute_at(s[R], \n"))));
    QVERIFY(f.window.document()->problem().has_value());
    // Nothing was built from this text: the last program stays, and the banner says so.
    QVERIFY(f.analysis()->ok());
    QVERIFY(!f.window.document()->analysisIsCurrent());
    QVERIFY(
        f.window.editorPanel()->bannerText().contains(QStringLiteral("last successful analysis")));
}

BS_GUI_TEST_SUITE(FailedScheduleTest);

} // namespace bs::gui::test

#include "FailedScheduleTest.moc"
