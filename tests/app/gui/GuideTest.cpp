// Help > Guide (issue 18, item 5): the guide renders with its chapters, every link in it names
// an example or a dock that exists, and following them opens the example and raises the dock.
#include "GuiTestSupport.h"

#include "AppOptions.h"
#include "document/ExampleCatalog.h"
#include "views/GuideBrowser.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QtTest>

namespace bs::gui::test {

class GuideTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyLinkNamesAnExampleOrADock();
    void theGuideOpensExamplesAndRaisesDocks();
};

void GuideTest::everyLinkNamesAnExampleOrADock() {
    const QString path = guideFile();
    QVERIFY2(!path.isEmpty(), "resources/guide/guide.md not found");
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString markdown = QString::fromUtf8(file.readAll());
    static const QRegularExpression link(QStringLiteral("\\(boundscope:(\\w+)/([\\w.]+)\\)"));
    int examples = 0;
    int docks = 0;
    for (auto it = link.globalMatch(markdown); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        if (m.captured(1) == QLatin1String("example")) {
            ++examples;
            QVERIFY2(!findExample(examplesDirectory(), m.captured(2)).isEmpty(),
                     qPrintable(m.captured(2)));
        } else {
            QCOMPARE(m.captured(1), QStringLiteral("show"));
            ++docks;
            QVERIFY2(!dockObjectName(m.captured(2)).isEmpty(), qPrintable(m.captured(2)));
        }
    }
    QVERIFY(examples >= 8);
    QVERIFY(docks >= 8);
}

void GuideTest::theGuideOpensExamplesAndRaisesDocks() {
    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    QAction* guide = nullptr;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text().remove(u'&') == QStringLiteral("Help"))
            for (QAction* action : menu->menu()->actions())
                if (action->text().remove(u'&') == QStringLiteral("Guide"))
                    guide = action;
    QVERIFY(guide);
    guide->trigger();
    GuideBrowser* browser = window.guideBrowser();
    QVERIFY(browser && browser->isVisible());
    QCOMPARE(browser->chapterTitles().size(), 8);
    QCOMPARE(browser->chapterTitles().first(), QStringLiteral("1. One stage after another"));
    QVERIFY(browser->toPlainText().contains(QStringLiteral("InferBound is the pass of TVM")));

    browser->follow(QUrl(QStringLiteral("boundscope:example/gather_disjoint")));
    QVERIFY(waitForAnalysis(*window.document()));
    QCOMPARE(window.document()->scriptName(), QStringLiteral("gather_disjoint.py"));
    QDockWidget* heatmap = window.dock(QStringLiteral("heatmapDock"));
    QVERIFY(heatmap);
    window.dock(QStringLiteral("loweredIrDock"))->raise();
    QVERIFY(heatmap->visibleRegion().isEmpty()); // a tab behind the IR
    browser->follow(QUrl(QStringLiteral("boundscope:show/heatmap")));
    QTRY_VERIFY(!heatmap->visibleRegion().isEmpty());
}

BS_GUI_TEST_SUITE(GuideTest);

} // namespace bs::gui::test

#include "GuideTest.moc"
