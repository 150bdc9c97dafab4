// The Run panel (panels/RunPanel.h): timing and checking kernels on the CPU (LLVM JIT) and in
// the interpreter's GPU emulation, a clear message where a target cannot run, and baselines.
#include "GuiTestSupport.h"
#include "TestPrograms.h"

#include "document/ExampleCatalog.h"
#include "panels/RunPanel.h"

#include <QtTest>

namespace bs::gui::test {

namespace {

constexpr int kRunTimeoutMs = 120000;

/// Opens `example` (or analyses `fallback` where there is no Python) for `panel`.
bool analyseExample(ScriptDocument &document, RunPanel &panel, const QString &example,
                    const Program &fallback) {
#if BOUNDSCOPE_WITH_PYTHON
    QString error;
    if (!document.openExample(findExample(examplesDirectory(), example), &error))
        return false;
    (void)fallback;
#else
    document.analyseProgram(fallback);
#endif
    if (!waitForAnalysis(document) || document.problem())
        return false;
    panel.setAnalysis(document.analysis());
    panel.setScriptName(document.scriptName());
    return true;
}

bool runAndWait(RunPanel &panel, bool check) {
    QSignalSpy finished(&panel, &RunPanel::runFinished);
    return panel.run(check) && finished.wait(kRunTimeoutMs);
}

QString cell(const RunPanel &panel, int row, const QString &header) {
    return panel.model()->row(row).cells.value(int(runHeaders().indexOf(header)));
}

} // namespace

class RunPanelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cpuRunTimesAndChecksTheKernel();
    void emulationChecksTheSharedScopeKernel();
    void gpuWithoutADeviceExplainsInThePanel();
    void baselineIsSavedAndCompared();
    void nothingToRunWithoutAnAnalysis();
    void baselineComparisonText();
};

void RunPanelTest::cpuRunTimesAndChecksTheKernel() {
    ScriptDocument document;
    RunPanel panel;
    QVERIFY(analyseExample(document, panel, QStringLiteral("fuse_split_attach"), fuseExample()));
    panel.setTarget(RunTarget::Cpu);
    panel.setRepeat(3);
    QVERIFY(runAndWait(panel, false));
    if (!runHasLlvm()) {
        // A build without LLVM says so in the panel.
        QVERIFY(!panel.lastError().isEmpty());
        QVERIFY(panel.statusText().startsWith(QStringLiteral("Cannot run: ")));
        return;
    }
    QVERIFY2(panel.lastError().isEmpty(), qPrintable(panel.lastError()));
    QVERIFY(panel.lastReport()->bestMs > 0);
    QCOMPARE(int(panel.lastReport()->timesMs.size()), 3);
    QCOMPARE(panel.model()->rowCount(), 1);
    QCOMPARE(cell(panel, 0, QStringLiteral("Target")), QStringLiteral("CPU"));
    QCOMPARE(cell(panel, 0, QStringLiteral("Runs")), QStringLiteral("3"));
    QCOMPARE(cell(panel, 0, QStringLiteral("Check")), QStringLiteral("not checked"));
    QVERIFY(runAndWait(panel, true));
    QVERIFY2(panel.lastReport()->checked && panel.lastReport()->passed,
             qPrintable(QString::fromStdString(panel.lastReport()->checkDetail)));
    QCOMPARE(panel.model()->rowCount(), 2);
    QCOMPARE(cell(panel, 0, QStringLiteral("Check")), QStringLiteral("pass")); // newest first
}

void RunPanelTest::emulationChecksTheSharedScopeKernel() {
    ScriptDocument document;
    RunPanel panel;
    QVERIFY(
        analyseExample(document, panel, QStringLiteral("ex6_shared_scope"), sharedScopeExample()));
    panel.setTarget(RunTarget::Emulate);
    QVERIFY(runAndWait(panel, true));
    QVERIFY2(panel.lastError().isEmpty(), qPrintable(panel.lastError()));
    QCOMPARE(panel.lastReport()->target, RunTarget::Emulate);
    QVERIFY(panel.lastReport()->passed);
    QCOMPARE(cell(panel, 0, QStringLiteral("Target")), QStringLiteral("GPU emulation"));
    QCOMPARE(cell(panel, 0, QStringLiteral("Check")), QStringLiteral("pass"));
}

void RunPanelTest::gpuWithoutADeviceExplainsInThePanel() {
    ScriptDocument document;
    RunPanel panel;
    QVERIFY(
        analyseExample(document, panel, QStringLiteral("ex6_shared_scope"), sharedScopeExample()));
    panel.setTarget(RunTarget::Cuda);
    QVERIFY(runAndWait(panel, true));
    // With a GPU it runs and passes; without one, the engine's message is shown, no row added.
    if (panel.lastError().isEmpty()) {
        QVERIFY(panel.lastReport()->passed);
        return;
    }
    QCOMPARE(panel.model()->rowCount(), 0);
    QCOMPARE(panel.statusText(), QStringLiteral("Cannot run: ") + panel.lastError());
    QVERIFY(!panel.isRunning());
}

void RunPanelTest::baselineIsSavedAndCompared() {
    ScriptDocument document;
    RunPanel panel;
    QVERIFY(
        analyseExample(document, panel, QStringLiteral("ex6_shared_scope"), sharedScopeExample()));
    panel.setTarget(RunTarget::Emulate);
    panel.setRepeat(1);
    panel.clearBaseline();
    QVERIFY(!panel.saveBaseline()); // nothing ran yet
    QVERIFY(runAndWait(panel, false));
    QCOMPARE(cell(panel, 0, QStringLiteral("Baseline")), QStringLiteral("none"));
    QVERIFY(panel.saveBaseline());
    QCOMPARE(panel.baseline(), panel.lastReport()->bestMs);
    RunPanel other; // a new panel (a later session) finds the saved baseline
    other.setScriptName(document.scriptName());
    other.setTarget(RunTarget::Emulate);
    QCOMPARE(other.baseline(), panel.lastReport()->bestMs);
    QVERIFY(runAndWait(panel, false));
    QVERIFY(cell(panel, 0, QStringLiteral("Baseline")).endsWith(QStringLiteral(" ms)")));
    panel.clearBaseline();
    QVERIFY(!panel.baseline());
}

void RunPanelTest::nothingToRunWithoutAnAnalysis() {
    RunPanel panel;
    panel.setAnalysis(nullptr);
    QVERIFY(!panel.run(false));
    QVERIFY(panel.statusText().startsWith(QStringLiteral("Nothing to run")));
}

void RunPanelTest::baselineComparisonText() {
    QCOMPARE(baselineComparison(1.0, 2.0), QStringLiteral("2.00× faster"));
    QCOMPARE(baselineComparison(2.0, 1.0), QStringLiteral("2.00× slower"));
    QCOMPARE(baselineComparison(1.0, 1.01), QStringLiteral("same"));
    QCOMPARE(baselineComparison(0.0, 1.0), QStringLiteral("?"));
}

BS_GUI_TEST_SUITE(RunPanelTest);

} // namespace bs::gui::test

#include "RunPanelTest.moc"
