/// \file
/// Applies schedule edits to the open script and keeps the script's one undo history (issue 17,
/// item 4). The engine writes and places each edit (script/edit/ScheduleEdit.h); here it becomes
/// one QUndoCommand. Typed edits join the same QUndoStack: every undo level the script's
/// QTextDocument adds (a run of typing, a paste, an edit block) is pushed as a command, and
/// every command undoes and redoes exactly one level of the document's own history, so Ctrl+Z
/// in any view steps back through typing and schedule edits in the order they were made. The
/// document re-analyses after each step, so the views follow.
///
/// Edits are made only on an Analysis of the current text: while the script runs, or after it
/// failed, they are refused with the reason. An edit is checked by running the edited script
/// (script/edit/ScheduleEdit.h), which takes as long as the script: that check is a job of its
/// own (document/JobRunner.h), so the app stays responsive, and its result is applied only when
/// the text is still the one it was made from. compute_at is a two-step edit: the stage first,
/// then the target loop picked in any view (the shared selection).
#pragma once

#include "document/JobRunner.h"
#include "edit/ScheduleEdit.h"

#include <QObject>
#include <QUndoCommand>

#include <functional>

class QUndoStack;

namespace bs::gui {

class ScriptDocument;

class ScheduleEditor : public QObject {
    Q_OBJECT
public:
    explicit ScheduleEditor(ScriptDocument* document, QObject* parent = nullptr);

    /// The script's history: typing and schedule edits.
    QUndoStack* undoStack() const { return m_stack; }
    ScriptDocument* document() const { return m_document; }

    /// Why no edit can be made now (empty when one can): no program, a failed or running
    /// script, an Analysis older than the text, or an edit still being checked.
    QString blocker() const;
    /// Starts writing `edit`: false with `error` set when it is refused at once (illegal here,
    /// or blocked); otherwise `edited` (the edit is pushed) or `refused` follows when its check
    /// ends. The script is unchanged until then, and also when it is refused.
    bool apply(const ScheduleEdit& edit, QString* error);
    /// An edit is being checked.
    bool isChecking() const { return m_checking; }

    /// An edit of the script as a whole (script/edit/StageEdit.h): (text, file name, program)
    /// -> the edited text or why not.
    using ScriptEdit =
        std::function<script::EditResult(const std::string&, const std::string&, const Program&)>;
    /// Why no stage can be added, renamed or deleted now (empty when it can): a script that
    /// defines no schedule yet is fine, one still running or changed since its run is not.
    QString stageBlocker() const;
    /// Starts making `edit` (on a worker; it must own what it captures) and pushes it as
    /// `description` when it succeeds; as apply().
    bool applyScriptEdit(ScriptEdit edit, const QString& description, QString* error);

    /// Starts compute_at for `stage`: the next IterVar selected (of another stage) is its
    /// target. False with `error` set when no edit can be made now.
    bool beginComputeAt(const QString& stage, QString* error);
    bool isPickingTarget() const { return !m_pickingFor.isEmpty(); }
    void cancelComputeAt();

    /// Replaces the script's text by `text` as one undo level of the document, changing only
    /// the part that differs (the cursor and the view stay where they are), and re-analyses.
    void setScriptText(const QString& text);
    /// Steps the document's own history one level back or forward and re-analyses (the
    /// commands of undoStack() call these).
    void undoDocumentLevel();
    void redoDocumentLevel();

Q_SIGNALS:
    /// An edit was pushed (the undo text).
    void edited(const QString& description);
    /// An edit was refused; the message says why.
    void refused(const QString& message);
    /// An edit is being checked (`description`), or none any more.
    void checkingChanged(bool checking, const QString& description);
    /// compute_at started or stopped waiting for its target loop.
    void pickingChanged(bool picking);

private:
    void onSelectionChanged();
    void onTextChanged();
    void onDocumentLevelAdded();
    /// Runs `change` on the document as a step of this class (not typing).
    void changeDocument(const std::function<void()>& change);
    /// Why no edit can start while one is checked (empty when none is).
    QString checkingBlocker() const;
    void onEditChecked(const script::EditResult& result, const QString& before,
                       const QString& description);

    ScriptDocument* m_document;
    QUndoStack* m_stack;
    /// The text of the latest good Analysis, to tell whether the views show the current text.
    QString m_analysedText;
    /// The text of the latest run, good or not.
    QString m_ranText;
    bool m_changing = false;
    QString m_pickingFor; ///< the stage waiting for its compute_at target
    JobRunner m_jobs;     ///< the check of the edit being made
    bool m_checking = false;
    QString m_checkingWhat; ///< the description of the edit being checked
};

/// One level of the script's history: a run of typing, or a schedule edit. The first redo of
/// a schedule edit makes it; every later undo and redo steps the document's history.
class ScriptHistoryCommand : public QUndoCommand {
public:
    /// A level the document already has (typing): nothing to do on the first redo.
    ScriptHistoryCommand(ScheduleEditor* editor, const QString& text);
    /// A schedule edit: the first redo sets the script to `after`.
    ScriptHistoryCommand(ScheduleEditor* editor, const QString& text, QString after);

    void redo() override;
    void undo() override;

private:
    ScheduleEditor* m_editor;
    QString m_after; ///< a schedule edit's text, until its first redo
    bool m_firstRedo = true;
};

} // namespace bs::gui
