// The Compare dock (issue 18, item 2): on the fuse/split example the seed's rules against tvm,
// side by side (4096 against 8, aligned on one row) with the changed stage marked in the graphs,
// the analysis before a change against the current one, and two earlier points.
#include "GuiTestSupport.h"

#include "edit/ScheduleTools.h"
#include "models/StringTableModel.h"
#include "panels/ComparePanel.h"
#include "panels/GraphPanel.h"
#include "views/GraphItems.h"

#include <QDockWidget>
#include <QFile>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QtTest>

namespace bs::gui::test {

namespace {

/// The block number of the first line of `view` containing `text`, or -1.
int lineOf(const QPlainTextEdit* view, const QString& text) {
    for (QTextBlock block = view->document()->begin(); block.isValid(); block = block.next())
        if (block.text().contains(text))
            return block.blockNumber();
    return -1;
}

/// The names of the nodes `panel` draws as changed in Compare.
QStringList changedNodes(const GraphPanel* panel) {
    QStringList names;
    for (QGraphicsItem* item : panel->scene()->items())
        if (const auto* node = dynamic_cast<const GraphNodeItem*>(item))
            if (node->isChangeMarked())
                names << node->shortName();
    names.sort();
    return names;
}

} // namespace

class CompareTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theSeedsRulesAgainstTvmSideBySide();
    void theAnalysisBeforeAChange();
    void anotherFile();
};

void CompareTest::theSeedsRulesAgainstTvmSideBySide() {
    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    QString error;
    QVERIFY2(window.openExample(QStringLiteral("fuse_split_attach"), &error), qPrintable(error));
    QVERIFY(waitForAnalysis(*window.document()));
    ComparePanel* compare = window.scheduleTools()->compare();
    compare->setRules(BoundRules::Tvm05, BoundRules::Tvm);
    QSignalSpy shown(compare, &ComparePanel::diffShown);
    window.dock(QStringLiteral("compareDock"))->raise();
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY2(compare->diff(), qPrintable(compare->summaryText()));
    QVERIFY2(compare->summaryText().contains(QStringLiteral("Lowered IR: 7 of 17 lines differ")),
             qPrintable(compare->summaryText()));
    // The two allocations of B on one row, across the columns.
    const int left = lineOf(compare->leftView(), QStringLiteral("allocate B[int32 * 4096]"));
    QVERIFY(left >= 0);
    QCOMPARE(lineOf(compare->rightView(), QStringLiteral("allocate B[int32 * 8]")), left);
    // And in the table of what differs.
    const StringTableModel* changes = compare->changes();
    int b = -1;
    for (int row = 0; row < changes->rowCount(); ++row)
        if (changes->row(row).cells.value(0) == QStringLiteral("allocate B"))
            b = row;
    QVERIFY(b >= 0);
    QCOMPARE(changes->row(b).cells.value(1), QStringLiteral("4096 (needed 8)"));
    QCOMPARE(changes->row(b).cells.value(2), QStringLiteral("8 (needed 8)"));

    // The graphs mark what differs: B's node in the stage DAG, its loops in the attach tree.
    QTRY_COMPARE(changedNodes(window.stageDag()), QStringList{QStringLiteral("B")});
    QVERIFY(window.stageDag()->caption().contains(QStringLiteral("changed in Compare")));
    window.selection()->select(QStringLiteral("B"));
    GraphPanel* tree = window.attachTree();
    QTRY_VERIFY(!tree->isLayingOut() && changedNodes(tree).contains(QStringLiteral("B")));
    bool rowMarked = false;
    for (QGraphicsItem* item : tree->scene()->items())
        if (const auto* node = dynamic_cast<const GraphNodeItem*>(item))
            rowMarked |= node->shortName() == QStringLiteral("B") && !node->changedRows().isEmpty();
    QVERIFY(rowMarked);
    // Out of sight, the diff marks nothing.
    window.dock(QStringLiteral("allocationsDock"))->raise();
    QTRY_VERIFY(changedNodes(window.stageDag()).isEmpty());
}

void CompareTest::theAnalysisBeforeAChange() {
    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    QString error;
    QVERIFY2(window.openExample(QStringLiteral("ex2_attach_inner"), &error), qPrintable(error));
    QVERIFY(waitForAnalysis(*window.document()));
    ComparePanel* compare = window.scheduleTools()->compare();
    compare->setMode(ComparePanel::Mode::PreviousAnalysis);
    QSignalSpy shown(compare, &ComparePanel::diffShown);
    window.dock(QStringLiteral("compareDock"))->raise();
    QVERIFY(!compare->diff());
    QVERIFY(compare->summaryText().startsWith(QStringLiteral("Nothing to compare yet")));
    // Change the script: C moves out to D's outer loop.
    QString text = window.document()->textDocument()->toPlainText();
    text.replace(QStringLiteral("s[C].compute_at(s[D], D.op.axis[1])"),
                 QStringLiteral("s[C].compute_at(s[D], D.op.axis[0])"));
    window.document()->textDocument()->setPlainText(text);
    window.document()->reanalyse();
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY2(compare->diff(), qPrintable(compare->summaryText()));
    QVERIFY2(compare->summaryText().startsWith(
                 QStringLiteral("Left: before the latest change. Right: now.")),
             qPrintable(compare->summaryText()));
    QVERIFY(lineOf(compare->leftView(), QStringLiteral("C[int32 * 1]")) >= 0);
    QVERIFY(lineOf(compare->rightView(), QStringLiteral("C[int32 * 16]")) >= 0);
    // A second change: C at the root. Two changes back is the first text.
    text.replace(QStringLiteral("s[C].compute_at(s[D], D.op.axis[0])"),
                 QStringLiteral("s[C].compute_root()"));
    window.document()->textDocument()->setPlainText(text);
    window.document()->reanalyse();
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QCOMPARE(compare->historySize(), 2);
    compare->setChangesBack(2);
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY2(compare->summaryText().startsWith(QStringLiteral("Left: 2 changes back.")),
             qPrintable(compare->summaryText()));
    QVERIFY(lineOf(compare->leftView(), QStringLiteral("C[int32 * 1]")) >= 0);
    QVERIFY(lineOf(compare->rightView(), QStringLiteral("C[int32 * 80]")) >= 0);
    // Two earlier points against each other.
    compare->setRightChangesBack(1);
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY2(compare->summaryText().startsWith(
                 QStringLiteral("Left: 2 changes back. Right: before the latest change.")),
             qPrintable(compare->summaryText()));
    QVERIFY(lineOf(compare->leftView(), QStringLiteral("C[int32 * 1]")) >= 0);
    QVERIFY(lineOf(compare->rightView(), QStringLiteral("C[int32 * 16]")) >= 0);
    compare->setRightChangesBack(2);
    QVERIFY(!compare->diff());
    QVERIFY2(compare->summaryText().startsWith(QStringLiteral("Both sides are the same point")),
             qPrintable(compare->summaryText()));
    // Another file has a history of its own: nothing of ex2's is compared with it.
    QVERIFY2(window.openExample(QStringLiteral("ex3_attach_outer"), &error), qPrintable(error));
    QVERIFY(waitForAnalysis(*window.document()));
    QCOMPARE(compare->historySize(), 0);
    QTRY_VERIFY(compare->summaryText().startsWith(QStringLiteral("Nothing to compare yet")));
    QVERIFY(!compare->diff());
}

void CompareTest::anotherFile() {
    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    QString error;
    QVERIFY2(window.openExample(QStringLiteral("ex2_attach_inner"), &error), qPrintable(error));
    QVERIFY(waitForAnalysis(*window.document()));
    // The other file: ex2 with C at D's outer loop.
    QTemporaryDir dir;
    const QString other = dir.filePath(QStringLiteral("outer.py"));
    QString text = window.document()->textDocument()->toPlainText();
    text.replace(QStringLiteral("s[C].compute_at(s[D], D.op.axis[1])"),
                 QStringLiteral("s[C].compute_at(s[D], D.op.axis[0])"));
    {
        QFile file(other);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.toUtf8());
    }
    ComparePanel* compare = window.scheduleTools()->compare();
    QSignalSpy shown(compare, &ComparePanel::diffShown);
    compare->setMode(ComparePanel::Mode::OtherFile);
    window.dock(QStringLiteral("compareDock"))->raise();
    QTRY_VERIFY(compare->summaryText().startsWith(QStringLiteral("Choose a file")));
    QVERIFY(compare->setOtherFile(other));
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY2(compare->diff(), qPrintable(compare->summaryText()));
    QVERIFY2(
        compare->summaryText().startsWith(QStringLiteral("Left: this script. Right: outer.py.")),
        qPrintable(compare->summaryText()));
    QVERIFY(lineOf(compare->leftView(), QStringLiteral("C[int32 * 1]")) >= 0);
    QVERIFY(lineOf(compare->rightView(), QStringLiteral("C[int32 * 16]")) >= 0);
    // A file that fails says why, naming its line.
    {
        QFile file(other);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("import tvm\nundefined_name\n");
    }
    QVERIFY(compare->setOtherFile(other));
    QVERIFY(shown.wait(kAnalysisTimeoutMs));
    QVERIFY(!compare->diff());
    QVERIFY2(compare->summaryText().contains(QStringLiteral("outer.py:2")),
             qPrintable(compare->summaryText()));
    QVERIFY(!compare->setOtherFile(dir.filePath(QStringLiteral("missing.py"))));
    QVERIFY(compare->summaryText().startsWith(QStringLiteral("Cannot compare with")));
}

BS_GUI_TEST_SUITE(CompareTest);

} // namespace bs::gui::test

#include "CompareTest.moc"
