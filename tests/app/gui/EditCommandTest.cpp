// Schedule edits on a real script (edit/ScheduleEditor.h, edit/EditActions.h): each edit's
// Python runs in the embedded interpreter and re-analyses, undo/redo restore the exact text and
// the analysis of it, and typing and schedule edits share one history.
#include "GuiTestSupport.h"

#include "edit/EditActions.h"
#include "edit/ScheduleEditor.h"
#include "edit/StageDialog.h"
#include "models/EngineText.h"
#include "models/StageQueries.h"
#include "views/ScriptEditor.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QCompleter>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QPlainTextEdit>
#include <QTextDocument>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtTest>

namespace bs::gui::test {

namespace {

const char* const kScript = R"(import tvm
from tvm import te

A = te.placeholder((64, 64), name="A")
B = te.compute((64, 64), lambda i, j: A[i, j] + 1.0, name="B")
C = te.compute((64, 64), lambda i, j: B[i, j] * 2.0, name="C")
s = te.create_schedule(C.op)
i, j = s[C].op.axis
)";

/// What the views would show of `stage` in the document's current analysis, as one line:
/// `stages=3 leaves=i,j attach=kGroupRoot scope= kinds=0,0 bound=,`.
QString describe(const ScriptDocument& document, const QString& stageName) {
    const auto& analysis = document.analysis();
    if (!analysis)
        return QStringLiteral("no analysis");
    const Schedule& sch = analysis->program.schedule;
    const Stage stage = findStageByName(sch, stageName);
    if (!stage.defined())
        return QStringLiteral("no stage ") + stageName;
    QStringList leaves, kinds, bound;
    for (const IterVar& iv : stage->leafIterVars) {
        leaves << qstr(iv->var.name());
        const IterVarAttr* attr = stage.attrOf(iv);
        kinds << QString::number(attr ? int(attr->iterType) : 0);
        bound << (attr && attr->bindThread.defined() ? qstr(attr->bindThread->threadTag)
                                                     : QString());
    }
    return QStringLiteral("stages=%1 leaves=%2 attach=%3 scope=%4 kinds=%5 bound=%6")
        .arg(sch.stages().size())
        .arg(leaves.join(','), QString::fromLatin1(attachTypeName(stage->attachType)),
             qstr(stage->scope), kinds.join(','), bound.join(','));
}

QString problemText(const ScriptDocument& document) {
    const auto& problem = document.problem();
    return problem ? QString::fromStdString(problem->toString()) : QString();
}

} // namespace

class EditCommandTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void editRoundTrip_data();
    void editRoundTrip();
    void refusedEditLeavesTheScriptAlone();
    void typingAndEditsShareOneHistory();
    void ctrlZInTheEditorUndoesScheduleEditsToo();
    void editorTextZoomsWithTheKeys();
    void computeAtWaitsForTheTargetLoop();
    void editsWaitForACurrentAnalysis();
    void theCheckRunsOffTheGuiThreadAndYieldsToTyping();
    void actionsFollowTheSelectionAndAskForArguments();
    void singleKeysEditOutsideTheScriptEditorOnly();
    void contextMenuDisablesIllegalEditsWithTheReason();
    void tileAndFuseWithThePreviousLoop();
    void buildAProgramFromAnEmptyFileWithoutTypingAndUndoIt();
    void stageDialogDescribesTheStageAndCompletesNames();

private:
    bool openScript();

    ScriptDocument* m_document = nullptr;
    ScheduleEditor* m_editor = nullptr;
};

void EditCommandTest::init() {
#if !BOUNDSCOPE_WITH_PYTHON
    QSKIP("this build has no Python front end");
#endif
    m_document = new ScriptDocument;
    m_editor = new ScheduleEditor(m_document, m_document);
}

void EditCommandTest::cleanup() {
    delete m_document;
    m_document = nullptr;
}

bool EditCommandTest::openScript() {
    m_document->setUntitled(QString::fromLatin1(kScript), QStringLiteral("edit.py"));
    return waitForAnalysis(*m_document) && !m_document->problem();
}

void EditCommandTest::editRoundTrip_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("iterVar");
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("expected"); ///< part of describe(stage) after the edit
    const auto row = [](const char* name, EditKind kind, const char* stage, const char* iv,
                        const char* argument, const QString& expected) {
        QTest::newRow(name) << int(kind) << QString::fromLatin1(stage) << QString::fromLatin1(iv)
                            << QString::fromLatin1(argument) << expected;
    };
    row("split", EditKind::Split, "C", "i", "8", QStringLiteral("leaves=i.outer,i.inner,j "));
    row("fuse", EditKind::Fuse, "C", "i", "", QStringLiteral("leaves=i.j.fused "));
    row("move in", EditKind::MoveIn, "C", "i", "", QStringLiteral("leaves=j,i "));
    row("move out", EditKind::MoveOut, "C", "j", "", QStringLiteral("leaves=j,i "));
    row("bind", EditKind::Bind, "C", "i", "blockIdx.x", QStringLiteral("bound=blockIdx.x,"));
    row("vectorize", EditKind::Vectorize, "C", "j", "",
        QStringLiteral("kinds=0,%1").arg(int(IterVarType::Vectorized)));
    row("unroll", EditKind::Unroll, "C", "j", "",
        QStringLiteral("kinds=0,%1").arg(int(IterVarType::Unrolled)));
    row("parallel", EditKind::Parallel, "C", "i", "",
        QStringLiteral("kinds=%1,0").arg(int(IterVarType::Parallelized)));
    row("compute_at", EditKind::ComputeAt, "B", "", "C.i", QStringLiteral("attach=kScope"));
    row("compute_inline", EditKind::ComputeInline, "B", "", "", QStringLiteral("attach=kInline"));
    row("compute_root", EditKind::ComputeRoot, "B", "", "", QStringLiteral("attach=kGroupRoot"));
    row("set_scope", EditKind::SetScope, "B", "", "local", QStringLiteral("scope=local"));
    row("cache_read", EditKind::CacheRead, "A", "", "shared", QStringLiteral("stages=4"));
    row("cache_write", EditKind::CacheWrite, "C", "", "local", QStringLiteral("stages=4"));
}

void EditCommandTest::editRoundTrip() {
    QFETCH(int, kind);
    QFETCH(QString, stage);
    QFETCH(QString, iterVar);
    QFETCH(QString, argument);
    QFETCH(QString, expected);
    QVERIFY(openScript());
    const QString original = m_document->textDocument()->toPlainText();
    const QString before = describe(*m_document, stage);

    ScheduleEdit edit;
    edit.kind = EditKind(kind);
    edit.stage = stage.toStdString();
    edit.iterVar = iterVar.toStdString();
    edit.factor = argument.toLongLong();
    edit.thread = argument.toStdString();
    edit.scope = argument.toStdString();
    edit.targetStage = argument.section(QLatin1Char('.'), 0, 0).toStdString();
    edit.targetIterVar = argument.section(QLatin1Char('.'), 1).toStdString();
    QString error;
    QVERIFY2(m_editor->apply(edit, &error), qPrintable(error));
    QVERIFY(waitForEditedAnalysis(*m_editor));
    const QString edited = m_document->textDocument()->toPlainText();
    QVERIFY(edited.startsWith(original) && edited.size() > original.size());
    QVERIFY2(!m_document->problem(), qPrintable(problemText(*m_document) + "\n" + edited));
    QVERIFY2(describe(*m_document, stage).contains(expected),
             qPrintable(describe(*m_document, stage)));

    m_editor->undoStack()->undo();
    QCOMPARE(m_document->textDocument()->toPlainText(), original);
    QVERIFY(waitForAnalysis(*m_document));
    QVERIFY(!m_document->problem());
    QCOMPARE(describe(*m_document, stage), before);

    m_editor->undoStack()->redo();
    QCOMPARE(m_document->textDocument()->toPlainText(), edited);
    QVERIFY(waitForAnalysis(*m_document));
    QVERIFY(!m_document->problem());
    QVERIFY(describe(*m_document, stage).contains(expected));
}

void EditCommandTest::refusedEditLeavesTheScriptAlone() {
    QVERIFY(openScript());
    QSignalSpy refused(m_editor, &ScheduleEditor::refused);
    ScheduleEdit edit;
    edit.kind = EditKind::Fuse;
    edit.stage = "C";
    edit.iterVar = "j";
    QString error;
    QVERIFY(!m_editor->apply(edit, &error));
    QCOMPARE(error, QStringLiteral("'j' is the innermost loop of stage 'C'"));
    QCOMPARE(refused.count(), 1);
    QCOMPARE(m_document->textDocument()->toPlainText(), QString::fromLatin1(kScript));
    QCOMPARE(m_editor->undoStack()->count(), 0);
    // An edit that changes nothing is refused: it would make no step of the history.
    ScheduleEdit vectorize;
    vectorize.kind = EditKind::Vectorize;
    vectorize.stage = "C";
    vectorize.iterVar = "j";
    QVERIFY2(m_editor->apply(vectorize, &error), qPrintable(error));
    QVERIFY(waitForEditedAnalysis(*m_editor));
    QVERIFY2(m_editor->apply(vectorize, &error), qPrintable(error)); // legal: checked by running
    QVERIFY(waitForEdit(*m_editor));
    QCOMPARE(refused.count(), 2);
    QCOMPARE(refused.last().first().toString(), QStringLiteral("the script already does that"));
    QCOMPARE(m_editor->undoStack()->count(), 1);
}

void EditCommandTest::typingAndEditsShareOneHistory() {
    QVERIFY(openScript());
    const QString original = m_document->textDocument()->toPlainText();
    ScheduleEdit vectorize;
    vectorize.kind = EditKind::Vectorize;
    vectorize.stage = "C";
    vectorize.iterVar = "j";
    QString error;
    QVERIFY2(m_editor->apply(vectorize, &error), qPrintable(error));
    QVERIFY(waitForEditedAnalysis(*m_editor));
    const QString afterEdit = m_document->textDocument()->toPlainText();
    // Typing after the edit: its own step in the same history.
    QTextCursor cursor(m_document->textDocument());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(QStringLiteral("x = 1\n"));
    const QString afterTyping = m_document->textDocument()->toPlainText();
    QCOMPARE(m_editor->undoStack()->count(), 2);
    QCOMPARE(m_editor->undoStack()->text(0), QStringLiteral("vectorize C.j"));
    QCOMPARE(m_editor->undoStack()->text(1), QStringLiteral("Typing"));
    QVERIFY(waitForAnalysis(*m_document));
    // A second edit on top of the typing.
    ScheduleEdit parallel;
    parallel.kind = EditKind::Parallel;
    parallel.stage = "C";
    parallel.iterVar = "i";
    QVERIFY2(m_editor->apply(parallel, &error), qPrintable(error));
    QVERIFY(waitForEdit(*m_editor));
    const QString afterSecond = m_document->textDocument()->toPlainText();
    QCOMPARE(m_editor->undoStack()->count(), 3);
    // Undo steps back through them in order, each re-analysed; redo replays them.
    const QString texts[] = {original, afterEdit, afterTyping, afterSecond};
    for (int step = 2; step >= 0; --step) {
        m_editor->undoStack()->undo();
        QCOMPARE(m_document->textDocument()->toPlainText(), texts[step]);
        QVERIFY(waitForAnalysis(*m_document));
        QVERIFY(!m_document->problem());
    }
    QVERIFY(describe(*m_document, QStringLiteral("C")).contains(QStringLiteral("kinds=0,0")));
    for (int step = 1; step <= 3; ++step) {
        m_editor->undoStack()->redo();
        QCOMPARE(m_document->textDocument()->toPlainText(), texts[step]);
    }
    QVERIFY(waitForAnalysis(*m_document));
    QVERIFY(describe(*m_document, QStringLiteral("C"))
                .contains(QStringLiteral("kinds=%1,%2")
                              .arg(int(IterVarType::Parallelized))
                              .arg(int(IterVarType::Vectorized))));
    // Typed text stops a compute_at waiting for its loop, and opening a file starts afresh.
    QVERIFY(m_editor->beginComputeAt(QStringLiteral("B"), &error));
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(QStringLiteral("# typed\n"));
    QVERIFY(!m_editor->isPickingTarget());
    QVERIFY(!m_editor->blocker().isEmpty());
    QVERIFY(openScript());
    QCOMPARE(m_editor->undoStack()->count(), 0);
}

void EditCommandTest::ctrlZInTheEditorUndoesScheduleEditsToo() {
    QVERIFY(openScript());
    ScriptEditor editor;
    editor.setDocument(m_document->textDocument());
    editor.setHistory(m_editor->undoStack());
    ScheduleEdit unroll;
    unroll.kind = EditKind::Unroll;
    unroll.stage = "C";
    unroll.iterVar = "j";
    QString error;
    QVERIFY2(m_editor->apply(unroll, &error), qPrintable(error));
    QVERIFY(waitForEditedAnalysis(*m_editor));
    QTest::keyClick(&editor, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClicks(&editor, QStringLiteral("y = 2"));
    QCOMPARE(m_editor->undoStack()->count(), 2);
    QTest::keySequence(&editor, QKeySequence::Undo);
    QVERIFY(!m_document->textDocument()->toPlainText().contains(QStringLiteral("y = 2")));
    QVERIFY(m_document->textDocument()->toPlainText().contains(QStringLiteral("s[C].unroll(j)")));
    QTest::keySequence(&editor, QKeySequence::Undo);
    QCOMPARE(m_document->textDocument()->toPlainText(), QString::fromLatin1(kScript));
    QTest::keySequence(&editor, QKeySequence::Redo);
    QVERIFY(m_document->textDocument()->toPlainText().contains(QStringLiteral("s[C].unroll(j)")));
    QCOMPARE(m_editor->undoStack()->index(), 1);
}

void EditCommandTest::editorTextZoomsWithTheKeys() {
    ScriptEditor editor;
    const qreal size = editor.font().pointSizeF();
    QTest::keyClick(&editor, Qt::Key_Equal, Qt::ControlModifier);
    QTest::keyClick(&editor, Qt::Key_Equal, Qt::ControlModifier);
    QCOMPARE(editor.font().pointSizeF(), size + 2);
    QTest::keySequence(&editor, QKeySequence::ZoomOut);
    QCOMPARE(editor.font().pointSizeF(), size + 1);
    QVERIFY(editor.toPlainText().isEmpty()); // nothing typed
}

void EditCommandTest::computeAtWaitsForTheTargetLoop() {
    QVERIFY(openScript());
    QString error;
    QVERIFY(m_editor->beginComputeAt(QStringLiteral("B"), &error));
    QVERIFY(m_editor->isPickingTarget());
    m_document->selection()->select(QStringLiteral("C")); // a stage alone is no target
    QCOMPARE(m_editor->undoStack()->count(), 0);
    m_document->selection()->select(QStringLiteral("C"), QStringLiteral("j"));
    QVERIFY(waitForEditedAnalysis(*m_editor));
    QVERIFY(!m_editor->isPickingTarget());
    QCOMPARE(m_editor->undoStack()->count(), 1);
    QVERIFY(m_document->textDocument()->toPlainText().endsWith(
        QStringLiteral("s[B].compute_at(s[C], j)\n")));
    QVERIFY(describe(*m_document, QStringLiteral("B")).contains(QStringLiteral("attach=kScope")));
}

void EditCommandTest::editsWaitForACurrentAnalysis() {
    QVERIFY(openScript());
    QVERIFY(m_editor->blocker().isEmpty());
    m_document->textDocument()->setPlainText(QString::fromLatin1(kScript) +
                                             QStringLiteral("x = 1\n"));
    QCOMPARE(m_editor->blocker(), QStringLiteral("the script changed since it was analysed"));
    m_document->reanalyse();
    QVERIFY(waitForAnalysis(*m_document));
    QVERIFY(m_editor->blocker().isEmpty());
    m_document->textDocument()->setPlainText(QStringLiteral("raise ValueError('no')\n"));
    m_document->reanalyse();
    QVERIFY(waitForAnalysis(*m_document));
    QCOMPARE(m_editor->blocker(), QStringLiteral("the script has an error: fix it first"));
}

void EditCommandTest::theCheckRunsOffTheGuiThreadAndYieldsToTyping() {
    QVERIFY(openScript());
    QSignalSpy refused(m_editor, &ScheduleEditor::refused);
    QSignalSpy checking(m_editor, &ScheduleEditor::checkingChanged);
    ScheduleEdit unroll;
    unroll.kind = EditKind::Unroll;
    unroll.stage = "C";
    unroll.iterVar = "j";
    QString error;
    QVERIFY2(m_editor->apply(unroll, &error), qPrintable(error));
    // The edited script runs on a worker: the text is unchanged until its check ends, and no
    // other edit starts meanwhile.
    QVERIFY(m_editor->isChecking());
    QCOMPARE(checking.count(), 1);
    QCOMPARE(m_document->textDocument()->toPlainText(), QString::fromLatin1(kScript));
    QCOMPARE(m_editor->blocker(), QStringLiteral("the previous edit is still being checked"));
    // Typing meanwhile wins: the edit was made for the old text.
    QTextCursor cursor(m_document->textDocument());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(QStringLiteral("x = 1\n"));
    QVERIFY(waitForEdit(*m_editor));
    QCOMPARE(refused.count(), 1);
    QCOMPARE(refused.first().first().toString(),
             QStringLiteral("the script changed while the edit was checked: make it again"));
    QCOMPARE(m_document->textDocument()->toPlainText(),
             QString::fromLatin1(kScript) + QStringLiteral("x = 1\n"));
    QCOMPARE(m_editor->undoStack()->count(), 1); // the typing only
}

void EditCommandTest::actionsFollowTheSelectionAndAskForArguments() {
    QVERIFY(openScript());
    QMainWindow window;
    EditActions actions(m_editor, &window);
    QStringList asked;
    actions.setPrompt([&asked](const QString&, const QString& label, const QStringList&) {
        asked << label;
        return std::optional<QString>(QStringLiteral("4"));
    });
    m_document->selection()->select(QStringLiteral("C"));
    QVERIFY(!actions.action(EditKind::Split)->isEnabled());
    QVERIFY(actions.action(EditKind::CacheWrite)->isEnabled());
    m_document->selection()->select(QStringLiteral("C"), QStringLiteral("i"));
    QVERIFY(actions.action(EditKind::Split)->isEnabled());
    QCOMPARE(actions.action(EditKind::Split)->shortcut(), QKeySequence(Qt::Key_S));
    QCOMPARE(actions.action(EditKind::MoveOut)->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_Up));
    actions.action(EditKind::Split)->trigger();
    QCOMPARE(asked.size(), 1);
    // While the edit is checked, and then while the edited script runs, nothing can be edited.
    QVERIFY(!actions.action(EditKind::Fuse)->isEnabled());
    QVERIFY(waitForEditedAnalysis(*m_editor));
    QVERIFY(m_document->textDocument()->toPlainText().endsWith(
        QStringLiteral("i_outer, i_inner = s[C].split(i, factor=4)\n")));
    QVERIFY(actions.action(EditKind::Fuse)->isEnabled());
    actions.undoAction()->trigger();
    QCOMPARE(m_document->textDocument()->toPlainText(), QString::fromLatin1(kScript));
}

void EditCommandTest::singleKeysEditOutsideTheScriptEditorOnly() {
    QVERIFY(openScript());
    QMainWindow window;
    auto* editor = new QPlainTextEdit(&window);
    auto* other = new QListWidget(&window);
    auto* central = new QWidget(&window);
    auto* layout = new QVBoxLayout(central);
    layout->addWidget(editor);
    layout->addWidget(other);
    window.setCentralWidget(central);
    EditActions actions(m_editor, &window);
    int prompts = 0;
    actions.setPrompt([&prompts](const QString&, const QString&, const QStringList&) {
        ++prompts;
        return std::optional<QString>(QStringLiteral("2"));
    });
    m_document->selection()->select(QStringLiteral("C"), QStringLiteral("j"));
    window.show();
    window.activateWindow();
    if (!QTest::qWaitForWindowActive(&window))
        QSKIP("the window cannot be activated on this platform");
    editor->setFocus();
    QTest::keyClick(editor, Qt::Key_S);
    QCOMPARE(editor->toPlainText(), QStringLiteral("s"));
    QCOMPARE(prompts, 0);
    other->setFocus();
    QTest::keyClick(other, Qt::Key_S);
    QVERIFY(waitForEdit(*m_editor));
    QCOMPARE(prompts, 1);
    QVERIFY(m_document->textDocument()->toPlainText().endsWith(
        QStringLiteral("j_outer, j_inner = s[C].split(j, factor=2)\n")));
}

void EditCommandTest::contextMenuDisablesIllegalEditsWithTheReason() {
    QVERIFY(openScript());
    QMainWindow window;
    EditActions actions(m_editor, &window);
    const auto entry = [](QMenu* menu, const QString& text) -> QAction* {
        for (QAction* action : menu->actions()) {
            if (action->text() == text)
                return action;
        }
        return nullptr;
    };
    // The innermost loop of C: nothing to fuse it with or tile it with, but a previous loop.
    m_document->selection()->select(QStringLiteral("C"), QStringLiteral("j"));
    std::unique_ptr<QMenu> menu(actions.createContextMenu(&window));
    QAction* fuseNext = entry(menu.get(), QStringLiteral("&Fuse with Next"));
    QVERIFY(fuseNext && !fuseNext->isEnabled());
    QCOMPARE(fuseNext->toolTip(), QStringLiteral("'j' is the innermost loop of stage 'C'"));
    QAction* tile = entry(menu.get(), QStringLiteral("&Tile with Next…"));
    QVERIFY(tile && !tile->isEnabled());
    QVERIFY(entry(menu.get(), QStringLiteral("Fuse with &Previous"))->isEnabled());
    QVERIFY(entry(menu.get(), QStringLiteral("&Vectorize"))->isEnabled());
    // A loop's menu has only loop edits; rfactor needs a reduction loop.
    QVERIFY(!entry(menu.get(), QStringLiteral("Compute &Inline")));
    QAction* rfactor = entry(menu.get(), QStringLiteral("R&factor"));
    QVERIFY(rfactor && !rfactor->isEnabled() && !rfactor->toolTip().isEmpty());
    // A placeholder has no loops to compute anywhere; B can be inlined.
    m_document->selection()->select(QStringLiteral("A"));
    menu.reset(actions.createContextMenu(&window));
    QAction* inlineA = entry(menu.get(), QStringLiteral("Compute &Inline"));
    QVERIFY(inlineA && !inlineA->isEnabled());
    QCOMPARE(inlineA->toolTip(),
             QStringLiteral("'A' is a placeholder: it has no loops to schedule"));
    QVERIFY(entry(menu.get(), QStringLiteral("&Cache Read…"))->isEnabled());
    m_document->selection()->select(QStringLiteral("B"));
    menu.reset(actions.createContextMenu(&window));
    QVERIFY(entry(menu.get(), QStringLiteral("Compute &Inline"))->isEnabled());
    QVERIFY(!entry(menu.get(), QStringLiteral("&Split…")));
}

void EditCommandTest::tileAndFuseWithThePreviousLoop() {
    QVERIFY(openScript());
    QMainWindow window;
    EditActions actions(m_editor, &window);
    QStringList answers = {QStringLiteral("4"), QStringLiteral("8")};
    actions.setPrompt([&answers](const QString&, const QString&, const QStringList&) {
        return std::optional<QString>(answers.takeFirst());
    });
    m_document->selection()->select(QStringLiteral("C"), QStringLiteral("i"));
    actions.action(EditActions::Entry::Tile)->trigger();
    QVERIFY(waitForEditedAnalysis(*m_editor));
    QVERIFY(m_document->textDocument()->toPlainText().endsWith(QStringLiteral(
        "i_outer, j_outer, i_inner, j_inner = s[C].tile(i, j, x_factor=4, y_factor=8)\n")));
    QVERIFY(!m_document->problem());
    QVERIFY(describe(*m_document, QStringLiteral("C"))
                .contains(QStringLiteral("leaves=i.outer,j.outer,i.inner,j.inner ")));
    m_document->selection()->select(QStringLiteral("C"), QStringLiteral("j.outer"));
    actions.action(EditActions::Entry::FusePrevious)->trigger();
    QVERIFY(waitForEditedAnalysis(*m_editor));
    QVERIFY(m_document->textDocument()->toPlainText().endsWith(
        QStringLiteral("i_outer_j_outer_fused = s[C].fuse(i_outer, j_outer)\n")));
    QVERIFY(describe(*m_document, QStringLiteral("C"))
                .contains(QStringLiteral("leaves=i.outer.j.outer.fused,i.inner,j.inner ")));
}

void EditCommandTest::buildAProgramFromAnEmptyFileWithoutTypingAndUndoIt() {
    m_document->setUntitled(QString(), QStringLiteral("new.py"));
    QVERIFY(waitForAnalysis(*m_document));
    QMainWindow window;
    EditActions actions(m_editor, &window);
    QList<script::NewStage> stages;
    actions.setStagePrompt([&stages](script::NewStage::Kind kind, const QStringList&) {
        script::NewStage stage = stages.takeFirst();
        stage.kind = kind;
        return std::optional<script::NewStage>(stage);
    });
    QStringList answers;
    actions.setPrompt([&answers](const QString&, const QString&, const QStringList&) {
        return std::optional<QString>(answers.takeFirst());
    });
    const auto step = [&](QAction* action) {
        QVERIFY(action->isEnabled());
        action->trigger();
        QVERIFY(waitForEditedAnalysis(*m_editor));
    };
    script::NewStage a;
    a.name = "A";
    a.shape = {"64", "64"};
    script::NewStage b;
    b.name = "B";
    b.shape = {"64", "64"};
    b.axes = {"i", "j"};
    b.body = "A[i, j] * 2";
    script::NewStage c;
    c.name = "C";
    c.shape = {"64"};
    c.axes = {"i"};
    c.body = "B[i, k]";
    c.reduceAxes = {{"k", "64"}};
    stages = {a, b, c};
    step(actions.action(EditActions::StageEntry::AddPlaceholder));
    step(actions.action(EditActions::StageEntry::AddCompute));
    QVERIFY2(!m_document->problem(), qPrintable(problemText(*m_document)));
    step(actions.action(EditActions::StageEntry::AddReduction));
    QVERIFY2(!m_document->problem(), qPrintable(problemText(*m_document)));
    QCOMPARE(m_document->textDocument()->toPlainText(),
             QStringLiteral("import tvm\nfrom tvm import te\n\n"
                            "A = te.placeholder((64, 64), name=\"A\")\n"
                            "B = te.compute((64, 64), lambda i, j: A[i, j] * 2, name=\"B\")\n\n"
                            "k = te.reduce_axis((0, 64), name=\"k\")\n"
                            "C = te.compute((64,), lambda i: te.sum(B[i, k], axis=k), name=\"C\")\n"
                            "s = te.create_schedule(C.op)\n"));
    QVERIFY(describe(*m_document, QStringLiteral("C")).startsWith(QStringLiteral("stages=3 ")));
    // Schedule it from the menus: split C's i, inline B, rename C.
    m_document->selection()->select(QStringLiteral("C"), QStringLiteral("i"));
    answers = {QStringLiteral("8")};
    step(actions.action(EditActions::Entry::Split));
    m_document->selection()->select(QStringLiteral("B"));
    step(actions.action(EditActions::Entry::ComputeInline));
    m_document->selection()->select(QStringLiteral("C"));
    answers = {QStringLiteral("D")};
    step(actions.action(EditActions::StageEntry::Rename));
    QVERIFY2(!m_document->problem(), qPrintable(problemText(*m_document)));
    const QString built = m_document->textDocument()->toPlainText();
    QVERIFY2(built.contains(QStringLiteral("i_outer, i_inner = s[D].split(s[D].op.axis[0], "
                                           "factor=8)\ns[B].compute_inline()\n")),
             qPrintable(built));
    QVERIFY(describe(*m_document, QStringLiteral("D"))
                .contains(QStringLiteral("leaves=i.outer,i.inner,k")));
    // One history: undo everything, back to the empty file.
    QCOMPARE(m_editor->undoStack()->count(), 6);
    while (m_editor->undoStack()->canUndo())
        m_editor->undoStack()->undo();
    QCOMPARE(m_document->textDocument()->toPlainText(), QString());
}

void EditCommandTest::stageDialogDescribesTheStageAndCompletesNames() {
    StageDialog dialog(script::NewStage::Kind::Reduction,
                       {QStringLiteral("A"), QStringLiteral("B")});
    dialog.nameEdit()->setText(QStringLiteral(" C "));
    dialog.shapeEdit()->setText(QStringLiteral("64, n"));
    dialog.reduceAxesEdit()->setText(QStringLiteral("k: 64"));
    WordCompletingEdit* body = dialog.bodyEdit();
    body->setText(QStringLiteral("A[i, k] * B"));
    const script::NewStage stage = dialog.stage();
    QCOMPARE(stage.name, std::string("C"));
    QCOMPARE(stage.shape, (std::vector<std::string>{"64", "n"}));
    QCOMPARE(stage.axes, (std::vector<std::string>{"i", "j"})); // defaults, one per dimension
    QCOMPARE(stage.reduceAxes.size(), size_t(1));
    QCOMPARE(stage.reduceAxes[0].second, std::string("64"));
    QCOMPARE(stage.reducer, std::string("sum"));
    // The word under the cursor completes from the tensors and the axes.
    body->setText(QStringLiteral("A[i, k] * "));
    body->setCursorPosition(int(body->text().size()));
    QTest::keyClicks(body, QStringLiteral("k"));
    QCOMPARE(body->currentWord(), QStringLiteral("k"));
    auto* model = body->completer()->completionModel();
    QStringList offered;
    for (int row = 0; row < model->rowCount(); ++row)
        offered << model->index(row, 0).data().toString();
    QCOMPARE(offered, QStringList({QStringLiteral("k")}));
    body->completer()->setCompletionPrefix(QStringLiteral("B"));
    Q_EMIT body->completer()->activated(QStringLiteral("B"));
    QCOMPARE(body->text(), QStringLiteral("A[i, k] * B"));
}

BS_GUI_TEST_SUITE(EditCommandTest);

} // namespace bs::gui::test

#include "EditCommandTest.moc"
