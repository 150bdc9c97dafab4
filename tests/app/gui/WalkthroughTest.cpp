// Issue 7's "Done when", as a new user does it in the real window: load Ex. 6 from the Examples
// menu, click stage B and read the region its consumer C requests and why threadIdx.x was
// relaxed, split an IterVar with the `s` key and undo it, run the kernel (GPU emulation is
// offered for this GPU schedule) and export the lowered IR and a graph from the File menu.
#include "GuiTestSupport.h"
#include "TestPrograms.h"

#include "edit/EditActions.h"
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

BS_GUI_TEST_SUITE(WalkthroughTest);

} // namespace bs::gui::test

#include "WalkthroughTest.moc"
