/// \file
/// The Schedule menu: one QAction per schedule edit (script/edit/ScheduleEdit.h), with
/// single-key shortcuts as in loop-nest editors (s split, t tile, f fuse with the next loop,
/// Shift+F with the previous, Shift+Up/Down reorder, b bind, v vectorize, u unroll,
/// p parallel, x rfactor, a compute_at, i compute_inline, r compute_root, Shift+I
/// reverse_compute_inline, m set_scope, c cache_read, w cache_write, Esc cancels compute_at).
/// They act on the shared selection and ask for what the edit needs (the factor, the thread
/// axis, the scope, the readers). Keys typed in the script editor go to the editor: a text
/// widget takes unmodified keys before shortcuts.
///
/// When the menu opens, and in the context menu of a graph node, each edit is tried on a copy
/// of the schedule (script::checkEdit): what is illegal on the selection is disabled, with the
/// engine's reason as its tooltip.
///
/// Edits by dragging in the attach tree and the IterVar graph (GraphPanel::setDropHandler): a
/// stage dropped on a loop of another stage is computed there, on ROOT at the root, and a loop
/// dropped on another loop of its stage moves there. While dragging, the drop under the pointer
/// is checked the same way, and the status bar says what it would do or why not.
#pragma once

#include "edit/ScheduleEdit.h"
#include "script/edit/StageEdit.h"
#include "views/GraphScene.h"

#include <QObject>

#include <functional>
#include <optional>

class QAction;
class QMenu;
class QPoint;
class QWidget;

namespace bs::gui {

class ScheduleEditor;

class EditActions : public QObject {
    Q_OBJECT
public:
    /// Asks the user for a value: (title, label, choices or empty for a number) -> the answer,
    /// nullopt when cancelled. Replaced by the tests; the default shows a QInputDialog.
    using Prompt = std::function<std::optional<QString>(const QString& title, const QString& label,
                                                        const QStringList& choices)>;

    /// The menu entries: an edit kind, and for fuse which neighbour.
    enum class Entry {
        Split,
        Tile,
        FuseNext,
        FusePrevious,
        MoveOut,
        MoveIn,
        Bind,
        Vectorize,
        Unroll,
        Parallel,
        Rfactor,
        ComputeAt,
        ComputeInline,
        ComputeRoot,
        ReverseComputeInline,
        SetScope,
        CacheRead,
        CacheWrite,
    };

    /// Describes a new stage (the default shows a StageDialog); nullopt when cancelled.
    using StagePrompt = std::function<std::optional<script::NewStage>(script::NewStage::Kind kind,
                                                                      const QStringList& tensors)>;

    /// Building the program: adding stages, renaming and deleting them.
    enum class StageEntry { AddPlaceholder, AddCompute, AddReduction, Rename, Delete };

    /// Adds the actions to `window` so their shortcuts work in all of it.
    EditActions(ScheduleEditor* editor, QWidget* window);

    /// Every action, in menu order (separators as null entries).
    const QList<QAction*>& actions() const { return m_actions; }
    QAction* action(Entry entry) const;
    /// The first action making an edit of `kind`.
    QAction* action(EditKind kind) const;
    QAction* action(StageEntry entry) const;
    QAction* cancelAction() const { return m_cancel; }
    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    /// A "Schedule" menu with undo, redo and every edit; legality is checked as it opens.
    QMenu* createMenu(QWidget* parent) const;
    /// The edits of the current selection (its loop's, or its stage's), each checked, at
    /// `globalPos`.
    void popupContextMenu(const QPoint& globalPos);
    /// That menu without showing it (for the tests); the caller owns it.
    QMenu* createContextMenu(QWidget* parent);
    void setPrompt(Prompt prompt) { m_prompt = std::move(prompt); }
    void setStagePrompt(StagePrompt prompt) { m_stagePrompt = std::move(prompt); }

    /// What dropping as `drop` would do, checked on a copy of the schedule, or why it cannot.
    DropVerdict judgeDrop(const GraphDrop& drop);
    /// Makes the edit `drop` asks for (refused with the reason when it cannot be made).
    void drop(const GraphDrop& drop);

    /// Enables the edits that apply to the kind of the current selection (cheap: no checks).
    void updateEnabled();
    /// Tries every enabled edit on a copy of the schedule: an illegal one is disabled with the
    /// reason as tooltip.
    void checkLegality();

private:
    QAction* addEdit(Entry entry, const QString& text, const QKeySequence& key);
    QAction* addStageEdit(StageEntry entry, const QString& text);
    void triggerStage(StageEntry entry);
    /// After a dialog: whether stages can still be edited (else says why).
    bool stillEditable();
    void trigger(Entry entry);
    /// The edit `entry` makes on the selection, with representative arguments (factor 2, the
    /// first thread axis that fits, scope local or shared).
    ScheduleEdit sampleEdit(Entry entry) const;
    /// Fills in what `edit` needs from the user; false when cancelled.
    bool askArguments(ScheduleEdit* edit);

    ScheduleEditor* m_editor;
    QWidget* m_window;
    QList<QAction*> m_actions;
    QAction* m_cancel = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    Prompt m_prompt;
    StagePrompt m_stagePrompt;
    QList<QAction*> m_stageActions;
    /// The latest drop judged (a drag judges at every move); forgotten whenever what it
    /// depends on changes (the analysis, the script running, an edit being checked).
    struct JudgedDrop {
        GraphDrop drop;
        DropVerdict verdict;
    };
    std::optional<JudgedDrop> m_judged;
};

/// The edit a drop in a graph asks for on `program`: a stage (dragged by its title, or by one
/// of its loops onto another stage) dropped on a loop of another stage is `compute_at` there;
/// on the attach tree's ROOT, `compute_root`; a loop dropped on another loop of its own stage
/// takes that loop's place (`reorder` of the loops between them, the others keeping their
/// order). nullopt when the drop names no edit: `refusal` then says what the drop could have
/// meant, or stays empty when it means nothing (a drop on itself, on empty space).
std::optional<ScheduleEdit> dropEdit(const Program& program, const GraphDrop& drop,
                                     QString* refusal);

/// The edit kind an entry makes.
EditKind editKindOf(EditActions::Entry entry);

} // namespace bs::gui
