// Tensor Comprehensions files in the app (issue 8, items 1-2): a `.tc` file opens from the File
// menu's paths (open, recent, drag and drop, Examples), is highlighted as TC, is analysed as its
// default schedule so every view shows it, and the TC Ranges dock puts TC's input-driven ranges
// beside InferBound's consumer-driven ones. A TC error marks its line and keeps the last good
// views.
#include "GuiTestSupport.h"

#include "analysis/TcSource.h"
#include "document/ExampleCatalog.h"
#include "document/GraphLayouter.h"
#include "document/RecentFiles.h"
#include "edit/ScheduleEditor.h"
#include "edit/ScheduleTools.h"
#include "models/StringTableModel.h"
#include "models/TcRangeRows.h"
#include "panels/AllocationsPanel.h"
#include "panels/BoundsPanel.h"
#include "panels/EditorPanel.h"
#include "panels/GraphPanel.h"
#include "panels/InspectorPanel.h"
#include "panels/IrPanel.h"
#include "panels/RunPanel.h"
#include "panels/TcRangesPanel.h"
#include "views/Highlighters.h"
#include "views/HintTableView.h"
#include "views/ScriptEditor.h"

#include <QMenuBar>
#include <QMimeData>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

namespace bs::gui::test {

namespace {

constexpr int kRunTimeoutMs = 120000;

QString tcMatmulPath() { return findExample(examplesDirectory(), QStringLiteral("tc_matmul.tc")); }

/// The rows of the TC Ranges table as text, `cell | cell | ...`.
QStringList tableText(const StringTableModel& model) {
    QStringList rows;
    for (int r = 0; r < model.rowCount(); ++r)
        rows << model.row(r).cells.join(QStringLiteral(" | "));
    return rows;
}

/// The action titled `text` in the menu bar's menu titled `menuTitle`, or null.
QAction* menuAction(QMainWindow& window, const QString& menuTitle, const QString& text) {
    for (QAction* top : window.menuBar()->actions()) {
        if (top->text() != menuTitle || !top->menu())
            continue;
        for (QAction* action : top->menu()->actions())
            if (action->text() == text)
                return action;
    }
    return nullptr;
}

/// The rows tc_matmul.tc gives under any rules: its default schedule is TC's own ranges.
const QStringList kMatmulRows = {
    QStringLiteral("m | 0 <= m < M | 0 <= m < M | ✓ equal | 8: C(m, n) +=! A(m, r_k) * B(r_k, n)"),
    QStringLiteral("n | 0 <= n < N | 0 <= n < N | ✓ equal | 8: C(m, n) +=! A(m, r_k) * B(r_k, n)"),
    QStringLiteral(
        "r_k | 0 <= r_k < K | 0 <= r_k < K | ✓ equal | 8: C(m, n) +=! A(m, r_k) * B(r_k, n)")};

} // namespace

class TcDocumentTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void openingTcMatmulPopulatesEveryView();
    void examplesMenuAndRecentFilesOpenTcFiles();
    void droppedTcFileOpens();
    void tcErrorMarksItsLineAndKeepsTheViews();
    void scheduleEditsAreRefusedWithTheReason();
    void savingAsTcAnalysesTheTextAsTc();
    void scriptCallingTcShowsItsRanges();
    void scriptWithoutTcSaysSoInOneLine();
    void rowsCompareAnAttachedStage();

private:
    bool openAndWait(const QString& path);

    std::unique_ptr<MainWindow> m_window;
};

void TcDocumentTest::init() {
    m_window = std::make_unique<MainWindow>(MainWindow::Options{false, false});
    m_window->resize(1400, 900);
    m_window->show();
}

void TcDocumentTest::cleanup() { m_window.reset(); }

bool TcDocumentTest::openAndWait(const QString& path) {
    QString error;
    if (!m_window->openFile(path, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return waitForAnalysis(*m_window->document()) && !m_window->document()->problem();
}

void TcDocumentTest::openingTcMatmulPopulatesEveryView() {
    MainWindow& window = *m_window;
    QVERIFY2(!tcMatmulPath().isEmpty(), "resources/examples/tc_matmul.tc not found");
    QVERIFY(openAndWait(tcMatmulPath()));
    QVERIFY(window.document()->isTcSource());
    QVERIFY(qobject_cast<TcHighlighter*>(window.editorPanel()->highlighter()));
    QVERIFY(window.editorPanel()->bannerText().isEmpty());
    QCOMPARE(window.selection()->stage(), QStringLiteral("C"));
    QVERIFY(waitForGraphs(window));
    for (GraphPanel* panel : window.graphPanels()) {
        const auto graph = panel->shownGraph();
        QVERIFY2(graph && !graph->graph.nodes.empty(), qPrintable(panel->caption()));
    }
    QVERIFY(window.irPanel()->text().contains(QStringLiteral("for (r_k, 0, K)")));
    QCOMPARE(window.bounds()->model()->rowCount(), 6);
    QVERIFY(window.inspector()->model(InspectorPanel::Table::Union)->rowCount() > 0);

    AllocationsPanel* allocations = window.scheduleTools()->allocations();
    QVERIFY(
        QTest::qWaitFor([allocations] { return !allocations->isComputing(); }, kAnalysisTimeoutMs));
    QVERIFY2(allocations->report(), qPrintable(allocations->statusText()));
    QVERIFY(allocations->model()->findRow(QStringLiteral("C")) >= 0);

    RunPanel* run = window.scheduleTools()->run();
    run->setTarget(RunTarget::Cpu);
    run->setRepeat(1);
    QSignalSpy finished(run, &RunPanel::runFinished);
    QVERIFY(run->run(false));
    QVERIFY(finished.wait(kRunTimeoutMs));
    if (runHasLlvm())
        QVERIFY2(run->lastError().isEmpty(), qPrintable(run->lastError()));
    else
        QVERIFY(!run->lastError().isEmpty());

    TcRangesPanel* ranges = window.tcRanges();
    QCOMPARE(tableText(*ranges->model()), kMatmulRows);
    QVERIFY(ranges->summary().contains(QStringLiteral("matmul")));
    QVERIFY(ranges->warnings().isEmpty());
    QVERIFY(!ranges->view()->isHidden());
}

void TcDocumentTest::examplesMenuAndRecentFilesOpenTcFiles() {
    MainWindow& window = *m_window;
    QAction* example =
        menuAction(window, QStringLiteral("E&xamples"), QStringLiteral("tc_matmul.tc"));
    QVERIFY2(example, "the Examples menu does not list tc_matmul.tc");
    example->trigger();
    QVERIFY(waitForAnalysis(*window.document()));
    QCOMPARE(window.document()->scriptName(), QStringLiteral("tc_matmul.tc"));
    QCOMPARE(window.tcRanges()->model()->rowCount(), 3);

    QVERIFY(openAndWait(tcMatmulPath()));
    QCOMPARE(RecentFiles().files().value(0), QFileInfo(tcMatmulPath()).absoluteFilePath());
    QVERIFY(openAndWait(findExample(examplesDirectory(), QStringLiteral("default"))));
    QCOMPARE(window.tcRanges()->model()->rowCount(), 0);
    QMenu* recent = nullptr;
    for (QAction* top : window.menuBar()->actions())
        for (QAction* action : top->menu() ? top->menu()->actions() : QList<QAction*>())
            if (action->menu() && action->text() == QStringLiteral("Open &Recent"))
                recent = action->menu();
    QVERIFY(recent);
    Q_EMIT recent->aboutToShow();
    QAction* entry = nullptr;
    for (QAction* action : recent->actions())
        if (action->text() == QStringLiteral("tc_matmul.tc"))
            entry = action;
    QVERIFY2(entry, "Open Recent does not list tc_matmul.tc");
    entry->trigger();
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(window.document()->isTcSource());
    QCOMPARE(tableText(*window.tcRanges()->model()), kMatmulRows);
}

void TcDocumentTest::droppedTcFileOpens() {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(tcMatmulPath())});
    const QPoint at(200, 200);
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_window.get(), &enter);
    QVERIFY2(enter.isAccepted(), "a .tc file is refused by the drag");
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_window.get(), &drop);
    QCOMPARE(m_window->document()->filePath(), QFileInfo(tcMatmulPath()).absoluteFilePath());
    QVERIFY(waitForAnalysis(*m_window->document()));
    QCOMPARE(m_window->tcRanges()->model()->rowCount(), 3);
}

void TcDocumentTest::tcErrorMarksItsLineAndKeepsTheViews() {
    MainWindow& window = *m_window;
    QVERIFY(openAndWait(tcMatmulPath()));
    QVERIFY(waitForGraphs(window));
    const QString irBefore = window.irPanel()->text();

    window.document()->textDocument()->setPlainText(
        QStringLiteral("def f(float(N) A) -> (B) {\n    B(i) = A(S(0) * i)\n}\n"));
    QVERIFY(waitForAnalysis(*window.document()));
    const auto& problem = window.document()->problem();
    QVERIFY(problem.has_value());
    QCOMPARE(problem->location.line, 2);
    QCOMPARE(window.editorPanel()->editor()->problemLine(), 2);
    const QString banner = window.editorPanel()->bannerText();
    QVERIFY2(banner.startsWith(QStringLiteral("Line 2: col ")), qPrintable(banner));
    QVERIFY2(banner.contains(QStringLiteral("last successful analysis")), qPrintable(banner));
    QCOMPARE(window.irPanel()->text(), irBefore);
    QCOMPARE(tableText(*window.tcRanges()->model()), kMatmulRows);
    QCOMPARE(window.bounds()->model()->rowCount(), 6);

    window.document()->textDocument()->setPlainText(
        QStringLiteral("def f(float(N) A) -> (B) {\n    B(i) = A(i) *\n}\n"));
    QVERIFY(waitForAnalysis(*window.document()));
    QCOMPARE(window.editorPanel()->editor()->problemLine(), 3);
}

void TcDocumentTest::scheduleEditsAreRefusedWithTheReason() {
    QVERIFY(openAndWait(tcMatmulPath()));
    const QString why = m_window->scheduleTools()->editor()->blocker();
    QVERIFY2(why.contains(QStringLiteral(".tc file")), qPrintable(why));
}

void TcDocumentTest::savingAsTcAnalysesTheTextAsTc() {
    QFile source(tcMatmulPath());
    QVERIFY(source.open(QIODevice::ReadOnly));
    ScriptDocument& document = *m_window->document();
    document.setUntitled(QString::fromUtf8(source.readAll()), QStringLiteral("untitled.py"));
    QVERIFY(waitForAnalysis(document));
    QVERIFY2(document.problem(), "TC text analysed as Python should fail");
    QVERIFY(qobject_cast<PythonHighlighter*>(m_window->editorPanel()->highlighter()));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(document.saveAs(dir.filePath(QStringLiteral("saved.tc")), &error), qPrintable(error));
    QVERIFY(waitForAnalysis(document));
    QVERIFY(!document.problem());
    QVERIFY(qobject_cast<TcHighlighter*>(m_window->editorPanel()->highlighter()));
    QCOMPARE(tableText(*m_window->tcRanges()->model()), kMatmulRows);
}

void TcDocumentTest::scriptCallingTcShowsItsRanges() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("built without the Python front end");
#endif
    MainWindow& window = *m_window;
    QVERIFY(openAndWait(findExample(examplesDirectory(), QStringLiteral("tc_stencil"))));
    QVERIFY(qobject_cast<PythonHighlighter*>(window.editorPanel()->highlighter()));
    QCOMPARE(tableText(*window.tcRanges()->model()),
             (QStringList{QStringLiteral("i | 0 <= i < 1020 | 0 <= i < 1020 | ✓ equal | "
                                         "3: A(i) +=! B(i + k) * K(k)"),
                          QStringLiteral("k | 0 <= k < 5 | 0 <= k < 5 | ✓ equal | "
                                         "3: A(i) +=! B(i + k) * K(k)")}));
    QVERIFY(window.tcRanges()->summary().contains(QStringLiteral("conv1d")));
    // Selecting a row selects its IterVar everywhere.
    window.tcRanges()->view()->selectRow(1);
    QCOMPARE(window.selection()->stage(), QStringLiteral("A"));
    QCOMPARE(window.selection()->iterVar(), QStringLiteral("k"));
}

void TcDocumentTest::scriptWithoutTcSaysSoInOneLine() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("built without the Python front end");
#endif
    QVERIFY(openAndWait(findExample(examplesDirectory(), QStringLiteral("default"))));
    TcRangesPanel* ranges = m_window->tcRanges();
    QVERIFY(ranges->summary().startsWith(
        QStringLiteral("This program does not come from Tensor Comprehensions")));
    QVERIFY(!ranges->summary().contains(QLatin1Char('\n')));
    QVERIFY(ranges->view()->isHidden());
    QCOMPARE(ranges->model()->rowCount(), 0);
}

void TcDocumentTest::rowsCompareAnAttachedStage() {
    // The model without widgets: a TC program scheduled in C++, its producer attached inside a
    // split loop of its consumer, so InferBound needs 8 values of A per iteration.
    Program program = tcSourceProgram("def two(float(64) B) -> (A, D) {\n"
                                      "    A(i) = B(i) * 2\n"
                                      "    D(j) = A(j) + 1\n"
                                      "}\n",
                                      "two.tc");
    const auto& built = *program.tcPrograms.front();
    Schedule s = createSchedule(built.outputs[1].op);
    Stage d = s[built.outputs[1]];
    auto split = d.split(built.outputs[1].op.as<ComputeOpNode>()->axis[0], 8);
    s[built.outputs[0]].computeAt(d, split.first);
    Program scheduled(s, defaultArguments(s), false);
    scheduled.tcPrograms = program.tcPrograms;
    const Analysis analysis = analyze(scheduled);
    QVERIFY(analysis.ok());
    const QList<TableRow> rows = tcRangeRows(analysis);
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[0].cells, (QStringList{QStringLiteral("i"), QStringLiteral("0 <= i < 64"),
                                         QStringLiteral("j.outer*8 <= i < j.outer*8 + 8"),
                                         QStringLiteral("≠ InferBound narrower"),
                                         QStringLiteral("2: A(i) = B(i) * 2")}));
    QCOMPARE(rows[0].stage, QStringLiteral("A"));
    QCOMPARE(rows[0].iterVar, QStringLiteral("i"));
    QCOMPARE(rows[1].cells.value(3), QStringLiteral("✓ equal"));
    QVERIFY(tcWarningLines(analysis).isEmpty());
    Analysis withoutTc = analysis;
    withoutTc.program.tcPrograms.clear();
    QVERIFY(tcRangeRows(withoutTc).isEmpty());
    QVERIFY(tcRangesSummary(withoutTc).startsWith(QStringLiteral("This program does not come")));
}

BS_GUI_TEST_SUITE(TcDocumentTest);

} // namespace bs::gui::test

#include "TcDocumentTest.moc"
