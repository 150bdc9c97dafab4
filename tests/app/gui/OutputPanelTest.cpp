// The Output dock (issue 17, item 2): what the script printed (stdout, stderr, warnings) in the
// latest run, the error where a failing run stopped, and nothing of an earlier run.
#include "GuiTestSupport.h"

#include "panels/OutputPanel.h"

#include <QDockWidget>
#include <QTextDocument>
#include <QtTest>

namespace bs::gui::test {

namespace {

const char* const kProgram = "import sys\n"
                             "import tvm\n"
                             "from tvm import te\n"
                             "A = te.placeholder((8,), name=\"A\")\n"
                             "B = te.compute((8,), lambda i: A[i] + 1.0, name=\"B\")\n"
                             "s = te.create_schedule(B.op)\n";

struct Fixture {
    MainWindow window{MainWindow::Options{false, false}};

    Fixture() {
        window.resize(1200, 800);
        window.show();
    }

    bool run(const QString& script) {
        window.document()->textDocument()->setPlainText(script);
        window.document()->reanalyse();
        return waitForAnalysis(*window.document());
    }
};

} // namespace

class OutputPanelTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsWhatTheScriptPrintedAndItsWarnings() {
        Fixture f;
        QVERIFY(f.window.dock(QStringLiteral("outputDock")) != nullptr);
        QVERIFY(f.run(QString::fromLatin1(kProgram) +
                      QStringLiteral("print(tvm.lower(s, [A, B], simple_mode=True))\n"
                                     "print('a warning', file=sys.stderr)\n")));
        OutputPanel* output = f.window.output();
        QVERIFY2(output->text().contains(QStringLiteral("produce B {")),
                 qPrintable(output->text()));
        QVERIFY(output->text().contains(QStringLiteral("a warning")));
        QVERIFY2(output->summary().startsWith(QStringLiteral("Output of ")),
                 qPrintable(output->summary()));
        QVERIFY(!output->summary().contains(QStringLiteral("error")));
    }

    void aFailedRunShowsItsOutputThenTheError() {
        Fixture f;
        QVERIFY(f.run(QString::fromLatin1(kProgram) +
                      QStringLiteral("print('before the error')\n"
                                     "s[B].split(B.op.axis[0], factor=0)\n")));
        OutputPanel* output = f.window.output();
        QVERIFY(output->text().startsWith(QStringLiteral("before the error\n")));
        QVERIFY2(output->text().contains(QStringLiteral(":8: error: split")),
                 qPrintable(output->text()));
        QVERIFY(output->summary().contains(QStringLiteral("stopped with an error")));
        // the next run's output replaces it
        QVERIFY(f.run(QString::fromLatin1(kProgram) + QStringLiteral("print('second run')\n")));
        QCOMPARE(output->text(), QStringLiteral("second run\n"));
        QVERIFY(!output->summary().contains(QStringLiteral("error")));
    }
};

BS_GUI_TEST_SUITE(OutputPanelTest);

} // namespace bs::gui::test

#include "OutputPanelTest.moc"
