#include "edit/ScheduleEditor.h"

#include "document/ScriptDocument.h"
#include "support/Cancellation.h"

#include <QTextCursor>
#include <QTextDocument>
#include <QUndoStack>

namespace bs::gui {

ScheduleEditor::ScheduleEditor(ScriptDocument* document, QObject* parent)
    : QObject(parent), m_document(document), m_stack(new QUndoStack(this)) {
    connect(document, &ScriptDocument::analysisFinished, this, [this] {
        m_ranText = m_document->textDocument()->toPlainText();
        if (!m_document->problem() && m_document->analysis())
            m_analysedText = m_ranText;
    });
    QTextDocument* text = document->textDocument();
    connect(text, &QTextDocument::contentsChanged, this, &ScheduleEditor::onTextChanged);
    connect(text, &QTextDocument::undoCommandAdded, this, &ScheduleEditor::onDocumentLevelAdded);
    // A new file (or a reload) starts a new history, and an edit still being checked was made
    // for the old text: its script is interrupted and its result dropped.
    connect(document, &ScriptDocument::textReplaced, m_stack, &QUndoStack::clear);
    connect(document, &ScriptDocument::textReplaced, this, [this] {
        if (!m_checking)
            return;
        m_jobs.discard();
        m_checking = false;
        Q_EMIT checkingChanged(false, m_checkingWhat);
    });
    connect(document->selection(), &StageSelection::changed, this,
            &ScheduleEditor::onSelectionChanged);
}

QString ScheduleEditor::blocker() const {
    if (!m_document->analysis() || !m_document->analysis()->program.defined())
        return tr("the script defines no schedule yet");
    if (m_document->isTcSource())
        return tr("a .tc file has only its default schedule: to schedule its stages, build them "
                  "with boundscope.tc in a Python script");
    if (m_document->isBusy())
        return tr("the script is still running");
    if (m_document->problem())
        return tr("the script has an error: fix it first");
    if (m_analysedText != m_document->textDocument()->toPlainText())
        return tr("the script changed since it was analysed");
    return checkingBlocker();
}

bool ScheduleEditor::apply(const ScheduleEdit& edit, QString* error) {
    *error = blocker();
    // What the program itself refuses is said at once, before the script runs again.
    if (error->isEmpty())
        *error = QString::fromStdString(script::checkEdit(m_document->analysis()->program, edit));
    if (!error->isEmpty()) {
        Q_EMIT refused(*error);
        return false;
    }
    return applyScriptEdit(
        [edit](const std::string& text, const std::string& fileName, const Program& program) {
            // The edited script is run once to check where the edit went.
            script::EditOptions options;
            options.run.timeout = std::chrono::seconds(30);
            return script::applyEdit(text, fileName, program, edit, options);
        },
        QString::fromStdString(edit.description()), error);
}

QString ScheduleEditor::stageBlocker() const {
    if (m_document->isTcSource())
        return tr("a .tc file is Tensor Comprehensions, not Python: build stages in a Python "
                  "script");
    if (m_document->isBusy())
        return tr("the script is still running");
    if (m_ranText != m_document->textDocument()->toPlainText())
        return tr("the script changed since it was analysed");
    return checkingBlocker();
}

QString ScheduleEditor::checkingBlocker() const {
    return isChecking() ? tr("the previous edit is still being checked") : QString();
}

bool ScheduleEditor::applyScriptEdit(ScriptEdit edit, const QString& description, QString* error) {
    *error = checkingBlocker();
    if (!error->isEmpty()) {
        Q_EMIT refused(*error);
        return false;
    }
    const QString before = m_document->textDocument()->toPlainText();
    // Only the current text's program names its lines: an older one (the last good analysis,
    // kept while the script fails before building anything) would point at the wrong ones.
    const auto& analysis = m_document->analysis();
    const Program program =
        analysis && m_document->analysisIsCurrent() ? analysis->program : Program();
    m_jobs.start<script::EditResult>(
        [edit = std::move(edit), text = before.toStdString(),
         fileName = m_document->scriptName().toStdString(), program] {
            script::EditResult result = edit(text, fileName, program);
            throwIfCancelled(); // an interrupted check says nothing about the edit
            return result;
        },
        [this, before, description](JobOutcome<script::EditResult> outcome) {
            script::EditResult result = outcome.value.value_or(script::EditResult());
            if (!outcome.value)
                result.error = outcome.cancelled ? std::string("the check of the edit was stopped")
                                                 : outcome.error.toStdString();
            onEditChecked(result, before, description);
        });
    m_checking = true;
    m_checkingWhat = description;
    Q_EMIT checkingChanged(true, description);
    return true;
}

void ScheduleEditor::onEditChecked(const script::EditResult& result, const QString& before,
                                   const QString& description) {
    m_checking = false;
    Q_EMIT checkingChanged(false, description);
    QString error = QString::fromStdString(result.error);
    if (result.ok() && QString::fromStdString(result.script) == before)
        error = tr("the script already does that");
    // Typing while the edit was checked wins: the edit was made for the old text.
    else if (result.ok() && m_document->textDocument()->toPlainText() != before)
        error = tr("the script changed while the edit was checked: make it again");
    if (!error.isEmpty()) {
        Q_EMIT refused(error);
        return;
    }
    m_stack->push(
        new ScriptHistoryCommand(this, description, QString::fromStdString(result.script)));
    Q_EMIT edited(description);
}

bool ScheduleEditor::beginComputeAt(const QString& stage, QString* error) {
    *error = blocker();
    if (!error->isEmpty() || stage.isEmpty()) {
        if (error->isEmpty())
            *error = tr("select the stage to compute at a loop first");
        Q_EMIT refused(*error);
        return false;
    }
    m_pickingFor = stage;
    Q_EMIT pickingChanged(true);
    return true;
}

void ScheduleEditor::cancelComputeAt() {
    if (m_pickingFor.isEmpty())
        return;
    m_pickingFor.clear();
    Q_EMIT pickingChanged(false);
}

void ScheduleEditor::onSelectionChanged() {
    // The target is a loop of another stage; selecting a stage alone (or the same stage's
    // loops, on the way to the target) keeps waiting.
    const StageSelection* selection = m_document->selection();
    if (m_pickingFor.isEmpty() || selection->iterVar().isEmpty() ||
        selection->stage() == m_pickingFor)
        return;
    ScheduleEdit edit;
    edit.kind = EditKind::ComputeAt;
    edit.stage = m_pickingFor.toStdString();
    edit.targetStage = selection->stage().toStdString();
    edit.targetIterVar = selection->iterVar().toStdString();
    cancelComputeAt();
    QString error;
    apply(edit, &error);
}

void ScheduleEditor::onTextChanged() {
    if (!m_changing)
        cancelComputeAt(); // typing: the pick is off
}

void ScheduleEditor::onDocumentLevelAdded() {
    // A level this class makes is already on the stack (its command made it).
    if (!m_changing)
        m_stack->push(new ScriptHistoryCommand(this, tr("Typing")));
}

void ScheduleEditor::changeDocument(const std::function<void()>& change) {
    m_changing = true;
    change();
    m_changing = false;
    m_document->reanalyse();
}

void ScheduleEditor::setScriptText(const QString& text) {
    QTextDocument* document = m_document->textDocument();
    const QString current = document->toPlainText();
    const int common = int(qMin(current.size(), text.size()));
    int prefix = 0;
    while (prefix < common && current[prefix] == text[prefix])
        ++prefix;
    int suffix = 0;
    while (suffix < common - prefix &&
           current[current.size() - 1 - suffix] == text[text.size() - 1 - suffix])
        ++suffix;
    changeDocument([&] {
        QTextCursor cursor(document);
        cursor.beginEditBlock();
        cursor.setPosition(prefix);
        cursor.setPosition(int(current.size()) - suffix, QTextCursor::KeepAnchor);
        cursor.insertText(text.mid(prefix, text.size() - prefix - suffix));
        cursor.endEditBlock();
    });
}

void ScheduleEditor::undoDocumentLevel() {
    changeDocument([this] { m_document->textDocument()->undo(); });
}

void ScheduleEditor::redoDocumentLevel() {
    changeDocument([this] { m_document->textDocument()->redo(); });
}

ScriptHistoryCommand::ScriptHistoryCommand(ScheduleEditor* editor, const QString& text)
    : QUndoCommand(text), m_editor(editor) {}

ScriptHistoryCommand::ScriptHistoryCommand(ScheduleEditor* editor, const QString& text,
                                           QString after)
    : QUndoCommand(text), m_editor(editor), m_after(std::move(after)) {}

void ScriptHistoryCommand::redo() {
    if (m_firstRedo) { // QUndoStack::push calls it
        m_firstRedo = false;
        if (!m_after.isNull()) // a schedule edit makes its level now; typing already did
            m_editor->setScriptText(m_after);
        m_after.clear();
        return;
    }
    m_editor->redoDocumentLevel();
}

void ScriptHistoryCommand::undo() { m_editor->undoDocumentLevel(); }

} // namespace bs::gui
