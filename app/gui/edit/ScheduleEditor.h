/// \file
/// Applies schedule edits to the open script (issue 7, item 4). Each edit appends its Python
/// line(s) to the script (edit/ScheduleEdit.h writes them) as one QUndoCommand on the editor's
/// QUndoStack; undo and redo put back the exact text of the script before and after, and the
/// document re-analyses it at once, so the views follow. Edits are made only on an Analysis of
/// the current text: while the script runs, or after it failed, they are refused with the
/// reason. compute_at is a two-step edit: the stage first, then the target loop picked in any
/// view (the shared selection).
///
/// Typing in the editor invalidates the recorded texts, so it clears this stack; the editor's
/// own undo (which also holds every edit made here, as one step each) takes over.
#pragma once

#include "edit/ScheduleEdit.h"

#include <QObject>
#include <QUndoCommand>

class QUndoStack;

namespace bs::gui {

class ScriptDocument;

class ScheduleEditor : public QObject {
    Q_OBJECT
public:
    explicit ScheduleEditor(ScriptDocument *document, QObject *parent = nullptr);

    QUndoStack *undoStack() const { return m_stack; }
    ScriptDocument *document() const { return m_document; }

    /// Why no edit can be made now (empty when one can): no program, a failed or running
    /// script, or an Analysis older than the text.
    QString blocker() const;
    /// Writes `edit` and pushes it; false with `error` set when it is refused (the script is
    /// then unchanged).
    bool apply(const ScheduleEdit &edit, QString *error);

    /// Starts compute_at for `stage`: the next IterVar selected (of another stage) is its
    /// target. False with `error` set when no edit can be made now.
    bool beginComputeAt(const QString &stage, QString *error);
    bool isPickingTarget() const { return !m_pickingFor.isEmpty(); }
    void cancelComputeAt();

    /// Replaces the script's text by `text` as one editor edit, changing only the part that
    /// differs (the cursor and the view stay where they are), and re-analyses it.
    void setScriptText(const QString &text);

Q_SIGNALS:
    /// An edit was pushed (the undo text).
    void edited(const QString &description);
    /// An edit was refused; the message says why.
    void refused(const QString &message);
    /// compute_at started or stopped waiting for its target loop.
    void pickingChanged(bool picking);

private:
    void onSelectionChanged();
    void onTextChanged();

    ScriptDocument *m_document;
    QUndoStack *m_stack;
    /// The text of the latest good Analysis, to tell whether the views show the current text.
    QString m_analysedText;
    bool m_settingText = false;
    QString m_pickingFor; ///< the stage waiting for its compute_at target
};

/// One schedule edit: the script's text before and after it.
class ScriptEditCommand : public QUndoCommand {
public:
    ScriptEditCommand(ScheduleEditor *editor, QString before, QString after, const QString &text);

    void redo() override;
    void undo() override;

private:
    ScheduleEditor *m_editor;
    QString m_before;
    QString m_after;
};

} // namespace bs::gui
