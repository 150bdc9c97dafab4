// The document layer: files (atomic save), re-analysis under other rules, and a failing
// script keeping the last good Analysis.
#include "GuiTestSupport.h"

#include "TestPrograms.h"
#include "document/Exporter.h"

#include "document/AnalysisRunner.h"
#include "document/ExampleCatalog.h"
#include "document/Exporter.h"
#include "document/RecentFiles.h"
#include "models/StageQueries.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

namespace bs::gui::test {

namespace {

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Stops `document`, which must still be busy, and checks that its analysis ends interrupted.
void stopWhileBusy(ScriptDocument& document) {
    QVERIFY(document.isBusy());
    document.stop();
    QVERIFY(waitForAnalysis(document));
    QVERIFY(!document.isBusy());
    QVERIFY(document.problem().has_value());
    QCOMPARE(QString::fromStdString(document.problem()->message), QStringLiteral("interrupted"));
}

} // namespace

class DocumentTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void saveReplacesTheWholeFileAndLeavesNoTemporaryFile();
    void saveIntoAMissingFolderFailsWithoutWritingAnything();
    void openFileReadsTheTextAndClearsTheModifiedFlag();
    void rulesChangeReanalysesTheProgramWithoutTheScript();
    void scriptErrorKeepsTheLastGoodAnalysisOfTheSameScript();
    void stopInterruptsARunningScript();
    void stopReachesAScriptPassThatNeverReturns();
    void newerTextSupersedesARunningScript();
    void supersededAnalysisStopsInsideTheEngine();
    void scriptSummaryIsTheOpeningComment();
    void examplesAreFoundInTheSourceTree();
    void recentFilesKeepTheNewestFirstWithoutDuplicates();
};

void DocumentTest::supersededAnalysisStopsInsideTheEngine() {
    // A newer request sets the flag: the engine stops at its next stage or pass, so the new
    // request does not queue behind a whole analysis of stale text (issue 17, item 3).
    AnalysisRequest request;
    request.fileName = "fuse.py";
    request.program = fuseExample();
    const std::atomic<bool> cancelled{true};
    const AnalysisOutcome stopped = runAnalysisRequest(request, nullptr, &cancelled);
    QVERIFY(stopped.interrupted);
    QVERIFY(!stopped.analysis);
    QCOMPARE(QString::fromStdString(stopped.error->message), QStringLiteral("interrupted"));
    const std::atomic<bool> running{false};
    const AnalysisOutcome done = runAnalysisRequest(request, nullptr, &running);
    QVERIFY(done.ok());
}

void DocumentTest::saveReplacesTheWholeFileAndLeavesNoTemporaryFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("script.py"));
    {
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("a much longer old text that must not survive as a tail\n");
    }
    ScriptDocument document;
    document.textDocument()->setPlainText(QStringLiteral("x = 1\n"));
    QVERIFY(document.isModified());
    QString error;
    QVERIFY2(document.saveAs(path, &error), qPrintable(error));
    QCOMPARE(readAll(path), QByteArray("x = 1\n"));
    QVERIFY(!document.isModified());
    QCOMPARE(document.filePath(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(document.scriptName(), QStringLiteral("script.py"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("script.py")});
}

void DocumentTest::saveIntoAMissingFolderFailsWithoutWritingAnything() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("missing/script.py"));
    ScriptDocument document;
    document.textDocument()->setPlainText(QStringLiteral("x = 1\n"));
    QString error;
    QVERIFY(!document.saveAs(path, &error));
    QVERIFY2(error.contains(QStringLiteral("cannot save")), qPrintable(error));
    QVERIFY(!QFile::exists(path));
    QVERIFY(document.isModified());
    QVERIFY(document.filePath().isEmpty());
}

void DocumentTest::openFileReadsTheTextAndClearsTheModifiedFlag() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.py"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("y = 2\n");
    }
    ScriptDocument document;
    QString error;
    QVERIFY2(document.openFile(path, &error), qPrintable(error));
    QCOMPARE(document.textDocument()->toPlainText(), QStringLiteral("y = 2\n"));
    QVERIFY(!document.isModified());
    QCOMPARE(document.scriptName(), QStringLiteral("mine.py"));
    QVERIFY(waitForAnalysis(document));
    QVERIFY(!document.openFile(dir.filePath(QStringLiteral("absent.py")), &error));
    QVERIFY2(error.contains(QStringLiteral("absent.py")), qPrintable(error));
    // Saved over a device: refused, and the device is still one (QSaveFile would have renamed
    // its temporary file over it).
    if (QFileInfo(QStringLiteral("/dev/full")).exists()) {
        QVERIFY(!document.saveAs(QStringLiteral("/dev/full"), &error));
        QCOMPARE(error, QStringLiteral("cannot save '/dev/full': it is not a regular file (a "
                                       "device, a pipe or a socket)"));
        QVERIFY(!writeFileAtomically(QStringLiteral("/dev/full"), "x", &error));
        QVERIFY(!QFileInfo(QStringLiteral("/dev/full")).isFile());
    }
    // A device would never finish reading: refused at once, the open script kept.
    if (QFileInfo::exists(QStringLiteral("/dev/zero"))) {
        QVERIFY(!document.openFile(QStringLiteral("/dev/zero"), &error));
        QCOMPARE(error, QStringLiteral("cannot open '/dev/zero': it is not a regular file (a "
                                       "device, a pipe or a socket)"));
        QCOMPARE(document.scriptName(), QStringLiteral("mine.py"));
    }
}

void DocumentTest::rulesChangeReanalysesTheProgramWithoutTheScript() {
    ScriptDocument document;
    document.analyseProgram(fuseExample());
    QVERIFY(waitForAnalysis(document));
    QVERIFY(document.analysis());
    QCOMPARE(document.analysis()->options.rules, BoundRules::Tvm);
    const auto first = document.analysis();

    document.setRules(BoundRules::Tvm05);
    QVERIFY(waitForAnalysis(document));
    QVERIFY(!document.problem());
    QCOMPARE(document.analysis()->options.rules, BoundRules::Tvm05);
    QVERIFY(document.analysis() != first);
    // The same program, not a new script run: the schedule is the very same object.
    QVERIFY(document.analysis()->program.schedule.same_as(first->program.schedule));
}

void DocumentTest::scriptErrorKeepsTheLastGoodAnalysisOfTheSameScript() {
    ScriptDocument document;
    document.analyseProgram(sharedScopeExample());
    QVERIFY(waitForAnalysis(document));
    const auto good = document.analysis();
    QVERIFY(good && good->ok());

    // An edit of the same script that breaks it: the views keep the last good analysis,
    // marked as not current.
    document.textDocument()->setPlainText(QStringLiteral("x = 1\ny = (\n"));
    document.reanalyse();
    QVERIFY(waitForAnalysis(document));
    QVERIFY(document.problem().has_value());
    QCOMPARE(document.analysis(), good);
    QVERIFY(!document.analysisIsCurrent());

    // Another script that fails before it builds a program shows its own failure, never the
    // previous script's analysis (issue 17, item 1).
    document.setUntitled(QStringLiteral("x = 1\ny = (\n"), QStringLiteral("broken.py"));
    QVERIFY(!document.analysis()->program.defined());
    QVERIFY(waitForAnalysis(document));
    QVERIFY(document.problem().has_value());
    QVERIFY(document.analysis() != good);
    QVERIFY(!document.analysis()->program.defined() && document.analysis()->error);
    QVERIFY(document.analysisIsCurrent());
#if BOUNDSCOPE_WITH_PYTHON
    // Python reports the unclosed parenthesis at the line where it opened.
    QCOMPARE(document.problem()->location.line, 2);
    QVERIFY2(
        QString::fromStdString(document.problem()->message).contains(QStringLiteral("SyntaxError")),
        document.problem()->message.c_str());
#endif
}

void DocumentTest::stopInterruptsARunningScript() {
#if BOUNDSCOPE_WITH_PYTHON
    ScriptDocument document;
    QSignalSpy busy(&document, &ScriptDocument::busyChanged);
    document.setUntitled(QStringLiteral("while True:\n    pass\n"), QStringLiteral("forever.py"));
    QVERIFY(document.isBusy());
    QTest::qWait(200);
    stopWhileBusy(document);
    QCOMPARE(busy.count(), 2);
#else
    QSKIP("built without the Python front end");
#endif
}

void DocumentTest::stopReachesAScriptPassThatNeverReturns() {
#if BOUNDSCOPE_WITH_PYTHON
    // The script's own tvm.lower runs the pass once; the analysis runs it again, on the
    // analysis thread, and there it never returns: Stop must interrupt it there too. The pass
    // leaves a file when it starts looping, so Stop comes once the analysis is inside it.
    QTemporaryDir dir;
    const QString inside = dir.filePath(QStringLiteral("inside"));
    const QString script =
        QStringLiteral("import tvm\n"
                       "from tvm import te\n"
                       "a = te.placeholder((64,), name='a')\n"
                       "b = te.compute((64,), lambda i: a[i] + 1.0, name='b')\n"
                       "sch = te.create_schedule(b.op)\n"
                       "calls = []\n"
                       "@tvm.tir.transform.prim_func_pass(opt_level=0)\n"
                       "def forever(f, mod, ctx):\n"
                       "    calls.append(f)\n"
                       "    if len(calls) > 1:\n"
                       "        open(%1, 'w').close()\n"
                       "    while len(calls) > 1:\n"
                       "        pass\n"
                       "    return f\n"
                       "with tvm.transform.PassContext(config={'tir.add_lower_pass': "
                       "[(1, forever)]}):\n"
                       "    tvm.lower(sch, [a, b])\n")
            .arg(QStringLiteral("'%1'").arg(inside));
    ScriptDocument document;
    document.setUntitled(script, QStringLiteral("pass_forever.py"));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(inside), 20000);
    stopWhileBusy(document);
#else
    QSKIP("built without the Python front end");
#endif
}

void DocumentTest::newerTextSupersedesARunningScript() {
#if BOUNDSCOPE_WITH_PYTHON
    ScriptDocument document;
    QSignalSpy finished(&document, &ScriptDocument::analysisFinished);
    document.setUntitled(QStringLiteral("while True:\n    pass\n"), QStringLiteral("forever.py"));
    QTest::qWait(100);
    document.textDocument()->setPlainText(QStringLiteral("x = 1\nraise ValueError('late')\n"));
    document.reanalyse();
    QVERIFY(waitForAnalysis(document));
    // Only the newest text's outcome arrives; the interrupted run's is dropped.
    QCOMPARE(finished.count(), 1);
    QVERIFY(document.problem().has_value());
    QCOMPARE(document.problem()->location.line, 2);
    QVERIFY(QString::fromStdString(document.problem()->message).contains(QStringLiteral("late")));
#else
    QSKIP("built without the Python front end");
#endif
}

void DocumentTest::scriptSummaryIsTheOpeningComment() {
    QCOMPARE(
        scriptSummary(QStringLiteral("# Ex. 6: shared.\n#  B is relaxed.\nimport tvm\n# later")),
        QStringLiteral("Ex. 6: shared. B is relaxed."));
    QCOMPARE(scriptSummary(QStringLiteral("import tvm\n")), QString());
}

void DocumentTest::examplesAreFoundInTheSourceTree() {
    const QString dir = examplesDirectory();
    QVERIFY2(!dir.isEmpty(), "resources/examples not found");
    const QList<ExampleInfo> examples = listExamples(dir);
    QVERIFY(!examples.isEmpty());
    QVERIFY(!findExample(dir, QStringLiteral("ex6_shared_scope")).isEmpty());
    QVERIFY(findExample(dir, QStringLiteral("no_such_example")).isEmpty());
    for (const ExampleInfo& example : examples)
        QVERIFY2(!example.summary.isEmpty(), qPrintable(example.name + " has no header comment"));
    QVERIFY(!defaultExample(dir).isEmpty());
}

void DocumentTest::recentFilesKeepTheNewestFirstWithoutDuplicates() {
    RecentFiles recent;
    recent.clear();
    for (int i = 0; i < RecentFiles::kMaxFiles + 2; ++i)
        recent.add(QStringLiteral("/tmp/f%1.py").arg(i));
    recent.add(QStringLiteral("/tmp/f5.py"));
    QCOMPARE(recent.files().size(), RecentFiles::kMaxFiles);
    QCOMPARE(recent.files().first(), QStringLiteral("/tmp/f5.py"));
    QCOMPARE(recent.files().count(QStringLiteral("/tmp/f5.py")), 1);
    RecentFiles reloaded;
    QCOMPARE(reloaded.files(), recent.files());
    recent.clear();
}

BS_GUI_TEST_SUITE(DocumentTest);

} // namespace bs::gui::test

#include "DocumentTest.moc"
