// Autosave and crash recovery (issue 7, item 6): unsaved text is written beside a lock held by
// the running session, offered back when that session ended without saving, and discarded
// once the text is saved.
#include "GuiTestSupport.h"

#include "document/Autosave.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

namespace bs::gui::test {

class AutosaveTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void unsavedTextIsRecoveredAfterTheSessionEnds();
    void aRunningSessionsTextIsNotOffered();
    void savingDiscardsTheSnapshot();
    void recoverRestoresTheTextAsUnsaved();
};

void AutosaveTest::unsavedTextIsRecoveredAfterTheSessionEnds() {
    QTemporaryDir dir;
    {
        ScriptDocument document;
        document.setUntitled(QStringLiteral("x = 1\n"), QStringLiteral("mine.py"));
        document.textDocument()->setPlainText(QStringLiteral("x = 2  # unsaved\n"));
        Autosave autosave(&document, nullptr, dir.path());
        QVERIFY(autosave.saveNow());
        QVERIFY(QFile::exists(autosave.snapshotPath()));
        // The session ends with the text unsaved (as after a crash, the snapshot stays).
    }
    ScriptDocument next;
    Autosave autosave(&next, nullptr, dir.path());
    const std::optional<RecoveredScript> found = autosave.findRecoverable();
    QVERIFY(found);
    QCOMPARE(found->text, QStringLiteral("x = 2  # unsaved\n"));
    QCOMPARE(found->scriptName, QStringLiteral("mine.py"));
    QVERIFY(found->savedAt.isValid());
    autosave.discardRecoverable(*found);
    QVERIFY(!autosave.findRecoverable());
}

void AutosaveTest::aRunningSessionsTextIsNotOffered() {
    QTemporaryDir dir;
    ScriptDocument first;
    first.textDocument()->setPlainText(QStringLiteral("y = 1\n"));
    Autosave running(&first, nullptr, dir.path());
    QVERIFY(running.saveNow());
    ScriptDocument second;
    Autosave other(&second, nullptr, dir.path());
    QVERIFY(!other.findRecoverable());
}

void AutosaveTest::savingDiscardsTheSnapshot() {
    QTemporaryDir dir;
    ScriptDocument document;
    document.textDocument()->setPlainText(QStringLiteral("z = 1\n"));
    Autosave autosave(&document, nullptr, dir.path());
    QVERIFY(autosave.saveNow());
    QVERIFY(QFile::exists(autosave.snapshotPath()));
    QString error;
    QVERIFY2(document.saveAs(dir.filePath(QStringLiteral("z.py")), &error), qPrintable(error));
    QVERIFY(!QFile::exists(autosave.snapshotPath()));
}

void AutosaveTest::recoverRestoresTheTextAsUnsaved() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("kept.py"));
    ScriptDocument document;
    document.recover(QStringLiteral("w = 3\n"), path, QStringLiteral("kept.py"));
    QCOMPARE(document.textDocument()->toPlainText(), QStringLiteral("w = 3\n"));
    QVERIFY(document.isModified());
    QCOMPARE(document.filePath(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(document.scriptName(), QStringLiteral("kept.py"));
    QVERIFY(waitForAnalysis(document));
}

BS_GUI_TEST_SUITE(AutosaveTest);

} // namespace bs::gui::test

#include "AutosaveTest.moc"
