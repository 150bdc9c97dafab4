// The Run panel (panels/RunPanel.h): timing and checking kernels on the CPU (LLVM JIT) and in
// the interpreter's GPU emulation, a clear message where a target cannot run, and baselines.
#include "GuiTestSupport.h"
#include "TestPrograms.h"

#include "document/ExampleCatalog.h"
#include "panels/RunPanel.h"
#include "views/HintTableView.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QtTest>

namespace bs::gui::test {

namespace {

constexpr int kRunTimeoutMs = 120000;

/// Opens `example` (or analyses `fallback` where there is no Python) for `panel`.
bool analyseExample(ScriptDocument& document, RunPanel& panel, const QString& example,
                    const Program& fallback) {
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

bool runAndWait(RunPanel& panel, bool check) {
    QSignalSpy finished(&panel, &RunPanel::runFinished);
    return panel.run(check) && finished.wait(kRunTimeoutMs);
}

QString cell(const RunPanel& panel, int row, const QString& header) {
    return panel.model()->row(row).cells.value(int(runHeaders().indexOf(header)));
}

} // namespace

class RunPanelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cpuRunTimesAndChecksTheKernel();
    void emulationChecksTheSharedScopeKernel();
    void aRunShowsItsProgressAndCanBeCancelled();
    void gpuWithoutADeviceExplainsInThePanel();
    void gpuScheduleOffersGpuEmulationInsteadOfTheCpu();
    void emptyTableSaysHowToStart();
    void baselineIsSavedAndCompared();
    void nothingToRunWithoutAnAnalysis();
    void baselineComparisonText();
    void eachRowNamesItsProgramAndEachKindKeepsItsTarget();
    void aRunRefusedGivesItsFixInTheScriptsNames();
};

void RunPanelTest::aRunRefusedGivesItsFixInTheScriptsNames() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("this build has no Python front end");
#endif
    if (!runHasLlvm())
        QSKIP("the CPU target needs LLVM");
    // A vector too wide for the CPU: the panel gave the message without its fix; the fix is
    // in the script's names (`sch[Bv]`), not the engine's (`s[B]`).
    ScriptDocument document;
    QVERIFY(analyseSource(
        document, QStringLiteral("import tvm\n"
                                 "from tvm import te\n"
                                 "A = te.placeholder((65536,), name='A')\n"
                                 "Bv = te.compute((65536,), lambda i: A[i] + 1.0, name='B')\n"
                                 "sch = te.create_schedule(Bv.op)\n"
                                 "sch[Bv].vectorize(Bv.op.axis[0])\n")));
    RunPanel panel;
    panel.setAnalysis(document.analysis());
    panel.setTarget(RunTarget::Cpu);
    QVERIFY(runAndWait(panel, false));
    QVERIFY2(panel.lastError().contains(QStringLiteral(
                 "; fix: split the loop and vectorize the inner part: outer, inner = "
                 "sch[Bv].split(Bv.op.axis[0], factor=16); sch[Bv].vectorize(inner)")),
             qPrintable(panel.lastError()));
}

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
        QVERIFY(panel.statusText().startsWith(QStringLiteral("Cannot run on cpu (LLVM JIT): ")));
        return;
    }
    QVERIFY2(panel.lastError().isEmpty(), qPrintable(panel.lastError()));
    QVERIFY(panel.lastReport()->bestMs > 0);
    QCOMPARE(int(panel.lastReport()->timesMs.size()), 3);
    QCOMPARE(panel.model()->rowCount(), 1);
    QCOMPARE(cell(panel, 0, QStringLiteral("Target")), QStringLiteral("cpu (LLVM JIT)"));
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
    QCOMPARE(cell(panel, 0, QStringLiteral("Target")), QStringLiteral("emulate (GPU emulation)"));
    QCOMPARE(cell(panel, 0, QStringLiteral("Check")), QStringLiteral("pass"));
    // The status says whose times they are: the kernel compiled for the CPU (with LLVM), else
    // the interpreter's.
    QVERIFY2(panel.statusText().startsWith(
                 runHasLlvm() ? QStringLiteral("emulate (compiled for the CPU: CPU times")
                              : QStringLiteral("emulate (interpreter times")),
             qPrintable(panel.statusText()));
}

void RunPanelTest::aRunShowsItsProgressAndCanBeCancelled() {
    ScriptDocument document;
    RunPanel panel;
    document.analyseProgram(largeGpuMatmul());
    QVERIFY(waitForAnalysis(document) && !document.problem());
    panel.setAnalysis(document.analysis());
    panel.setTarget(RunTarget::Emulate);
    panel.setRepeat(1000); // far more than the time budget allows: it would run for seconds
    QSignalSpy finished(&panel, &RunPanel::runFinished);
    QVERIFY(panel.run(false));
    // The status counts the runs as they end; Cancel stops the rest.
    QTRY_VERIFY_WITH_TIMEOUT(panel.statusText().contains(QStringLiteral(" of 1000…")), 30000);
    QVERIFY2(panel.statusText().startsWith(QStringLiteral("Running on ")),
             qPrintable(panel.statusText()));
    panel.cancel();
    QVERIFY(finished.wait(30000) || finished.count() == 1);
    QCOMPARE(panel.lastError(), QStringLiteral("cancelled"));
    QVERIFY2(panel.statusText().startsWith(QStringLiteral("Run on ")) &&
                 panel.statusText().endsWith(QStringLiteral(" cancelled")),
             qPrintable(panel.statusText()));
    QCOMPARE(panel.model()->rowCount(), 0);
    QVERIFY(!panel.isRunning());
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
    QCOMPARE(panel.statusText(), QStringLiteral("Cannot run on cuda (GPU): ") + panel.lastError());
    // One message that names the targets as the panel's selector does, no command-line flag.
    QVERIFY2(!panel.lastError().contains(QStringLiteral("--target")),
             qPrintable(panel.lastError()));
    QVERIFY2(panel.lastError().contains(QStringLiteral("the emulate target")),
             qPrintable(panel.lastError()));
    QVERIFY(!panel.isRunning());
}

void RunPanelTest::gpuScheduleOffersGpuEmulationInsteadOfTheCpu() {
    ScriptDocument document;
    RunPanel panel;
    // The user chose the CPU.
    auto* targets = panel.findChild<QComboBox*>(QStringLiteral("runTarget"));
    QVERIFY(targets);
    targets->setCurrentIndex(targets->findData(int(RunTarget::Cpu)));
    Q_EMIT targets->activated(targets->currentIndex());
    QVERIFY(
        analyseExample(document, panel, QStringLiteral("ex6_shared_scope"), sharedScopeExample()));
    QVERIFY(panel.isGpuSchedule());
    QVERIFY(!panel.targetFits(RunTarget::Cpu));
    QVERIFY(panel.targetFits(RunTarget::Cuda));
    QCOMPARE(panel.target(), RunTarget::Emulate);
    QVERIFY2(panel.statusText().contains(QStringLiteral("GPU emulation")),
             qPrintable(panel.statusText()));
    // Chosen anyway, the CPU says why not, in the app's words.
    panel.setTarget(RunTarget::Cpu);
    QVERIFY(runAndWait(panel, false));
    QVERIFY(panel.statusText().startsWith(QStringLiteral("Cannot run on cpu (LLVM JIT): ")));
    QVERIFY2(!panel.lastError().contains(QStringLiteral("--target")),
             qPrintable(panel.lastError()));
    // A CPU schedule has no GPU kernel: the CPU, the user's choice, runs it again.
    QVERIFY(analyseExample(document, panel, QStringLiteral("fuse_split_attach"), fuseExample()));
    QVERIFY(!panel.isGpuSchedule());
    QVERIFY(!panel.targetFits(RunTarget::Cuda));
    QVERIFY(panel.targetFits(RunTarget::Emulate));
    QCOMPARE(panel.target(), runHasLlvm() ? RunTarget::Cpu : RunTarget::Emulate);
}

void RunPanelTest::emptyTableSaysHowToStart() {
    RunPanel panel;
    auto* table = panel.findChild<HintTableView*>(QStringLiteral("runTable"));
    QVERIFY(table);
    QVERIFY(table->isShowingEmptyText());
    QVERIFY(table->emptyText().startsWith(QStringLiteral("No runs yet")));
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

void RunPanelTest::eachRowNamesItsProgramAndEachKindKeepsItsTarget() {
    // Issue 17, item 1: runs of several programs stay apart (a Program column), and the target
    // chosen for a GPU program does not carry over to a CPU program.
    ScriptDocument document;
    RunPanel panel;
    QVERIFY(
        analyseExample(document, panel, QStringLiteral("ex6_shared_scope"), sharedScopeExample()));
    auto* targets = panel.findChild<QComboBox*>(QStringLiteral("runTarget"));
    targets->setCurrentIndex(targets->findData(int(RunTarget::Emulate)));
    Q_EMIT targets->activated(targets->currentIndex());
    QVERIFY(runAndWait(panel, true));
    QCOMPARE(cell(panel, 0, QStringLiteral("Program")), document.scriptName());
    const QString gpuProgram = document.scriptName();
    QVERIFY(analyseExample(document, panel, QStringLiteral("fuse_split_attach"), fuseExample()));
    QCOMPARE(panel.target(), runHasLlvm() ? RunTarget::Cpu : RunTarget::Emulate);
    QVERIFY(runAndWait(panel, true));
    QCOMPARE(panel.model()->rowCount(), 2);
    QCOMPARE(cell(panel, 0, QStringLiteral("Program")), document.scriptName());
    QCOMPARE(cell(panel, 1, QStringLiteral("Program")), gpuProgram);
#if BOUNDSCOPE_WITH_PYTHON
    QVERIFY(gpuProgram != document.scriptName());
#endif
    // Back on a GPU program, the GPU choice comes back.
    QVERIFY(
        analyseExample(document, panel, QStringLiteral("ex6_shared_scope"), sharedScopeExample()));
    QCOMPARE(panel.target(), RunTarget::Emulate);
}

BS_GUI_TEST_SUITE(RunPanelTest);

} // namespace bs::gui::test

#include "RunPanelTest.moc"
