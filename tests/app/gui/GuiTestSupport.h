/// \file
/// Helpers shared by the app's Qt Test suites, and their registry: each suite registers itself
/// with BS_GUI_TEST_SUITE(Class) at the end of its .cpp, and GuiTestMain.cpp runs every
/// registered suite (or only `--suite NAME`), so a new suite needs no edit anywhere else.
#pragma once

#include "MainWindow.h"
#include "document/ScriptDocument.h"
#include "edit/ScheduleEditor.h"

#include <QSignalSpy>
#include <QTest>
#include <QTextDocument>

#include <functional>
#include <memory>

namespace bs::gui::test {

/// How long a test waits for one analysis (a cold Python start included).
constexpr int kAnalysisTimeoutMs = 60000;

/// Runs the event loop until `document` finishes its next analysis; false on timeout.
inline bool waitForAnalysis(ScriptDocument& document) {
    QSignalSpy finished(&document, &ScriptDocument::analysisFinished);
    return finished.wait(kAnalysisTimeoutMs);
}

/// Gives `document` the script `source` and analyses it; false on timeout or a problem.
inline bool analyseSource(ScriptDocument& document, const QString& source) {
    document.textDocument()->setPlainText(source);
    document.reanalyse();
    return waitForAnalysis(document) && !document.problem();
}

/// Runs the event loop until every graph dock of `window` shows the latest analysis (their
/// layouts run on a worker thread); false on timeout.
inline bool waitForGraphs(MainWindow& window) {
    return QTest::qWaitFor([&window] { return window.graphsAreCurrent(); }, kAnalysisTimeoutMs);
}

/// Runs the event loop until `editor` has no edit being checked (the check runs the edited
/// script on a worker, and then pushes the edit or refuses it); false on timeout.
inline bool waitForEdit(ScheduleEditor& editor) {
    return QTest::qWaitFor([&editor] { return !editor.isChecking(); }, kAnalysisTimeoutMs);
}

/// Waits for `editor`'s check to end and, when it pushed the edit, for the analysis of the
/// edited text (which may finish while the check's end is handled); false on timeout.
inline bool waitForEditedAnalysis(ScheduleEditor& editor) {
    QSignalSpy finished(editor.document(), &ScriptDocument::analysisFinished);
    QSignalSpy edited(&editor, &ScheduleEditor::edited);
    if (!waitForEdit(editor))
        return false;
    return edited.isEmpty() || !finished.isEmpty() || finished.wait(kAnalysisTimeoutMs);
}

using SuiteFactory = std::function<std::unique_ptr<QObject>()>;

/// Adds a suite to the registry (called by BS_GUI_TEST_SUITE before main runs); returns its
/// position.
int registerSuite(const char* name, SuiteFactory factory);

/// Runs every registered suite in name order, or only those named by `--suite NAME` in `argv`
/// (removed before Qt Test sees the arguments). Returns the number of suites
/// with failures.
int runRegisteredSuites(int argc, char** argv);

} // namespace bs::gui::test

/// Registers the Qt Test class `Class` (a QObject with private test slots) with the runner.
#define BS_GUI_TEST_SUITE(Class)                                                                   \
    static const int bsGuiTestSuite##Class =                                                       \
        ::bs::gui::test::registerSuite(#Class, [] { return std::unique_ptr<QObject>(new Class); })
