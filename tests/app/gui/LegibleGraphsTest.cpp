// A 50-stage pipeline stays usable (issue 17, item 7): the stage DAG draws the long chain as
// one node that a click expands, a selected stage inside it is never hidden, Collapse folds it
// again, and after Fit the text is never smaller than the app's own.
#include "GuiTestSupport.h"

#include "panels/GraphPanel.h"
#include "views/GraphItems.h"
#include "views/GraphScene.h"
#include "views/GraphView.h"
#include "viz/CollapseChains.h"

#include <QTextDocument>
#include <QToolButton>
#include <QtTest>

namespace bs::gui::test {

namespace {

const char* const kPipeline = "import tvm\n"
                              "from tvm import te\n"
                              "def add_one(t, k):\n"
                              "    return te.compute((64,), lambda i: t[i] + 1.0, name=f\"S{k}\")\n"
                              "t = te.placeholder((64,), name=\"A\")\n"
                              "for k in range(1, 51):\n"
                              "    t = add_one(t, k)\n"
                              "s = te.create_schedule(t.op)\n";

struct Fixture {
    MainWindow window{MainWindow::Options{false, false}};

    Fixture() {
        window.resize(1400, 900);
        window.show();
    }

    bool open(const QString& script) {
        window.document()->textDocument()->setPlainText(script);
        window.document()->reanalyse();
        return waitForAnalysis(*window.document()) && !window.document()->problem() &&
               waitForGraphs(window);
    }

    const viz::Graph& dag() const { return window.stageDag()->shownGraph()->graph; }
};

QStringList nodeTitles(const viz::Graph& graph) {
    QStringList titles;
    for (const viz::GraphNode& node : graph.nodes)
        titles << QString::fromStdString(node.title.substr(0, node.title.find('\n')));
    return titles;
}

} // namespace

class LegibleGraphsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aFiftyStageChainIsOneNodeUntilClicked();
    void aStageSelectedBeforeTheFirstLayoutIsShown();
};

void LegibleGraphsTest::aFiftyStageChainIsOneNodeUntilClicked() {
    Fixture f;
    QVERIFY(f.open(QString::fromLatin1(kPipeline)));
    // The output S50 is selected; S1 and S49 end the chain, the 47 between are one node.
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("S50"));
    QCOMPARE(nodeTitles(f.dag()),
             (QStringList{QStringLiteral("A"), QStringLiteral("S1"), QStringLiteral("47 stages"),
                          QStringLiteral("S49"), QStringLiteral("S50")}));
    // After Fit the whole DAG is drawn with text as big as the app's.
    GraphView* view = f.window.stageDag()->view();
    view->fitGraph();
    QVERIFY(view->zoom() >= legibleZoom());
    // Selecting a stage inside the chain (from any view) opens it.
    f.window.selection()->select(QStringLiteral("S20"));
    QVERIFY(waitForGraphs(f.window));
    QCOMPARE(f.dag().nodes.size(), 51u);
    QVERIFY(f.window.stageDag()->scene()->selectedNodeIds().contains(QStringLiteral("stage20")));
    // Collapse folds it again, and keeps it folded while the selection is elsewhere.
    f.window.selection()->select(QStringLiteral("S50"));
    auto* collapse = f.window.stageDag()->findChild<QToolButton*>();
    for (QToolButton* button : f.window.stageDag()->findChildren<QToolButton*>()) {
        if (button->text() == QStringLiteral("Collapse"))
            collapse = button;
    }
    QVERIFY(collapse && collapse->text() == QStringLiteral("Collapse") && collapse->isEnabled());
    collapse->click();
    QVERIFY(waitForGraphs(f.window));
    QCOMPARE(f.dag().nodes.size(), 5u);
    QVERIFY(!collapse->isEnabled());
    // Clicking the chain node opens it.
    GraphNodeItem* chain =
        f.window.stageDag()->scene()->nodeItem(QStringLiteral("chain_stage2_stage48"));
    QVERIFY(chain);
    view->centerOn(chain);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier,
                      view->mapFromScene(chain->sceneBoundingRect().center()));
    QVERIFY(waitForGraphs(f.window));
    QCOMPARE(f.dag().nodes.size(), 51u);
    QVERIFY(collapse->isEnabled());
}

void LegibleGraphsTest::aStageSelectedBeforeTheFirstLayoutIsShown() {
    // As the screenshot mode does: the selection comes before any layout has arrived.
    Fixture f;
    f.window.document()->textDocument()->setPlainText(QString::fromLatin1(kPipeline));
    f.window.document()->reanalyse();
    QVERIFY(waitForAnalysis(*f.window.document()));
    f.window.selection()->select(QStringLiteral("S25"));
    QVERIFY(waitForGraphs(f.window));
    QCOMPARE(f.dag().nodes.size(), 51u);
    QVERIFY(f.window.stageDag()->scene()->selectedNodeIds().contains(QStringLiteral("stage25")));
}

BS_GUI_TEST_SUITE(LegibleGraphsTest);

} // namespace bs::gui::test

#include "LegibleGraphsTest.moc"
