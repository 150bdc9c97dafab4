// Every example script opens in the main window and populates every view without errors
// (issue 7, item 8): the script runs on the Python thread, the Analysis reaches every panel,
// and the graphs are laid out by Graphviz on the worker thread.
#include "GuiTestSupport.h"

#include "document/ExampleCatalog.h"
#include "document/GraphLayouter.h"
#include "models/StringTableModel.h"
#include "panels/BoundsPanel.h"
#include "panels/CodePanel.h"
#include "panels/EditorPanel.h"
#include "panels/GraphPanel.h"
#include "panels/InspectorPanel.h"
#include "panels/IrPanel.h"
#include "views/HintTableView.h"

#include <QDir>
#include <QtTest>

#include <algorithm>
#include <memory>

namespace bs::gui::test {

class ExamplesTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void everyExamplePopulatesEveryView_data();
    void everyExamplePopulatesEveryView();
    void theScanExampleShowsTheScansLoopAndItsUpdate();

private:
    std::unique_ptr<MainWindow> m_window;
};

void ExamplesTest::initTestCase() {
    m_window = std::make_unique<MainWindow>(MainWindow::Options{false, false});
    m_window->resize(1400, 900);
    m_window->show();
}

void ExamplesTest::cleanupTestCase() { m_window.reset(); }

void ExamplesTest::everyExamplePopulatesEveryView_data() {
    QTest::addColumn<QString>("path");
    const QList<ExampleInfo> examples = listExamples(examplesDirectory());
    QVERIFY2(examples.size() >= 20, "resources/examples not found");
    for (const ExampleInfo& example : examples)
        QTest::newRow(qPrintable(example.name)) << example.path;
}

void ExamplesTest::everyExamplePopulatesEveryView() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("built without the Python front end");
#endif
    QFETCH(QString, path);
    MainWindow& window = *m_window;
    QString error;
    QVERIFY2(window.openExample(path, &error), qPrintable(error));
    QVERIFY(waitForAnalysis(*window.document()));
    const auto& problem = window.document()->problem();
    QVERIFY2(!problem, problem ? problem->toString().c_str() : "");
    QVERIFY(window.editorPanel()->bannerText().isEmpty());
    QVERIFY(waitForGraphs(window));
    QVERIFY(!window.selection()->stage().isEmpty());
    for (GraphPanel* panel : window.graphPanels()) {
        const auto graph = panel->shownGraph();
        QVERIFY2(graph && !graph->graph.nodes.empty(), qPrintable(panel->caption()));
        QCOMPARE(graph->layout.nodes.size(), graph->graph.nodes.size());
    }
    QVERIFY(window.irPanel()->text().contains(QStringLiteral("produce")));
    QVERIFY(!window.irPanel()->highlightedLines().isEmpty());
    QVERIFY(window.bounds()->model()->rowCount() > 0);
    // An extern stage has no loops: the union table says why instead.
    const HintTableView* unionView = window.inspector()->view(InspectorPanel::Table::Union);
    QVERIFY2(window.inspector()->model(InspectorPanel::Table::Union)->rowCount() > 0 ||
                 (unionView->isShowingEmptyText() &&
                  unionView->emptyText().contains(QLatin1String("is an extern stage"))),
             qPrintable(window.selection()->stage()));
    const GeneratedCode& code = window.codePanel()->code();
    QVERIFY(!code.text.isEmpty() || !code.message.isEmpty());
    // A GPU schedule gets CUDA C, or the CUDA backend's reason (warp storage is not supported).
    if (QFileInfo(path).fileName().startsWith(QLatin1String("gpu_")))
        QVERIFY2(code.language == QStringLiteral("CUDA C") ||
                     code.message.contains(QLatin1String("CUDA")),
                 qPrintable(code.message));
    // A reason in the app's words: no command-line flags.
    QVERIFY2(!code.message.contains(QLatin1String("--target")), qPrintable(code.message));
}

void ExamplesTest::theScanExampleShowsTheScansLoopAndItsUpdate() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("built without the Python front end");
#endif
    MainWindow& window = *m_window;
    QString error;
    QVERIFY2(window.openExample(
                 QDir(examplesDirectory()).filePath(QStringLiteral("scan_cumsum.py")), &error),
             qPrintable(error));
    QVERIFY(waitForAnalysis(*window.document()));
    window.selection()->select(QStringLiteral("s_update"));
    QVERIFY(waitForGraphs(window));
    // The update is computed in the scan's loop, and its columns span the scan's spatial axis.
    const QString summary = window.inspector()->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("in every step of scan s_scan (its update)")),
             qPrintable(summary));
    const StringTableModel* requests = window.inspector()->model(InspectorPanel::Table::Requests);
    QCOMPARE(requests->rowCount(), 2);
    QVERIFY(requests->row(1)
                .cells.join(QLatin1Char(' '))
                .contains(QStringLiteral("spatial axis of the scan")));
    // The DAG draws the scan's body as a box and the loop back to the state.
    const auto dag = window.stageDag()->shownGraph();
    QVERIFY(dag);
    QVERIFY(std::any_of(dag->graph.clusters.begin(), dag->graph.clusters.end(),
                        [](const viz::GraphCluster& c) { return c.label == "s_scan.body"; }));
    QVERIFY(
        std::any_of(dag->graph.edges.begin(), dag->graph.edges.end(), [](const viz::GraphEdge& e) {
            return e.style == viz::EdgeStyle::ScanState && e.label == "next step reads s_scan";
        }));
}

BS_GUI_TEST_SUITE(ExamplesTest);

} // namespace bs::gui::test

#include "ExamplesTest.moc"
