// The command line of boundscope-gui (AppOptions.h), which scripts/screenshots.sh drives: every
// dock can be raised by its short name, the kernel can be run before the picture, and a bad
// argument is one message that names it; `--step` names a step of the Step-through.
#include "GuiTestSupport.h"

#include "AppOptions.h"

#include <QDir>
#include <QFile>
#include <QtTest>

namespace bs::gui::test {

namespace {

std::optional<AppOptions> parse(const QStringList& arguments, QString* error) {
    return parseAppOptions(QStringList{QStringLiteral("boundscope-gui")} + arguments, error);
}

} // namespace

class AppOptionsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyDockHasAShortNameThatNamesARealDock();
    void runBeforeTheScreenshotIsCheckOrTime();
    void badArgumentsAreNamedInTheMessage();
    void aScreenshotOfAStageOrLoopThatIsNotThereFails();
    void stepIsAnIdAPhaseOrAPhaseAndRulePrefix();
};

void AppOptionsTest::everyDockHasAShortNameThatNamesARealDock() {
    MainWindow window(MainWindow::Options{false, false});
    for (const char* name : {"dag", "itervar", "attach", "requests", "inspector", "steps", "ir",
                             "code", "bounds", "allocations", "run"}) {
        const QString object = dockObjectName(QLatin1String(name));
        QVERIFY2(!object.isEmpty() && window.dock(object), name);
    }
    QString error;
    const auto options =
        parse({QStringLiteral("--show"), QStringLiteral("allocations,run")}, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->showDocks,
             (QStringList{QStringLiteral("allocations"), QStringLiteral("run")}));
}

void AppOptionsTest::runBeforeTheScreenshotIsCheckOrTime() {
    QString error;
    QVERIFY(!parse({}, &error)->runCheck);
    QCOMPARE(parse({QStringLiteral("--run"), QStringLiteral("check")}, &error)->runCheck, true);
    QCOMPARE(parse({QStringLiteral("--run"), QStringLiteral("time")}, &error)->runCheck, false);
}

void AppOptionsTest::badArgumentsAreNamedInTheMessage() {
    QString error;
    QVERIFY(!parse({QStringLiteral("--run"), QStringLiteral("fast")}, &error));
    QCOMPARE(error, QStringLiteral("unknown run 'fast' (check, time)"));
    QVERIFY(!parse({QStringLiteral("--show"), QStringLiteral("dag,nope")}, &error));
    QVERIFY2(error.startsWith(QStringLiteral("unknown dock 'nope'")), qPrintable(error));
    QVERIFY2(error.endsWith(QStringLiteral("tc, output)")), qPrintable(error)); // every dock
}

void AppOptionsTest::aScreenshotOfAStageOrLoopThatIsNotThereFails() {
    // Ignored, it would draw a picture of something else: the run fails with the names.
    QString error;
    auto options = parse({QStringLiteral("--screenshot"),
                          QDir::temp().filePath(QStringLiteral("bs_no_stage.png")),
                          QStringLiteral("--example"), QStringLiteral("ex6_shared_scope"),
                          QStringLiteral("--select-stage"), QStringLiteral("ZZ")},
                         &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(runScreenshot(*options), 1);
    options->selectStage = QStringLiteral("B");
    options->selectIterVar = QStringLiteral("zz");
    QCOMPARE(runScreenshot(*options), 1);
    QVERIFY(!QFile::exists(options->screenshot));
}

void AppOptionsTest::stepIsAnIdAPhaseOrAPhaseAndRulePrefix() {
    QString error;
    for (const char* step : {"12", "pass-up", "pass-up:fuse", "pass-down:split-factor/tightened"}) {
        const auto options = parse({QStringLiteral("--step"), QLatin1String(step)}, &error);
        QVERIFY2(options, qPrintable(error));
        QCOMPARE(options->step, QLatin1String(step));
    }
    QVERIFY(!parse({QStringLiteral("--step"), QStringLiteral("pass-sideways")}, &error));
    QVERIFY2(error.startsWith(QStringLiteral("bad step 'pass-sideways'")), qPrintable(error));
}

BS_GUI_TEST_SUITE(AppOptionsTest);

} // namespace bs::gui::test

#include "AppOptionsTest.moc"
