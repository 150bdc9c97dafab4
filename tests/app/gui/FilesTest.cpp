// The main window's file actions (issue 7, item 6) driven as a user would, with the dialogs
// answered by the test (MainWindow::setDialogs): Open and Save As use the file the "dialog"
// returns, unsaved changes are never dropped without asking (on open, on an example, on close),
// and dropping a script onto the window opens it.
#include "GuiTestSupport.h"

#include "panels/EditorPanel.h"
#include "views/ScriptEditor.h"

#include <QAction>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QUrl>
#include <QtTest>

Q_DECLARE_METATYPE(bs::gui::Dialogs::Unsaved)

namespace bs::gui::test {

namespace {

/// A window whose dialogs answer from these fields and record what was asked.
struct Fixture {
    MainWindow window{MainWindow::Options{false, false}};
    QTemporaryDir dir;
    QString openAnswer;
    QString saveAnswer;
    Dialogs::Unsaved unsavedAnswer = Dialogs::Unsaved::Cancel;
    QStringList asked; ///< "open: TITLE", "save: TITLE", "unsaved: NAME", "error: MESSAGE"

    Fixture() {
        Dialogs dialogs;
        dialogs.openFile = [this](const QString& title, const QString&, const QString&) {
            asked << QStringLiteral("open: ") + title;
            return openAnswer;
        };
        dialogs.saveFile = [this](const QString& title, const QString&, const QString&) {
            asked << QStringLiteral("save: ") + title;
            return saveAnswer;
        };
        dialogs.askUnsaved = [this](const QString& name) {
            asked << QStringLiteral("unsaved: ") + name;
            return unsavedAnswer;
        };
        dialogs.askYesNo = [this](const QString& title, const QString&) {
            asked << QStringLiteral("yes/no: ") + title;
            return false;
        };
        dialogs.showError = [this](const QString&, const QString& message) {
            asked << QStringLiteral("error: ") + message;
        };
        window.setDialogs(std::move(dialogs));
        window.show();
    }

    /// Writes `text` to `name` in the fixture's folder and returns its path.
    QString writeScript(const QString& name, const QByteArray& text) {
        const QString path = dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            return QString();
        return path;
    }

    /// An untitled script with an unsaved edit.
    void editUntitled() {
        window.document()->setUntitled(QStringLiteral("x = 1\n"), QStringLiteral("mine.py"));
        window.document()->textDocument()->setPlainText(QStringLiteral("x = 2  # edited\n"));
    }

    void trigger(const char* actionName) {
        QAction* action = window.findChild<QAction*>(QLatin1String(actionName));
        QVERIFY2(action, actionName);
        action->trigger();
    }

    QString text() const { return window.document()->textDocument()->toPlainText(); }
};

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Drags `mime` onto `target` (the widget under the cursor: the event goes up to the first
/// widget that accepts it, as in a real drag) and drops it; whether some widget accepted it.
bool dropOnto(QWidget* target, QMimeData* mime) {
    const QPoint at(target->width() / 2, target->height() / 2);
    QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(QPointF(at), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &drop);
    return true;
}

} // namespace

class FilesTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void openUsesTheChosenFile();
    void cancelledOpenKeepsTheScript();
    void saveAsWritesTheChosenFileAndRenamesTheScript();
    void savingAnUntitledScriptAsksWhereToSaveIt();
    void unsavedChangesAreNotDroppedOnOpen_data();
    void unsavedChangesAreNotDroppedOnOpen();
    void closingWithUnsavedChangesAsksFirst();
    void choosingAnExampleAsksAboutUnsavedChanges();
    void droppingAScriptOpensIt();
    void droppingAFileThatIsNoScriptIsRefused();
    void anUnreadableFileIsReportedByName();
};

void FilesTest::openUsesTheChosenFile() {
    Fixture f;
    const QString path = f.writeScript(QStringLiteral("opened.py"), "y = 3\n");
    f.openAnswer = path;
    f.trigger("openAction");
    QCOMPARE(f.asked, QStringList{QStringLiteral("open: Open Script")});
    QCOMPARE(f.window.document()->filePath(), path);
    QCOMPARE(f.text(), QStringLiteral("y = 3\n"));
    QVERIFY(!f.window.document()->isModified());
    QVERIFY(f.window.windowTitle().startsWith(QStringLiteral("opened.py")));
}

void FilesTest::cancelledOpenKeepsTheScript() {
    Fixture f;
    f.window.document()->setUntitled(QStringLiteral("z = 1\n"), QStringLiteral("kept.py"));
    f.trigger("openAction"); // the dialog answers nothing: cancelled
    QCOMPARE(f.asked.size(), 1);
    QCOMPARE(f.text(), QStringLiteral("z = 1\n"));
    QCOMPARE(f.window.document()->scriptName(), QStringLiteral("kept.py"));
}

void FilesTest::saveAsWritesTheChosenFileAndRenamesTheScript() {
    Fixture f;
    f.editUntitled();
    f.saveAnswer = f.dir.filePath(QStringLiteral("saved.py"));
    f.trigger("saveAsAction");
    QCOMPARE(f.asked, QStringList{QStringLiteral("save: Save Script As")});
    QCOMPARE(readAll(f.saveAnswer), QByteArray("x = 2  # edited\n"));
    QCOMPARE(f.window.document()->filePath(), f.saveAnswer);
    QVERIFY(!f.window.document()->isModified());
    QVERIFY(f.window.windowTitle().startsWith(QStringLiteral("saved.py")));
}

void FilesTest::savingAnUntitledScriptAsksWhereToSaveIt() {
    Fixture f;
    f.editUntitled();
    f.trigger("saveAction"); // cancelled: nothing written, still modified
    QCOMPARE(f.asked, QStringList{QStringLiteral("save: Save Script As")});
    QVERIFY(f.window.document()->isModified());
    // Once it has a file, Save writes it without asking.
    f.saveAnswer = f.dir.filePath(QStringLiteral("first.py"));
    f.trigger("saveAction");
    f.window.document()->textDocument()->setPlainText(QStringLiteral("x = 3\n"));
    f.asked.clear();
    f.trigger("saveAction");
    QVERIFY(f.asked.isEmpty());
    QCOMPARE(readAll(f.saveAnswer), QByteArray("x = 3\n"));
}

void FilesTest::unsavedChangesAreNotDroppedOnOpen_data() {
    QTest::addColumn<Dialogs::Unsaved>("answer");
    QTest::addColumn<bool>("opened");
    QTest::addColumn<bool>("savedFirst");
    QTest::newRow("cancel") << Dialogs::Unsaved::Cancel << false << false;
    QTest::newRow("discard") << Dialogs::Unsaved::Discard << true << false;
    QTest::newRow("save") << Dialogs::Unsaved::Save << true << true;
}

void FilesTest::unsavedChangesAreNotDroppedOnOpen() {
    QFETCH(Dialogs::Unsaved, answer);
    QFETCH(bool, opened);
    QFETCH(bool, savedFirst);
    Fixture f;
    f.editUntitled();
    f.unsavedAnswer = answer;
    f.openAnswer = f.writeScript(QStringLiteral("other.py"), "w = 4\n");
    f.saveAnswer = f.dir.filePath(QStringLiteral("mine.py"));
    f.trigger("openAction");
    QCOMPARE(f.asked.value(0), QStringLiteral("unsaved: mine.py"));
    QCOMPARE(f.text(), opened ? QStringLiteral("w = 4\n") : QStringLiteral("x = 2  # edited\n"));
    // Cancel asks for no file to open; Save asks where to save the untitled script first.
    QCOMPARE(f.asked.contains(QStringLiteral("open: Open Script")), opened);
    QCOMPARE(QFile::exists(f.saveAnswer), savedFirst);
    if (savedFirst)
        QCOMPARE(readAll(f.saveAnswer), QByteArray("x = 2  # edited\n"));
}

void FilesTest::closingWithUnsavedChangesAsksFirst() {
    Fixture f;
    f.editUntitled();
    QVERIFY(!f.window.close()); // Cancel: the window stays, with the text
    QCOMPARE(f.asked, QStringList{QStringLiteral("unsaved: mine.py")});
    QVERIFY(f.window.isVisible());
    QCOMPARE(f.text(), QStringLiteral("x = 2  # edited\n"));
    f.unsavedAnswer = Dialogs::Unsaved::Discard;
    QVERIFY(f.window.close());
    // A saved script closes without a question.
    Fixture g;
    g.window.document()->setUntitled(QStringLiteral("x = 1\n"), QStringLiteral("clean.py"));
    QVERIFY(g.window.close());
    QVERIFY(g.asked.isEmpty());
}

void FilesTest::choosingAnExampleAsksAboutUnsavedChanges() {
    Fixture f;
    f.editUntitled();
    QMenu* examples = nullptr;
    for (QAction* menu : f.window.menuBar()->actions()) {
        if (menu->text() == QStringLiteral("E&xamples"))
            examples = menu->menu();
    }
    QVERIFY(examples && !examples->actions().isEmpty());
    examples->actions().first()->trigger();
    QCOMPARE(f.asked, QStringList{QStringLiteral("unsaved: mine.py")});
    QCOMPARE(f.text(), QStringLiteral("x = 2  # edited\n"));
}

void FilesTest::droppingAScriptOpensIt() {
    Fixture f;
    f.window.document()->setUntitled(QStringLiteral("z = 1\n"), QStringLiteral("kept.py"));
    const QString path = f.writeScript(QStringLiteral("dropped.py"), "v = 5\n");
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    // Dropped on the script editor, which leaves files to the window (it would paste the path).
    ScriptEditor* editor = f.window.editorPanel()->editor();
    QVERIFY(dropOnto(editor->viewport(), &mime));
    QCOMPARE(f.window.document()->filePath(), path);
    QCOMPARE(f.text(), QStringLiteral("v = 5\n"));
    QVERIFY(f.asked.isEmpty());
}

void FilesTest::droppingAFileThatIsNoScriptIsRefused() {
    Fixture f;
    f.window.document()->setUntitled(QStringLiteral("z = 1\n"), QStringLiteral("kept.py"));
    const QString image = f.writeScript(QStringLiteral("picture.png"), "\x89PNG");
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(image), QUrl::fromLocalFile(f.dir.path())});
    QVERIFY(!dropOnto(&f.window, &mime));
    QCOMPARE(f.text(), QStringLiteral("z = 1\n"));
    QVERIFY(f.asked.isEmpty());
}

void FilesTest::anUnreadableFileIsReportedByName() {
    Fixture f;
    f.openAnswer = f.dir.filePath(QStringLiteral("gone.py"));
    f.trigger("openAction");
    QCOMPARE(f.asked.size(), 2);
    QVERIFY2(f.asked.value(1).startsWith(QStringLiteral("error: ")) &&
                 f.asked.value(1).contains(QStringLiteral("gone.py")),
             qPrintable(f.asked.value(1)));
}

BS_GUI_TEST_SUITE(FilesTest);

} // namespace bs::gui::test

#include "FilesTest.moc"
