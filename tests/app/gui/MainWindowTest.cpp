// The main window end to end, offscreen: one selection links the graphs, the inspector, the
// Bounds table, the IR and the editor both ways; the rules selector re-analyses; a script
// error keeps the views; exports write valid files. Every example is opened in
// ExamplesTest.cpp.
#include "GuiTestSupport.h"
#include "TestPrograms.h"

#include "document/Exporter.h"
#include "document/GraphLayouter.h"
#include "models/StringTableModel.h"
#include "panels/BoundsPanel.h"
#include "panels/CodePanel.h"
#include "panels/EditorPanel.h"
#include "panels/GraphPanel.h"
#include "panels/InspectorPanel.h"
#include "panels/IrPanel.h"
#include "views/GraphItems.h"
#include "views/GraphScene.h"
#include "views/GraphView.h"
#include "views/ScriptEditor.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFontInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QPlainTextEdit>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QtTest>

namespace bs::gui::test {

namespace {

/// A window showing `program` as if the pretend script had defined it.
struct Fixture {
    MainWindow window{MainWindow::Options{false, false}};

    bool show(const Program& program, const QString& script = sharedScopeScript()) {
        window.resize(1400, 900);
        window.show();
        window.document()->setUntitled(script, QStringLiteral("ex6_shared_scope.py"));
        if (!waitForAnalysis(*window.document()))
            return false;
        window.document()->analyseProgram(program);
        return waitForAnalysis(*window.document()) && window.document()->analysis() &&
               waitForGraphs(window);
    }

    /// With BOUNDSCOPE_GUI_TEST_SHOTS=DIR, each test leaves a PNG of its window there.
    ~Fixture() {
        const QString dir = qEnvironmentVariable("BOUNDSCOPE_GUI_TEST_SHOTS");
        if (!dir.isEmpty())
            window.grab().save(QDir(dir).filePath(
                QString::fromLatin1(QTest::currentTestFunction()) + QStringLiteral(".png")));
    }

    /// Clicks node `id` of `panel`'s graph (at `rowOffset` points below its centre).
    void clickNode(GraphPanel* panel, const QString& id, qreal rowOffset = 0) {
        GraphNodeItem* item = panel->scene()->nodeItem(id);
        QVERIFY2(item, qPrintable(id));
        panel->view()->centerOn(item);
        const QPointF at = item->sceneBoundingRect().center() + QPointF(0, rowOffset);
        QTest::mouseClick(panel->view()->viewport(), Qt::LeftButton, Qt::NoModifier,
                          panel->view()->mapFromScene(at));
    }
};

int column(const StringTableModel* model, const QString& header) {
    for (int c = 0; c < model->columnCount(); ++c) {
        if (model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == header)
            return c;
    }
    return -1;
}

/// The text of the 0-based lines of `panel` drawn as selected.
QStringList highlightedIr(const IrPanel* panel) {
    QStringList lines;
    const QStringList all = panel->text().split(QLatin1Char('\n'));
    for (int n : panel->highlightedLines())
        lines << all.value(n).trimmed();
    return lines;
}

} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void clickingADagNodeSelectsTheStageEverywhere();
    void arrowKeysMoveBetweenGraphNodes();
    void tabbedDocksShowWholeTitles();
    void helpListsTheKeys();
    void findSelectsTheStageAndTheTextInTheScriptAndIr();
    void selectedStageDrivesTheIterVarGraphAndAttachPath();
    void clickingAnIterVarNodeSelectsTheIterVar();
    void theSecondOfTwoStagesOfTheDefaultNameIsShownAsItself();
    void clickingAnIrLineSelectsItsStage();
    void choosingAStageInTheInspectorHighlightsItInTheDag();
    void selectingABoundsRowSelectsItsStageAndIterVar();
    void rulesSelectorChangesTheBoundsShown();
    void scriptErrorShowsTheMessageAndKeepsTheViews();
    void irPassSelectorShowsEachPass();
    void irPassSelectorListsTheScriptsPassesWhereTheyRun();
    void openingAFailingScriptShowsNothingOfThePreviousOne();
    void viewsAreMarkedOutOfDateDuringALongAnalysis();
    void exportsWriteValidFiles();
    void docksCanBeAddedAndAreListedInTheViewMenu();
    void bigGraphsStayLegibleUntilFitIsAsked();
    void generatedCodeIsMadeOffTheGuiThread();
};

void MainWindowTest::arrowKeysMoveBetweenGraphNodes() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("C"));
    // The DAG runs from A at the top to C at the bottom.
    GraphView* dag = f.window.stageDag()->view();
    QTest::keyClick(dag, Qt::Key_Up);
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("B"));
    QTest::keyClick(dag, Qt::Key_Up);
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("A"));
    QTest::keyClick(dag, Qt::Key_Up); // nothing above A: the selection stays
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("A"));
    QTest::keyClick(dag, Qt::Key_Down);
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("B"));
    QCOMPARE(f.window.stageDag()->scene()->selectedNodeIds(),
             QStringList{QStringLiteral("stage1")});
}

void MainWindowTest::tabbedDocksShowWholeTitles() {
    // Eleven docks share the bottom tab bar: at the default size it elided every title ("Lo…",
    // "Bo…"); whole titles scroll instead.
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    const QList<QTabBar*> bars =
        f.window.findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly);
    QVERIFY(!bars.isEmpty());
    bool bottomGroup = false;
    for (QTabBar* bar : bars) {
        QCOMPARE(bar->elideMode(), Qt::ElideNone);
        QVERIFY(bar->usesScrollButtons());
        for (int i = 0; i < bar->count(); ++i)
            bottomGroup |= bar->tabText(i) == QStringLiteral("Lowered IR");
    }
    QVERIFY(bottomGroup);
}

void MainWindowTest::helpListsTheKeys() {
    Fixture f;
    const QString html = f.window.shortcutsHtml();
    for (const char* expected : {"<b>S</b></td><td>Split…", "<b>Ctrl+Z</b></td><td>Undo",
                                 "<b>F1</b></td><td>Keyboard Shortcuts", "<i>Schedule</i>",
                                 "Arrow keys", "Ctrl++, Ctrl+-"})
        QVERIFY2(html.contains(QString::fromUtf8(expected)), expected);
}

void MainWindowTest::findSelectsTheStageAndTheTextInTheScriptAndIr() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    f.window.editorPanel()->editor()->setPlainText(
        QStringLiteral("x = 1\n# B is shared\ny = 2\n# B again\n"));
    const QString found = f.window.findText(QStringLiteral("B"));
    QVERIFY2(f.window.selection()->stage() == QStringLiteral("B"), qPrintable(found));
    QVERIFY2(found.startsWith(QStringLiteral("Found 'B': stage B, script line 2, IR line ")),
             qPrintable(found));
    QCOMPARE(f.window.editorPanel()->editor()->textCursor().selectedText(), QStringLiteral("B"));
    // Text that names no stage: found in the IR, where it stays selected.
    QVERIFY(f.window.findText(QStringLiteral("storage_scope")).contains(QStringLiteral("IR line")));
    QCOMPARE(f.window.irPanel()->textView()->textCursor().selectedText(),
             QStringLiteral("storage_scope"));
    f.window.findText(QStringLiteral("B"));
    // Again: the next occurrence, then around to the first.
    QVERIFY(f.window.findText(QStringLiteral("B")).contains(QStringLiteral("script line 4")));
    QVERIFY(f.window.findText(QStringLiteral("B")).contains(QStringLiteral("script line 2")));
    // An IterVar of a stage.
    QVERIFY(f.window.findText(QStringLiteral("j")).contains(QStringLiteral("IterVar j of ")));
    QCOMPARE(f.window.selection()->iterVar(), QStringLiteral("j"));
    QCOMPARE(f.window.findText(QStringLiteral("nowhere to be found")), QString());
}

void MainWindowTest::clickingADagNodeSelectsTheStageEverywhere() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    // The output is selected at first, so every view has something to show.
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("C"));
    f.clickNode(f.window.stageDag(), QStringLiteral("stage1"));
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("B"));
    QCOMPARE(f.window.stageDag()->scene()->selectedNodeIds(),
             QStringList{QStringLiteral("stage1")});
    QCOMPARE(f.window.inspector()->stage(), QStringLiteral("B"));
    // C requests [blockIdx.x, blockIdx.x] of B's axis 0 and the whole of axis 1: threadIdx.x is
    // relaxed because B is shared (seed Ex. 6).
    const StringTableModel* requests = f.window.inspector()->model(InspectorPanel::Table::Requests);
    QCOMPARE(requests->rowCount(), 2);
    QCOMPARE(requests->row(0).cells.value(0), QStringLiteral("C"));
    QCOMPARE(requests->row(1).cells.value(column(requests, QStringLiteral("Request"))),
             QStringLiteral("[0, 199]"));
    QVERIFY(requests->row(1)
                .cells.value(column(requests, QStringLiteral("Why")))
                .contains(QStringLiteral("threadIdx.x")));
    const StringTableModel* leaves = f.window.inspector()->model(InspectorPanel::Table::LeafSets);
    const int leafJ = leaves->findRow(QStringLiteral("C"), QStringLiteral("j"));
    QVERIFY(leafJ >= 0);
    QCOMPARE(leaves->row(leafJ).cells.value(column(leaves, QStringLiteral("Case"))),
             QStringLiteral("relax"));
    const StringTableModel* ranges = f.window.inspector()->model(InspectorPanel::Table::Union);
    QCOMPARE(ranges->row(1).cells.value(column(ranges, QStringLiteral("Range"))),
             QStringLiteral("min=0, ext=200"));
    QVERIFY(f.window.inspector()->summaryText().contains(QStringLiteral("shared (set)")));
    QCOMPARE(f.window.editorPanel()->editor()->linkedLine(), kSharedScopeLineOfB);
    QVERIFY(highlightedIr(f.window.irPanel()).contains(QStringLiteral("produce B {")));
    QVERIFY(!highlightedIr(f.window.irPanel()).contains(QStringLiteral("produce C {")));
    const QModelIndexList rows = f.window.bounds()->view()->selectionModel()->selectedRows();
    QVERIFY(!rows.isEmpty());
    for (const QModelIndex& row : rows)
        QCOMPARE(row.data(StringTableModel::StageRole).toString(), QStringLiteral("B"));
}

void MainWindowTest::selectedStageDrivesTheIterVarGraphAndAttachPath() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    f.window.selection()->select(QStringLiteral("B"));
    QVERIFY(waitForGraphs(f.window));
    const auto iterVars = f.window.iterVarGraph()->shownGraph();
    QVERIFY(iterVars);
    QCOMPARE(QString::fromStdString(iterVars->graph.name),
             QStringLiteral("IterVar relations of B"));
    // The attach tree highlights B and the path up to the root through C's blockIdx.x loop.
    const auto attach = f.window.attachTree()->shownGraph();
    QVERIFY(attach);
    int highlightedEdges = 0;
    for (const viz::GraphEdge& edge : attach->graph.edges)
        highlightedEdges += edge.highlighted ? 1 : 0;
    QCOMPARE(highlightedEdges, 2);
    QVERIFY(attach->graph.findNode("stage1")->highlighted);
    const auto requests = f.window.requestsGraph()->shownGraph();
    QVERIFY(requests);
    QVERIFY(requests->graph.findNode("consumer0"));
}

void MainWindowTest::clickingAnIterVarNodeSelectsTheIterVar() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    // C's IterVars are i (0) and j (1), both roots and leaves.
    f.clickNode(f.window.iterVarGraph(), QStringLiteral("iv2_1"));
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("C"));
    QCOMPARE(f.window.selection()->iterVar(), QStringLiteral("j"));
    QCOMPARE(f.window.iterVarGraph()->scene()->selectedNodeIds(),
             QStringList{QStringLiteral("iv2_1")});
    // j is bound to threadIdx.x: its thread_extent line is C's loop over j.
    QVERIFY(!f.window.irPanel()->highlightedLines().isEmpty());
}

void MainWindowTest::theSecondOfTwoStagesOfTheDefaultNameIsShownAsItself() {
    // te.compute's default name thrice: selecting the second `compute` showed the first in
    // every view. The schedule names them compute, compute_1, compute_2.
    Fixture f;
    f.window.resize(1400, 900);
    f.window.show();
    f.window.document()->setUntitled(
        QStringLiteral("import tvm\n"
                       "from tvm import te\n"
                       "X = te.placeholder((32, 32))\n"
                       "B = te.compute((32, 32), lambda i, j: X[i, j] * 2)\n"
                       "C = te.compute((32, 32), lambda i, j: B[i, j] + 1)\n"
                       "D = te.compute((32, 16), lambda i, j: C[i, j] + C[i, j + 16])\n"
                       "s = te.create_schedule(D.op)\n"
                       "io, ii = s[D].split(D.op.axis[0], factor=4)\n"
                       "s[C].compute_at(s[D], io)\n"),
        QStringLiteral("default_names.py"));
    QVERIFY(waitForAnalysis(*f.window.document()) && f.window.document()->analysis());
    QVERIFY(waitForGraphs(f.window));
    // Stages: placeholder, compute (B), compute_1 (C), compute_2 (D).
    f.clickNode(f.window.stageDag(), QStringLiteral("stage2"));
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("compute_1"));
    QCOMPARE(f.window.inspector()->stage(), QStringLiteral("compute_1"));
    QVERIFY2(f.window.inspector()->summaryText().contains(QStringLiteral("compute_2")),
             qPrintable(f.window.inspector()->summaryText()));
    QCOMPARE(f.window.editorPanel()->editor()->linkedLine(), 5);
    QVERIFY(highlightedIr(f.window.irPanel()).contains(QStringLiteral("produce compute_1 {")));
    QVERIFY(!highlightedIr(f.window.irPanel()).contains(QStringLiteral("produce compute {")));
}

void MainWindowTest::clickingAnIrLineSelectsItsStage() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    f.window.irPanel()->setPass(LowerPass::ScheduleOps);
    const QStringList lines = f.window.irPanel()->text().split(QLatin1Char('\n'));
    const int realizeB = int(lines.indexOf(QRegularExpression(QStringLiteral("^\\s*realize B.*"))));
    QVERIFY(realizeB >= 0);
    QPlainTextEdit* text = f.window.irPanel()->textView();
    text->setTextCursor(QTextCursor(text->document()->findBlockByNumber(realizeB)));
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("B"));
    QCOMPARE(f.window.selection()->iterVar(), QString());
    // B's store sits inside its produce block; the thread_extent line above C's store is the
    // loop of C's j.
    const int storeC = int(lines.indexOf(QRegularExpression(QStringLiteral("^\\s*C\\(.*"))));
    QVERIFY(f.window.irPanel()->chooseLine(storeC - 1));
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("C"));
    QCOMPARE(f.window.selection()->iterVar(), QStringLiteral("j"));
    QCOMPARE(f.window.stageDag()->scene()->selectedNodeIds(),
             QStringList{QStringLiteral("stage2")});
}

void MainWindowTest::choosingAStageInTheInspectorHighlightsItInTheDag() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    f.window.selection()->select(QStringLiteral("B"));
    auto* stages = f.window.inspector()->findChild<QComboBox*>();
    QVERIFY(stages);
    stages->setCurrentText(QStringLiteral("C"));
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("C"));
    QCOMPARE(f.window.stageDag()->scene()->selectedNodeIds(),
             QStringList{QStringLiteral("stage2")});
    QCOMPARE(f.window.editorPanel()->editor()->linkedLine(), kSharedScopeLineOfC);
    // A click on the background keeps the selection (it pans the view).
    QTest::mouseClick(f.window.stageDag()->view()->viewport(), Qt::LeftButton, Qt::NoModifier,
                      QPoint(2, 2));
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("C"));
}

void MainWindowTest::selectingABoundsRowSelectsItsStageAndIterVar() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    const StringTableModel* model = f.window.bounds()->model();
    const int row = model->findRow(QStringLiteral("B"), QStringLiteral("j"));
    QVERIFY(row >= 0);
    QTableView* view = f.window.bounds()->view();
    view->selectionModel()->setCurrentIndex(view->model()->index(row, 0),
                                            QItemSelectionModel::ClearAndSelect |
                                                QItemSelectionModel::Rows);
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("B"));
    QCOMPARE(f.window.selection()->iterVar(), QStringLiteral("j"));
    QCOMPARE(f.window.inspector()->stage(), QStringLiteral("B"));
    QVERIFY(waitForGraphs(f.window));
    QCOMPARE(f.window.iterVarGraph()->scene()->selectedNodeIds(),
             QStringList{QStringLiteral("iv1_1")});
}

void MainWindowTest::rulesSelectorChangesTheBoundsShown() {
    Fixture f;
    QVERIFY(f.show(fuseExample()));
    QCOMPARE(f.window.bounds()->rootElements(QStringLiteral("B")), qint64(8));
    QComboBox* rules = f.window.rulesSelector();
    rules->setCurrentIndex(rules->findText(QStringLiteral("tvm-0.5")));
    QVERIFY(waitForAnalysis(*f.window.document()));
    QCOMPARE(f.window.document()->rules(), BoundRules::Tvm05);
    QCOMPARE(f.window.bounds()->rootElements(QStringLiteral("B")), qint64(4096));
    QVERIFY(f.window.irPanel()->text().contains(QStringLiteral("allocate B[int32 * 4096]")));
}

void MainWindowTest::scriptErrorShowsTheMessageAndKeepsTheViews() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    f.window.selection()->select(QStringLiteral("B"));
    QVERIFY(waitForGraphs(f.window));
    const QString irBefore = f.window.irPanel()->text();
    const int boundsBefore = f.window.bounds()->model()->rowCount();

    f.window.document()->textDocument()->setPlainText(QStringLiteral("import tvm\nA = (\n"));
    QVERIFY(waitForAnalysis(*f.window.document()));
    QVERIFY(f.window.document()->problem().has_value());
    const QString banner = f.window.editorPanel()->bannerText();
    QVERIFY2(banner.contains(QStringLiteral("last successful analysis")), qPrintable(banner));
#if BOUNDSCOPE_WITH_PYTHON
    QCOMPARE(f.window.editorPanel()->editor()->problemLine(), 2);
    QVERIFY(banner.startsWith(QStringLiteral("Line 2:")));
#endif
    QCOMPARE(f.window.irPanel()->text(), irBefore);
    QCOMPARE(f.window.bounds()->model()->rowCount(), boundsBefore);
    QCOMPARE(int(f.window.stageDag()->shownGraph()->graph.nodes.size()), 3);
    QVERIFY(f.window.iterVarGraph()->shownGraph());
    QCOMPARE(f.window.inspector()->stage(), QStringLiteral("B"));
}

void MainWindowTest::irPassSelectorShowsEachPass() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    f.window.irPanel()->setPass(LowerPass::ScheduleOps);
    QVERIFY(f.window.irPanel()->text().contains(
        QStringLiteral("realize B([blockIdx.x, 1], [0, 200])")));
    f.window.irPanel()->setPass(LowerPass::Final);
    QVERIFY(f.window.irPanel()->text().contains(QStringLiteral("allocate B")));
    QVERIFY(!f.window.irPanel()->text().contains(QStringLiteral("realize B")));
}

void MainWindowTest::irPassSelectorListsTheScriptsPassesWhereTheyRun() {
    // A pass added with tir.add_lower_pass at phase 1 is a step of the pipeline, after simplify.
    const QString script = QStringLiteral(R"(import tvm
from tvm import te

a = te.placeholder((128,), name="a")
b = te.placeholder((128,), name="b")
c = te.compute((128,), lambda i: a[i] + b[i], name="c")
sch = te.create_schedule(c.op)


def vectorize8(op):
    if isinstance(op.extent, tvm.tir.IntImm) and op.extent.value % 8 == 0:
        lo, li = te.var(op.loop_var.name + ".outer"), te.var(op.loop_var.name + ".inner")
        body = tvm.tir.stmt_functor.substitute(op.body, {op.loop_var: lo * 8 + li})
        body = tvm.tir.For(li, 0, 8, tvm.tir.ForKind.VECTORIZED, body)
        return tvm.tir.For(lo, 0, op.extent.value // 8, tvm.tir.ForKind.SERIAL, body)
    return None


@tvm.tir.transform.prim_func_pass(opt_level=0)
def vectorize(f, mod, ctx):
    return f.with_body(tvm.tir.stmt_functor.ir_transform(f.body, None, vectorize8, ["tir.For"]))


with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, vectorize)]}):
    print(tvm.lower(sch, [a, b, c], simple_mode=True))
)");
    MainWindow window{MainWindow::Options{false, false}};
    window.document()->setUntitled(script, QStringLiteral("user_pass.py"));
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(window.document()->analysis() && window.document()->analysis()->lowered);
    QComboBox* passes = window.irPanel()->passSelector();
    QStringList entries;
    for (int i = 0; i < passes->count(); ++i)
        entries << passes->itemText(i);
    QCOMPARE(entries, (QStringList{QStringLiteral("schedule_ops"), QStringLiteral("flatten"),
                                   QStringLiteral("simplify"),
                                   QStringLiteral("vectorize (user pass, phase 1)"),
                                   QStringLiteral("cse"), QStringLiteral("final")}));
    QCOMPARE(passes->currentText(), QStringLiteral("final"));
    QVERIFY(window.irPanel()->text().contains(QStringLiteral("c[ramp(")));
    passes->setCurrentIndex(3);
    QCOMPARE(window.irPanel()->passName(), QStringLiteral("vectorize"));
    QVERIFY2(window.irPanel()->text().contains(QStringLiteral("vectorized (i.inner, 0, 8) {")),
             qPrintable(window.irPanel()->text()));
    QCOMPARE(window.irPanel()->loweredText(), window.irPanel()->text());
}

void MainWindowTest::openingAFailingScriptShowsNothingOfThePreviousOne() {
    // Issue 17, item 1: a file whose script fails before it builds a program must not show the
    // previous file's analysis under its name, nor get it back on a rules change.
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("good.py"));
    const QString bad = dir.filePath(QStringLiteral("bad.py"));
    QFile goodFile(good), badFile(bad);
    QVERIFY(goodFile.open(QIODevice::WriteOnly) && badFile.open(QIODevice::WriteOnly));
    goodFile.write("import tvm\nfrom tvm import te\nA = te.placeholder((8,), name='A')\n"
                   "Good = te.compute((8,), lambda i: A[i] * 2, name='Good')\n"
                   "s = te.create_schedule(Good.op)\n");
    badFile.write("import tvm\nA = (\n");
    goodFile.close();
    badFile.close();
    MainWindow window{MainWindow::Options{false, false}};
    window.resize(1200, 800);
    window.show();
    QString error;
    QVERIFY2(window.openFile(good, &error), qPrintable(error));
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(waitForGraphs(window));
    QVERIFY(window.irPanel()->text().contains(QStringLiteral("Good")));
    QVERIFY(window.stageDag()->scene()->nodeItem(QStringLiteral("stage1")));

    QVERIFY2(window.openFile(bad, &error), qPrintable(error));
    // While it runs, the views already say the new script is being analysed.
    QVERIFY(!window.document()->analysis()->program.defined());
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(waitForGraphs(window));
    QVERIFY(window.document()->problem().has_value());
    const Analysis& shown = *window.document()->analysis();
    QVERIFY(!shown.program.defined() && !shown.lowered);
    QVERIFY(window.document()->analysisIsCurrent());
    QCOMPARE(window.irPanel()->text(), QString());
    QVERIFY(!window.stageDag()->scene()->nodeItem(QStringLiteral("stage1")));
    QCOMPARE(window.bounds()->model()->rowCount(), 0);
    QCOMPARE(window.selection()->stage(), QString());
    const QString banner = window.editorPanel()->bannerText();
    QVERIFY2(!banner.contains(QStringLiteral("last successful analysis")), qPrintable(banner));
    // A rules change re-runs the new script; it has no old program to re-analyse.
    window.rulesSelector()->setCurrentIndex(
        window.rulesSelector()->findText(QStringLiteral("tvm-0.5")));
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(!window.document()->analysis()->program.defined());
    QCOMPARE(window.irPanel()->text(), QString());
}

void MainWindowTest::viewsAreMarkedOutOfDateDuringALongAnalysis() {
    // Issue 17, item 1: while an edit is re-analysed, the views say they show the previous
    // analysis; when it ends, they are current again.
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    QDockWidget* dag = f.window.dock(QStringLiteral("stageDagDock"));
    QCOMPARE(dag->windowTitle(), QStringLiteral("Stage DAG"));
    f.window.document()->textDocument()->setPlainText(
        sharedScopeScript() + QStringLiteral("\nimport time\ntime.sleep(1.5)\n"));
    f.window.document()->reanalyse();
    QVERIFY(QTest::qWaitFor([&] { return f.window.viewsMarkedOutOfDate(); }, 1400));
    QCOMPARE(dag->windowTitle(), QStringLiteral("Stage DAG (out of date: analysing the edit…)"));
    QCOMPARE(f.window.dock(QStringLiteral("outputDock"))->windowTitle(), QStringLiteral("Output"));
    QVERIFY(waitForAnalysis(*f.window.document()));
    QVERIFY(!f.window.viewsMarkedOutOfDate());
    QCOMPARE(dag->windowTitle(), QStringLiteral("Stage DAG"));
}

void MainWindowTest::exportsWriteValidFiles() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    QTemporaryDir dir;
    QString error;
    for (GraphPanel* panel : f.window.graphPanels()) {
        const QString base = dir.filePath(QString::fromLatin1(viz::graphKindName(panel->kind())));
        QVERIFY2(panel->exportTo(base + QStringLiteral(".png"), &error), qPrintable(error));
        QVERIFY(!QImage(base + QStringLiteral(".png")).isNull());
        QVERIFY2(panel->exportTo(base + QStringLiteral(".dot"), &error), qPrintable(error));
        QFile dot(base + QStringLiteral(".dot"));
        QVERIFY(dot.open(QIODevice::ReadOnly));
        QVERIFY(dot.readAll().startsWith("digraph"));
        if (!viz::graphvizAvailable())
            continue;
        QVERIFY2(panel->exportTo(base + QStringLiteral(".svg"), &error), qPrintable(error));
        QFile svg(base + QStringLiteral(".svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
    }
    // The report: one HTML file with the IR and, with Graphviz, every graph inline.
    const QString report = dir.filePath(QStringLiteral("report.html"));
    QVERIFY2(f.window.exportReport(report, &error), qPrintable(error));
    QFile html(report);
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QByteArray text = html.readAll();
    QVERIFY(text.startsWith("<!DOCTYPE html>"));
    QVERIFY(text.contains("produce C {"));
    if (viz::graphvizAvailable())
        QCOMPARE(text.count("<svg"), 5);
    // A failed export names the file and leaves nothing behind.
    const QString missing = dir.filePath(QStringLiteral("missing/dag.dot"));
    QVERIFY(!f.window.stageDag()->exportTo(missing, &error));
    QVERIFY2(error.contains(QStringLiteral("missing/dag.dot")), qPrintable(error));
    QVERIFY(!QFile::exists(missing));

    const QString json = dir.filePath(QStringLiteral("trace.json"));
    const std::string trace = f.window.document()->analysis()->lowered->bounds.trace.toJson();
    QVERIFY(writeFileAtomically(json, QByteArray::fromStdString(trace), &error));
    QFile jsonFile(json);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    const QJsonDocument parsed = QJsonDocument::fromJson(jsonFile.readAll());
    QCOMPARE(parsed.object().value(QStringLiteral("rules")).toString(), QStringLiteral("tvm"));
    QCOMPARE(parsed.object().value(QStringLiteral("stages")).toArray().size(), 3);
}

void MainWindowTest::docksCanBeAddedAndAreListedInTheViewMenu() {
    MainWindow window(MainWindow::Options{false, false});
    auto* content = new QWidget;
    QDockWidget* dock =
        window.addDock(content, QStringLiteral("Extra"), QStringLiteral("extraDock"),
                       Qt::BottomDockWidgetArea, window.dock(QStringLiteral("loweredIrDock")));
    QCOMPARE(window.dock(QStringLiteral("extraDock")), dock);
    QVERIFY(window.viewMenu()->actions().contains(dock->toggleViewAction()));
    QVERIFY(
        window.tabifiedDockWidgets(dock).contains(window.dock(QStringLiteral("loweredIrDock"))));
}

void MainWindowTest::bigGraphsStayLegibleUntilFitIsAsked() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    // A small window: the three stages of the DAG do not fit at a readable size.
    f.window.resize(700, 400);
    QVERIFY(QTest::qWaitFor([&] { return f.window.stageDag()->view()->height() < 150; }));
    GraphView* view = f.window.stageDag()->view();
    view->fitLegibly();
    QCOMPARE(view->zoom(), legibleZoom());
    // The selected output C is in view.
    const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
    QVERIFY(visible.intersects(f.window.stageDag()->scene()->selectionRect()));
    // The Fit button neither: the text never gets smaller than the app's (the graph scrolls).
    view->fitGraph();
    QCOMPARE(view->zoom(), legibleZoom());
    QVERIFY(view->zoom() * 10 >= QFontInfo(QApplication::font()).pixelSize());
    // Zoomed out by hand, the nodes show their names only, at the app's text size.
    view->zoomOut();
    view->zoomOut();
    QVERIFY(view->zoom() < legibleZoom());
    QVERIFY(GraphNodeItem::drawsNameOnly(view->zoom()));
    QVERIFY(!GraphNodeItem::drawsNameOnly(legibleZoom()));
    QCOMPARE(f.window.stageDag()->scene()->nodeItem(QStringLiteral("stage1"))->shortName(),
             QStringLiteral("B"));
}

void MainWindowTest::generatedCodeIsMadeOffTheGuiThread() {
    Fixture f;
    QVERIFY(f.show(sharedScopeExample()));
    CodePanel* code = f.window.codePanel();
    f.window.dock(QStringLiteral("generatedCodeDock"))->raise();
    QVERIFY(QTest::qWaitFor([code] { return code->isCurrent(); }, kAnalysisTimeoutMs));
    // A new analysis: the analysis ends before the code of it is shown (a worker makes it),
    // and the old code stays meanwhile.
    const QString before = code->findChild<QPlainTextEdit*>()->toPlainText();
    QSignalSpy shown(code, &CodePanel::codeShown);
    f.window.rulesSelector()->setCurrentIndex(
        f.window.rulesSelector()->findText(QStringLiteral("tvm-0.5")));
    QVERIFY(waitForAnalysis(*f.window.document()));
    QVERIFY(!code->isCurrent());
    QCOMPARE(code->findChild<QPlainTextEdit*>()->toPlainText(), before);
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY(code->isCurrent());
    QVERIFY2(code->code().text.contains(QStringLiteral("__shared__ float B[200];")),
             qPrintable(code->code().text + code->code().message));
}

BS_GUI_TEST_SUITE(MainWindowTest);

} // namespace bs::gui::test

#include "MainWindowTest.moc"
