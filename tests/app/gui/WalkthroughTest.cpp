// Issue 7's "Done when", as a new user does it in the real window: load Ex. 6 from the Examples
// menu, click stage B and read the region its consumer C requests and why threadIdx.x was
// relaxed, split an IterVar with the `s` key and undo it, run the kernel (GPU emulation is
// offered for this GPU schedule) and export the lowered IR and a graph from the File menu.
#include "GraphTestSupport.h"
#include "GuiTestSupport.h"
#include "TestPrograms.h"
#include "analysis/ScheduleFixes.h"

#include "edit/EditActions.h"
#include "edit/ScheduleEditor.h"
#include "edit/ScheduleTools.h"
#include "models/StringTableModel.h"
#include "panels/GraphPanel.h"
#include "panels/InspectorPanel.h"
#include "panels/RunPanel.h"
#include "views/GraphItems.h"
#include "views/GraphScene.h"
#include "views/GraphView.h"
#include "views/HintTableView.h"

#include <QAction>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QUndoStack>
#include <QtTest>

namespace bs::gui::test {

namespace {

constexpr int kRunTimeoutMs = 120000;

/// The action named `text` (mnemonics ignored) in the menu bar's menu `menuText`, or null.
QAction* menuAction(MainWindow& window, const QString& menuText, const QString& text) {
    auto plain = [](QString s) { return s.remove(QLatin1Char('&')); };
    for (QAction* menu : window.menuBar()->actions()) {
        if (plain(menu->text()) != menuText || !menu->menu())
            continue;
        for (QAction* action : menu->menu()->actions()) {
            if (plain(action->text()) == text)
                return action;
            if (action->menu()) {
                for (QAction* sub : action->menu()->actions()) {
                    if (plain(sub->text()) == text)
                        return sub;
                }
            }
        }
    }
    return nullptr;
}

/// Clicks the node `id` of `panel`'s graph.
void clickNode(GraphPanel* panel, const QString& id) {
    GraphNodeItem* item = panel->scene()->nodeItem(id);
    QVERIFY2(item, qPrintable(id));
    panel->view()->centerOn(item);
    QTest::mouseClick(panel->view()->viewport(), Qt::LeftButton, Qt::NoModifier,
                      panel->view()->mapFromScene(item->sceneBoundingRect().center()));
}

QString cell(const StringTableModel* model, int row, const QString& header) {
    for (int c = 0; c < model->columnCount(); ++c) {
        if (model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == header)
            return model->row(row).cells.value(c);
    }
    return QString();
}

} // namespace

class WalkthroughTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void newUserFollowsTheDoneWhenSteps();
    void outputStageSaysWhyItHasNoRequests();
    void newUserBuildsTilesAttachesRfactorsAndUndoesItAllWithoutTyping();
};

void WalkthroughTest::newUserFollowsTheDoneWhenSteps() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("built without the Python front end");
#endif
    MainWindow window(MainWindow::Options{false, false});
    QTemporaryDir dir;
    QStringList saved;
    Dialogs dialogs = window.dialogs();
    dialogs.saveFile = [&](const QString&, const QString& suggested, const QString&) {
        // Export to the folder of the test with the file name the app suggests.
        const QString path = dir.filePath(QFileInfo(suggested).fileName());
        saved << path;
        return path;
    };
    dialogs.showError = [](const QString& title, const QString& message) {
        QFAIL(qPrintable(title + QStringLiteral(": ") + message));
    };
    window.setDialogs(dialogs);
    window.resize(1400, 900);
    window.show();
    window.activateWindow();

    // Load Ex. 6 from the Examples menu.
    QAction* ex6 =
        menuAction(window, QStringLiteral("Examples"), QStringLiteral("ex6_shared_scope"));
    QVERIFY(ex6);
    ex6->trigger();
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(!window.document()->problem());
    QVERIFY(waitForGraphs(window));

    // Click stage B: C requests one row of B per block, the whole of B's j, since threadIdx.x
    // is relaxed for shared storage.
    clickNode(window.stageDag(), QStringLiteral("stage1"));
    QCOMPARE(window.selection()->stage(), QStringLiteral("B"));
    const StringTableModel* requests = window.inspector()->model(InspectorPanel::Table::Requests);
    QCOMPARE(requests->rowCount(), 2);
    QCOMPARE(cell(requests, 0, QStringLiteral("Consumer")), QStringLiteral("C"));
    QCOMPARE(cell(requests, 0, QStringLiteral("Request")),
             QStringLiteral("[blockIdx.x, blockIdx.x]"));
    QCOMPARE(cell(requests, 1, QStringLiteral("Request")), QStringLiteral("[0, 199]"));
    const QString why = cell(requests, 1, QStringLiteral("Why"));
    QVERIFY2(why.contains(QStringLiteral("[threadIdx.x] relaxed")) &&
                 why.contains(QStringLiteral("share one shared buffer")),
             qPrintable(why));
    QVERIFY2(cell(requests, 0, QStringLiteral("Why"))
                 .contains(QStringLiteral("each block has its own shared buffer")),
             qPrintable(cell(requests, 0, QStringLiteral("Why"))));

    // Select B's axis i in the IterVar graph, split it with the `s` key, then undo (Ctrl+Z).
    QVERIFY(waitForGraphs(window));
    clickNode(window.iterVarGraph(), QStringLiteral("iv1_0"));
    QCOMPARE(window.selection()->iterVar(), QStringLiteral("i"));
    EditActions* edits = window.scheduleTools()->actions();
    edits->setPrompt([](const QString&, const QString&, const QStringList&) {
        return std::optional<QString>(QStringLiteral("2"));
    });
    const QString before = window.document()->textDocument()->toPlainText();
    if (!QTest::qWaitForWindowActive(&window))
        QSKIP("the window cannot be activated on this platform");
    window.iterVarGraph()->view()->setFocus();
    QTest::keyClick(window.iterVarGraph()->view(), Qt::Key_S);
    QVERIFY(waitForEditedAnalysis(*window.scheduleTools()->editor()));
    // The script names B's axis i `ib` (`ib, jb = s[B].op.axis`): the edit refers to it so.
    const QString added = window.document()->textDocument()->toPlainText().mid(before.size());
    QCOMPARE(added, QStringLiteral("i_outer, i_inner = s[B].split(ib, factor=2)\n"));
    QVERIFY(!window.document()->problem());
    QTest::keyClick(window.iterVarGraph()->view(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(window.document()->textDocument()->toPlainText(), before);
    QVERIFY(waitForAnalysis(*window.document()));

    // Run: a GPU schedule cannot run on the CPU, so the panel offers GPU emulation.
    RunPanel* run = window.scheduleTools()->run();
    QVERIFY(run->isGpuSchedule());
    QVERIFY(!run->targetFits(RunTarget::Cpu));
    if (run->target() == RunTarget::Cpu)
        QFAIL("the CPU target is still chosen for a GPU schedule");
    QVERIFY(run->statusText().contains(QStringLiteral("GPU emulation")));
    run->setTarget(RunTarget::Emulate);
    QPushButton* check = nullptr;
    for (QPushButton* button : run->findChildren<QPushButton*>()) {
        if (button->text() == QStringLiteral("&Check"))
            check = button;
    }
    QVERIFY(check && check->isEnabled());
    QSignalSpy finished(run, &RunPanel::runFinished);
    QTest::mouseClick(check, Qt::LeftButton);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QVERIFY2(run->lastError().isEmpty(), qPrintable(run->lastError()));
    QCOMPARE(cell(run->model(), 0, QStringLiteral("Check")), QStringLiteral("pass"));

    // Export the lowered IR and the stage DAG from the File menu.
    QAction* exportIr = menuAction(window, QStringLiteral("File"), QStringLiteral("Lowered IR…"));
    QVERIFY(exportIr);
    exportIr->trigger();
    QCOMPARE(saved.size(), 1);
    QFile ir(saved.last());
    QVERIFY(ir.open(QIODevice::ReadOnly));
    QVERIFY(ir.readAll().contains("produce B"));
    QAction* exportDag = menuAction(window, QStringLiteral("File"), QStringLiteral("Stage DAG…"));
    QVERIFY(exportDag);
    exportDag->trigger();
    QCOMPARE(saved.size(), 2);
    QVERIFY(saved.last().endsWith(QStringLiteral(".png")));
    QVERIFY(!QImage(saved.last()).isNull());
}

void WalkthroughTest::outputStageSaysWhyItHasNoRequests() {
    MainWindow window(MainWindow::Options{false, false});
    window.show();
    window.document()->setUntitled(sharedScopeScript(), QStringLiteral("ex6_shared_scope.py"));
    QVERIFY(waitForAnalysis(*window.document()));
    window.document()->analyseProgram(sharedScopeExample());
    QVERIFY(waitForAnalysis(*window.document()));
    window.selection()->select(QStringLiteral("C"));
    HintTableView* requests = window.inspector()->view(InspectorPanel::Table::Requests);
    QCOMPARE(requests->model()->rowCount(), 0);
    QVERIFY(requests->isShowingEmptyText());
    QVERIFY2(requests->emptyText().contains(QStringLiteral("C is an output stage")),
             qPrintable(requests->emptyText()));
    // B has requests: no hint drawn.
    window.selection()->select(QStringLiteral("B"));
    QVERIFY(!requests->isShowingEmptyText());
}

// Issue 17's "Done when": from File > New, a 3-stage pipeline built from the Schedule menu
// without typing, tiled, a producer attached by dragging it in the attach tree, the reduction
// rfactored; then every step undone, back to the empty file.
void WalkthroughTest::newUserBuildsTilesAttachesRfactorsAndUndoesItAllWithoutTyping() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("built without the Python front end");
#endif
    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    floatLarge(window.attachTree(), QSize(1100, 800));
    QAction* fileNew = menuAction(window, QStringLiteral("File"), QStringLiteral("New"));
    QVERIFY(fileNew);
    fileNew->trigger();
    QVERIFY(waitForAnalysis(*window.document()));
    QCOMPARE(window.document()->textDocument()->toPlainText(), QString());
    ScheduleEditor* editor = window.scheduleTools()->editor();
    EditActions* edits = window.scheduleTools()->actions();
    QList<script::NewStage> stages;
    edits->setStagePrompt([&stages](script::NewStage::Kind kind, const QStringList&) {
        script::NewStage stage = stages.takeFirst();
        stage.kind = kind;
        return std::optional<script::NewStage>(stage);
    });
    QStringList answers;
    edits->setPrompt([&answers](const QString&, const QString&, const QStringList&) {
        return std::optional<QString>(answers.takeFirst());
    });
    // One menu step: the edit is checked, written and the edited script analysed.
    const auto step = [&](QAction* action) {
        if (!action->isEnabled()) {
            qWarning("%s is disabled: %s", qPrintable(action->text()),
                     qPrintable(action->toolTip()));
            return false;
        }
        QSignalSpy refused(editor, &ScheduleEditor::refused);
        action->trigger();
        const bool done = waitForEditedAnalysis(*editor);
        for (const QList<QVariant>& why : refused)
            qWarning("%s refused: %s", qPrintable(action->text()), qPrintable(why[0].toString()));
        return done && refused.isEmpty();
    };
    const auto script = [&] { return window.document()->textDocument()->toPlainText(); };

    // A (64x64), B = A * 2, C[i, j] = sum over k of B[i, k] * A[k, j].
    script::NewStage a;
    a.name = "A";
    a.shape = {"64", "64"};
    script::NewStage b;
    b.name = "B";
    b.shape = {"64", "64"};
    b.axes = {"i", "j"};
    b.body = "A[i, j] * 2";
    script::NewStage c;
    c.name = "C";
    c.shape = {"64", "64"};
    c.axes = {"i", "j"};
    c.body = "B[i, k] * A[k, j]";
    c.reduceAxes = {{"k", "64"}};
    stages = {a, b, c};
    QVERIFY(step(edits->action(EditActions::StageEntry::AddPlaceholder)));
    QVERIFY(step(edits->action(EditActions::StageEntry::AddCompute)));
    QVERIFY(step(edits->action(EditActions::StageEntry::AddReduction)));
    QVERIFY2(!window.document()->problem(), qPrintable(script()));
    QCOMPARE(window.document()->analysis()->program.schedule.stages().size(), size_t(3));

    // Rfactor C's reduction over k: a new stage, C.rf, computes the partial sums.
    window.selection()->select(QStringLiteral("C"), QStringLiteral("k"));
    QVERIFY(step(edits->action(EditActions::Entry::Rfactor)));
    QVERIFY2(!window.document()->problem(), qPrintable(script()));
    const Schedule factored = window.document()->analysis()->program.schedule;
    QCOMPARE(factored.stages().size(), size_t(4));
    const Stage rf = stageNamed(factored, "C.rf");
    QVERIFY(rf.defined());

    // Tile C, which now sums the partial sums over its axes ax0 and ax1, by 8 x 8.
    window.selection()->select(QStringLiteral("C"), QStringLiteral("ax0"));
    answers = {QStringLiteral("8"), QStringLiteral("8")};
    QVERIFY(step(edits->action(EditActions::Entry::Tile)));
    QVERIFY2(!window.document()->problem(), qPrintable(script()));
    const Stage tiled = stageNamed(window.document()->analysis()->program.schedule, "C");
    QVERIFY(tiled.defined());
    QCOMPARE(tiled->leafIterVars[0]->var.name(), std::string("ax0.outer"));
    QCOMPARE(tiled->leafIterVars[1]->var.name(), std::string("ax1.outer"));

    // Attach B to C.rf's outermost loop by dragging it there in the attach tree.
    QVERIFY(waitForGraphs(window));
    GraphPanel* tree = window.attachTree();
    tree->view()->fitGraph();
    const Analysis& analysis = *window.document()->analysis();
    const QString loop = QString::fromStdString(
        stageNamed(analysis.program.schedule, "C.rf")->leafIterVars[0]->var.name());
    const std::optional<QPointF> from = pointOf(tree, analysis, QStringLiteral("B"), QString());
    const std::optional<QPointF> to = pointOf(tree, analysis, QStringLiteral("C.rf"), loop);
    QVERIFY(from && to);
    drag(tree, *from, *to);
    QVERIFY(editor->isChecking());
    QVERIFY(waitForEditedAnalysis(*editor));
    QVERIFY2(!window.document()->problem(), qPrintable(script()));
    const Stage attachedB = stageNamed(window.document()->analysis()->program.schedule, "B");
    QCOMPARE(attachedB->attachType, AttachType::Scope);
    QCOMPARE(attachedB->attachStage.name(), std::string("C.rf"));
    QCOMPARE(QString::fromStdString(attachedB->attachIVar->var.name()), loop);

    // Everything undone, in order, back to the empty file.
    QUndoStack* history = editor->undoStack();
    QCOMPARE(history->count(), 6);
    while (history->canUndo()) {
        history->undo();
        QVERIFY(waitForAnalysis(*window.document()));
    }
    QCOMPARE(window.document()->textDocument()->toPlainText(), QString());
}

BS_GUI_TEST_SUITE(WalkthroughTest);

} // namespace bs::gui::test

#include "WalkthroughTest.moc"
