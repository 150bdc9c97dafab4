// The Step-through in the main window (issue 13, items 3 and 4): Previous/Next (buttons and
// Alt+Left/Alt+Right), the slider, the tree and the links move the current step; the other
// views follow it (the DAG selects the step's stage and marks its consumer and their edge, the
// IterVar graph shows the relation the set passes through with the set on its edges, the
// requests graph marks the request, the IR tints the step's lines); hovering and clicking the
// 8 of `allocate B[int32 * 8]` leads to the allocate step; stepping survives a re-analysis; and
// the Done-when of issue 13 as a new user does it, on the example script.
#include "GuiTestSupport.h"
#include "TestPrograms.h"

#include "document/StepCursor.h"
#include "models/EngineText.h"
#include "models/StepOutline.h"
#include "models/StepTreeModel.h"
#include "panels/EditorPanel.h"
#include "panels/GraphPanel.h"
#include "panels/IrPanel.h"
#include "panels/StepsPanel.h"
#include "steps/StepTools.h"
#include "views/GraphItems.h"
#include "views/GraphScene.h"
#include "views/ScriptEditor.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QHelpEvent>
#include <QMenu>
#include <QSlider>
#include <QTextBlock>
#include <QTextBrowser>
#include <QToolTip>
#include <QTreeView>
#include <QtTest>

namespace bs::gui::test {

namespace {

struct Fixture {
    MainWindow window{MainWindow::Options{false, false}};

    bool show(const Program& program) {
        window.resize(1400, 900);
        window.show();
        window.activateWindow();
        window.document()->analyseProgram(program);
        return waitForAnalysis(*window.document()) && window.document()->analysis() &&
               window.document()->analysis()->ok() && waitForGraphs(window);
    }

    StepTools* tools() const { return window.stepTools(); }
    StepsPanel* panel() const { return tools()->panel(); }
    int step() const { return tools()->cursor()->step(); }
    const Analysis& analysis() const { return *window.document()->analysis(); }
    const BoundStep& currentStep() const { return stepsOf(analysis())->at(step()); }

    /// The id of the node of `panel`'s graph that shows stage `stage` itself.
    QString stageNode(GraphPanel* panel, const QString& stage) const {
        const auto graph = panel->shownGraph();
        if (!graph)
            return QString();
        for (const viz::GraphNode& node : graph->graph.nodes) {
            if (node.kind == viz::GraphNodeKind::Stage && node.ref.stage == stageIndex(stage))
                return QString::fromStdString(node.id);
        }
        return QString();
    }

    int stageIndex(const QString& name) const {
        const auto& stages = analysis().lowered->normalized.stages();
        for (size_t s = 0; s < stages.size(); ++s) {
            if (qstr(stages[s].name()) == name)
                return int(s);
        }
        return -1;
    }

    ~Fixture() {
        const QString dir = qEnvironmentVariable("BOUNDSCOPE_GUI_TEST_SHOTS");
        if (!dir.isEmpty())
            window.grab().save(QDir(dir).filePath(
                QString::fromLatin1(QTest::currentTestFunction()) + QStringLiteral(".png")));
    }
};

/// The labels along the step's edges in `panel`'s graph.
QStringList edgeLabels(GraphPanel* panel) {
    QStringList labels;
    for (GraphEdgeItem* edge : panel->scene()->markedEdges()) {
        if (!edge->stepLabel().isEmpty())
            labels << edge->stepLabel();
    }
    return labels;
}

/// The 0-based line of the IR shown that contains `text`, or -1.
int irLine(IrPanel* ir, const QString& text) {
    const QStringList lines = ir->text().split(QLatin1Char('\n'));
    for (int n = 0; n < lines.size(); ++n) {
        if (lines[n].contains(text))
            return n;
    }
    return -1;
}

} // namespace

class StepThroughTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dockMenuAndKeysAreInstalled();
    void nextPreviousSliderTreeAndLinksMoveTheCurrentStep();
    void steppingHighlightsWhatTheStepTouchesInEveryView();
    void seedRulesShowTheFullRangeFallbackAlongTheFuse();
    void hoverAndClickOnTheEightOfAllocateLeadToTheAllocateStep();
    void steppingSurvivesAReanalysis();
    void selectingElsewhereStopsFollowingUntilTheNextStep();
    void playMovesThroughTheStepsAndStopsAtTheLast();
    void newUserFollowsTheDoneWhenOfIssue13();
};

void StepThroughTest::dockMenuAndKeysAreInstalled() {
    MainWindow window(MainWindow::Options{false, false});
    QVERIFY(window.stepTools());
    QCOMPARE(window.dock(QStringLiteral("stepThroughDock"))->widget(),
             static_cast<QWidget*>(window.stepTools()->panel()));
    const StepsPanel* panel = window.stepTools()->panel();
    QCOMPARE(panel->nextAction()->shortcut(), QKeySequence(Qt::ALT | Qt::Key_Right));
    QCOMPARE(panel->previousAction()->shortcut(), QKeySequence(Qt::ALT | Qt::Key_Left));
    // No other action of the window uses the stepper's keys.
    const QList<QAction*> mine = panel->actions();
    for (QAction* action : window.findChildren<QAction*>()) {
        if (mine.contains(action) || action->shortcut().isEmpty())
            continue;
        for (QAction* step : mine)
            QVERIFY2(action->shortcut() != step->shortcut(), qPrintable(action->text()));
    }
    QVERIFY(window.analysisMenu()->findChildren<QMenu*>().size() >= 1);
}

void StepThroughTest::nextPreviousSliderTreeAndLinksMoveTheCurrentStep() {
    Fixture f;
    QVERIFY(f.show(fuseExample()));
    const int count = int(stepsOf(f.analysis())->size());
    QCOMPARE(f.panel()->stepCount(), count);
    QCOMPARE(f.step(), 0); // shown, not yet followed
    QVERIFY(!f.tools()->isFollowing());

    f.panel()->next();
    QCOMPARE(f.step(), 1);
    QVERIFY(f.tools()->isFollowing());
    QCOMPARE(f.panel()->slider()->value(), 1);
    QCOMPARE(f.panel()->model()->stepAt(f.panel()->tree()->currentIndex()), 1);
    QVERIFY(f.panel()->detailsText().contains(qstr(f.currentStep().text)));

    // The keys work while the script editor has the focus.
    f.window.editorPanel()->editor()->setFocus();
    QTest::keyClick(f.window.editorPanel()->editor(), Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(f.step(), 2);
    QTest::keyClick(&f.window, Qt::Key_Right, Qt::AltModifier);
    QTest::keyClick(&f.window, Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(f.step(), 2);
    f.panel()->previous();
    QCOMPARE(f.step(), 1);

    f.panel()->slider()->setValue(5);
    QCOMPARE(f.step(), 5);
    f.panel()->tree()->setCurrentIndex(f.panel()->model()->indexOfStep(7));
    QCOMPARE(f.step(), 7);
    f.panel()->last();
    QCOMPARE(f.step(), count - 1);
    QVERIFY(!f.panel()->nextAction()->isEnabled());
    f.panel()->next();
    QCOMPARE(f.step(), count - 1);

    // The allocate reads its realize: the link in the details goes there.
    const int allocate = findStep(f.analysis(), QStringLiteral("allocate"));
    f.tools()->goToStep(allocate);
    const int realize = f.currentStep().from.at(0);
    Q_EMIT f.panel()->details()->anchorClicked(QUrl(QStringLiteral("step:%1").arg(realize)));
    QCOMPARE(f.step(), realize);
    QCOMPARE(f.currentStep().phase, StepPhase::Realize);
    f.panel()->first();
    QCOMPARE(f.step(), 0);
}

void StepThroughTest::steppingHighlightsWhatTheStepTouchesInEveryView() {
    Fixture f;
    QVERIFY(f.show(fuseExample()));
    const int fuse = findStep(f.analysis(), QStringLiteral("pass-up:fuse"));
    f.tools()->goToStep(fuse);
    QVERIFY(waitForGraphs(f.window));

    // The DAG: B selected (its bounds are being inferred), C and the edge B -> C marked.
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("B"));
    GraphScene* dag = f.window.stageDag()->scene();
    const QString b = f.stageNode(f.window.stageDag(), QStringLiteral("B"));
    const QString c = f.stageNode(f.window.stageDag(), QStringLiteral("C"));
    QCOMPARE(dag->selectedNodeIds(), QStringList{b});
    QVERIFY(dag->markedNodeIds().contains(c));
    QCOMPARE(dag->markedEdges().size(), 1);
    QCOMPARE(QString::fromStdString(dag->markedEdges()[0]->edge().from), b);
    QCOMPARE(QString::fromStdString(dag->markedEdges()[0]->edge().to), c);

    // The IterVar graph: C's relations, the fuse marked, the 8-element box along its edges.
    GraphPanel* itervars = f.window.iterVarGraph();
    QVERIFY(itervars->caption().startsWith(QStringLiteral("IterVar relations of C")));
    QCOMPARE(itervars->graphStage(), QStringLiteral("C"));
    bool fuseMarked = false;
    for (const QString& id : itervars->scene()->markedNodeIds()) {
        const viz::GraphNode* node = itervars->shownGraph()->graph.findNode(id.toStdString());
        fuseMarked |=
            node->kind == viz::GraphNodeKind::Relation && node->field("relation") == "Fuse";
    }
    QVERIFY(fuseMarked);
    QCOMPARE(itervars->scene()->markedEdges().size(), 3); // i, j -> fuse -> i.j.fused
    const QString labels = edgeLabels(itervars).join(QLatin1Char('|'));
    QVERIFY2(labels.contains(QStringLiteral("floordiv")), qPrintable(labels));
    QVERIFY2(labels.contains(QStringLiteral("(i.j.fused.outer*8) + 7")), qPrintable(labels));

    // A union of B: its row in the requests graph, B's own IterVar graph again.
    const int unionStep = findStep(f.analysis(), QStringLiteral("union:union"));
    f.tools()->goToStep(unionStep);
    QVERIFY(waitForGraphs(f.window));
    QCOMPARE(f.window.iterVarGraph()->graphStage(), QStringLiteral("B"));
    GraphScene* requests = f.window.requestsGraph()->scene();
    QVERIFY(requests->markedNodeIds().contains(QStringLiteral("bounds")));
    QVERIFY(!requests->stepMarks().rows.value(QStringLiteral("bounds")).isEmpty());
    QVERIFY(!requests->markedEdges().isEmpty());

    // The allocate of B: its IR line tinted, and the lines derived from the unions too.
    const int allocate = findStep(f.analysis(), QStringLiteral("allocate"));
    f.tools()->goToStep(allocate);
    IrPanel* ir = f.window.irPanel();
    QCOMPARE(ir->shownStep(), allocate);
    const QList<int> lines = ir->stepLines();
    QCOMPARE(lines.size(), 1);
    QVERIFY(ir->text()
                .split(QLatin1Char('\n'))
                .at(lines[0])
                .contains(QStringLiteral("allocate B[int32 * 8]")));
    QVERIFY(ir->highlightedLines().contains(lines[0]));
    QCOMPARE(ir->textView()->stepOfLine(lines[0]), allocate);
}

void StepThroughTest::seedRulesShowTheFullRangeFallbackAlongTheFuse() {
    Fixture f;
    QVERIFY(f.show(fuseExample()));
    f.window.rulesSelector()->setCurrentIndex(
        f.window.rulesSelector()->findData(int(BoundRules::Tvm05)));
    QVERIFY(waitForAnalysis(*f.window.document()));
    const int fuse = findStep(f.analysis(), QStringLiteral("pass-up:fuse"));
    f.tools()->goToStep(fuse);
    QVERIFY(waitForGraphs(f.window));
    QCOMPARE(f.currentStep().rule, std::string("fuse-fallback"));
    QVERIFY(f.panel()->detailsText().contains(QStringLiteral("fall back to the whole ranges")));
    const QStringList labels = edgeLabels(f.window.iterVarGraph());
    QCOMPARE(labels.count(QStringLiteral("[0, 63]")), 2); // i and j take their whole range
}

void StepThroughTest::hoverAndClickOnTheEightOfAllocateLeadToTheAllocateStep() {
    Fixture f;
    QVERIFY(f.show(fuseExample()));
    f.window.dock(QStringLiteral("loweredIrDock"))->raise();
    IrPanel* ir = f.window.irPanel();
    const int line = irLine(ir, QStringLiteral("allocate B[int32 * 8]"));
    QVERIFY(line >= 0);
    const int column =
        int(ir->text().split(QLatin1Char('\n')).at(line).indexOf(QStringLiteral("8]")));
    IrView* view = ir->textView();
    view->setTextCursor(QTextCursor(view->document()->findBlockByNumber(line)));
    view->ensureCursorVisible();
    const QPoint eight = view->pointAt(line, column);
    const int allocate = findStep(f.analysis(), QStringLiteral("allocate"));

    // Hovering the 8: the derivation, from the allocate back to its realize.
    const QString tip = view->toolTipAt(eight);
    QVERIFY2(tip.contains(QStringLiteral("Allocate B")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("realize")), qPrintable(tip));
    QHelpEvent help(QEvent::ToolTip, eight, view->viewport()->mapToGlobal(eight));
    QApplication::sendEvent(view->viewport(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("Allocate B")), qPrintable(QToolTip::text()));
    QToolTip::hideText();
    // The 32 of int32 is part of a name, not a number of the step.
    const int int32 =
        int(ir->text().split(QLatin1Char('\n')).at(line).indexOf(QStringLiteral("32")));
    QCOMPARE(view->toolTipAt(view->pointAt(line, int32)), QString());

    // Clicking the 8 lands on the allocate step.
    f.tools()->goToStep(0);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, eight);
    QCOMPARE(f.step(), allocate);
    QCOMPARE(f.currentStep().phase, StepPhase::Allocate);
    QVERIFY(f.tools()->isFollowing());
    QVERIFY(ir->stepLines().contains(line));
    // Ctrl+click anywhere on a loop line lands on the step of its extent.
    const int loop = irLine(ir, QStringLiteral("for (i.j.fused.outer, 0, 512)"));
    QVERIFY(loop >= 0);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier,
                      view->pointAt(loop, 2));
    QCOMPARE(f.step(), ir->stepOfLine(loop));
    QCOMPARE(f.currentStep().phase, StepPhase::PassDown);
}

void StepThroughTest::steppingSurvivesAReanalysis() {
    Fixture f;
    QVERIFY(f.show(fuseExample()));
    const int fuse = findStep(f.analysis(), QStringLiteral("pass-up:fuse"));
    f.tools()->goToStep(fuse);
    QCOMPARE(f.currentStep().rule, std::string("fuse-one-row"));

    // Other rules: the same step, now the seed's fallback, and the views follow it still.
    f.window.rulesSelector()->setCurrentIndex(
        f.window.rulesSelector()->findData(int(BoundRules::Tvm05)));
    QVERIFY(waitForAnalysis(*f.window.document()));
    QVERIFY(waitForGraphs(f.window));
    QCOMPARE(f.step(), fuse);
    QCOMPARE(f.currentStep().rule, std::string("fuse-fallback"));
    QVERIFY(f.tools()->isFollowing());
    QCOMPARE(f.panel()->shownStep(), fuse);
    QVERIFY(f.panel()->detailsText().contains(QStringLiteral("fall back")));
    QCOMPARE(f.window.iterVarGraph()->graphStage(), QStringLiteral("C"));
    QVERIFY(!f.window.iterVarGraph()->scene()->markedEdges().isEmpty());

    // Another program: the allocate of B is found where it is there.
    f.tools()->goToStep(findStep(f.analysis(), QStringLiteral("allocate")));
    f.window.document()->analyseProgram(sharedScopeExample());
    QVERIFY(waitForAnalysis(*f.window.document()));
    QCOMPARE(f.currentStep().phase, StepPhase::Allocate);
    QCOMPARE(qstr(f.currentStep().tensor.name()), QStringLiteral("B"));
    QCOMPARE(f.panel()->stepCount(), int(stepsOf(f.analysis())->size()));
    QCOMPARE(f.window.irPanel()->stepLines().size(), 1);

    // Whatever step the next analysis settles on (StepModelsTest checks which), the panel, the
    // cursor and the views agree on it.
    f.panel()->last();
    f.window.document()->analyseProgram(fuseExample());
    QVERIFY(waitForAnalysis(*f.window.document()));
    QVERIFY(f.step() >= 0 && f.step() < f.panel()->stepCount());
    QCOMPARE(f.panel()->shownStep(), f.step());
    QCOMPARE(f.panel()->model()->stepAt(f.panel()->tree()->currentIndex()), f.step());
    QCOMPARE(f.panel()->slider()->value(), f.step());
    QCOMPARE(f.window.irPanel()->shownStep(), f.step());
}

void StepThroughTest::selectingElsewhereStopsFollowingUntilTheNextStep() {
    Fixture f;
    QVERIFY(f.show(fuseExample()));
    const int fuse = findStep(f.analysis(), QStringLiteral("pass-up:fuse"));
    f.tools()->goToStep(fuse);
    QVERIFY(waitForGraphs(f.window));
    QVERIFY(!f.window.stageDag()->scene()->markedNodeIds().isEmpty());
    f.window.selection()->select(QStringLiteral("C"));
    QVERIFY(!f.tools()->isFollowing());
    QVERIFY(f.window.stageDag()->scene()->markedNodeIds().isEmpty());
    QCOMPARE(f.window.iterVarGraph()->graphStage(), QStringLiteral("C"));
    QCOMPARE(f.window.irPanel()->shownStep(), -1);
    QCOMPARE(f.panel()->shownStep(), fuse); // the panel keeps its place
    f.panel()->next();
    QCOMPARE(f.step(), fuse + 1);
    QVERIFY(f.tools()->isFollowing());
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("B"));
}

void StepThroughTest::playMovesThroughTheStepsAndStopsAtTheLast() {
    Fixture f;
    QVERIFY(f.show(fuseExample()));
    const int count = f.panel()->stepCount();
    f.tools()->goToStep(count - 3);
    f.panel()->setPlayInterval(20);
    f.panel()->playAction()->trigger();
    QVERIFY(f.panel()->isPlaying());
    QTRY_COMPARE_WITH_TIMEOUT(f.step(), count - 1, 10000);
    QTRY_VERIFY(!f.panel()->isPlaying());
    QVERIFY(!f.panel()->playAction()->isChecked());
    // Play at the end starts again from the first step.
    f.panel()->setPlaying(true);
    QCOMPARE(f.step(), 0);
    f.panel()->setPlaying(false);
}

void StepThroughTest::newUserFollowsTheDoneWhenOfIssue13() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("built without the Python front end");
#endif
    Fixture f;
    f.window.resize(1400, 900);
    f.window.show();
    f.window.activateWindow();
    QString error;
    QVERIFY2(f.window.openExample(QStringLiteral("fuse_split_attach"), &error), qPrintable(error));
    QVERIFY(waitForAnalysis(*f.window.document()));
    QVERIFY(!f.window.document()->problem());
    // The seed's rules first.
    f.window.rulesSelector()->setCurrentIndex(
        f.window.rulesSelector()->findData(int(BoundRules::Tvm05)));
    QVERIFY(waitForAnalysis(*f.window.document()));
    QVERIFY(waitForGraphs(f.window));

    // Step with the keyboard until B's request passes up through C's fuse.
    for (int n = 0; n < 100 && !(f.step() >= 0 && f.currentStep().phase == StepPhase::PassUp &&
                                 f.currentStep().relation.kind() == RelationKind::Fuse);
         ++n)
        QTest::keyClick(&f.window, Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(f.currentStep().phase, StepPhase::PassUp);
    const int fuse = f.step();
    QVERIFY(waitForGraphs(f.window));
    QVERIFY(f.panel()->isVisible());
    QVERIFY(f.panel()->detailsText().contains(QStringLiteral("fall back")));
    QCOMPARE(edgeLabels(f.window.iterVarGraph()).count(QStringLiteral("[0, 63]")), 2);
    QCOMPARE(f.window.editorPanel()->editor()->linkedLine(), f.currentStep().location.line);

    // Under tvm: the same step keeps B's request to the 8-element box.
    f.window.rulesSelector()->setCurrentIndex(
        f.window.rulesSelector()->findData(int(BoundRules::Tvm)));
    QVERIFY(waitForAnalysis(*f.window.document()));
    QVERIFY(waitForGraphs(f.window));
    QCOMPARE(f.step(), fuse);
    QVERIFY(f.panel()->detailsText().contains(QStringLiteral("stays in one row")));
    QVERIFY(edgeLabels(f.window.iterVarGraph())
                .join(QLatin1Char(' '))
                .contains(QStringLiteral("floormod")));

    // Click the 8 of `allocate B[int32 * 8]`: the step that made it.
    f.window.dock(QStringLiteral("loweredIrDock"))->raise();
    IrPanel* ir = f.window.irPanel();
    const int line = irLine(ir, QStringLiteral("allocate B[int32 * 8]"));
    QVERIFY(line >= 0);
    IrView* view = ir->textView();
    view->setTextCursor(QTextCursor(view->document()->findBlockByNumber(line)));
    view->ensureCursorVisible();
    const int column =
        int(ir->text().split(QLatin1Char('\n')).at(line).indexOf(QStringLiteral("8]")));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier,
                      view->pointAt(line, column));
    QCOMPARE(f.currentStep().phase, StepPhase::Allocate);
    QCOMPARE(qstr(f.currentStep().tensor.name()), QStringLiteral("B"));
    QVERIFY(f.panel()->detailsText().contains(QStringLiteral("8 elements")));
}

BS_GUI_TEST_SUITE(StepThroughTest);

} // namespace bs::gui::test

#include "StepThroughTest.moc"
