/// \file
/// The Schedule menu: one QAction per edit of edit/ScheduleEdit.h, with single-key shortcuts
/// as in loop-nest editors (s split, f fuse, Shift+Up/Down reorder, b bind, v vectorize,
/// u unroll, p parallel, a compute_at, i compute_inline, r compute_root, m set_scope,
/// c cache_read, w cache_write, Esc cancels compute_at). They act on the shared selection and
/// ask for what the edit needs (the factor, the thread axis, the scope). Keys typed in the
/// script editor go to the editor: a text widget takes unmodified keys before shortcuts.
#pragma once

#include "edit/ScheduleEdit.h"

#include <QObject>

#include <functional>
#include <optional>

class QAction;
class QMenu;
class QWidget;

namespace bs::gui {

class ScheduleEditor;

class EditActions : public QObject {
    Q_OBJECT
public:
    /// Asks the user for a value: (title, label, choices or empty for a number) -> the answer,
    /// nullopt when cancelled. Replaced by the tests; the default shows a QInputDialog.
    using Prompt = std::function<std::optional<QString>(const QString &title, const QString &label,
                                                        const QStringList &choices)>;

    /// Adds the actions to `window` so their shortcuts work in all of it.
    EditActions(ScheduleEditor *editor, QWidget *window);

    /// Every action, in menu order (separators as actions with no text).
    const QList<QAction *> &actions() const { return m_actions; }
    QAction *action(EditKind kind) const;
    QAction *cancelAction() const { return m_cancel; }
    QAction *undoAction() const { return m_undo; }
    QAction *redoAction() const { return m_redo; }
    /// A "Schedule" menu with undo, redo and every edit.
    QMenu *createMenu(QWidget *parent) const;
    void setPrompt(Prompt prompt) { m_prompt = std::move(prompt); }

    /// Enables the edits that apply to the current selection.
    void updateEnabled();

private:
    QAction *addEdit(EditKind kind, const QString &text, const QKeySequence &key);
    void trigger(EditKind kind);
    /// Fills in what `edit` needs from the user; false when cancelled.
    bool askArguments(ScheduleEdit *edit);

    ScheduleEditor *m_editor;
    QWidget *m_window;
    QList<QAction *> m_actions;
    QAction *m_cancel = nullptr;
    QAction *m_undo = nullptr;
    QAction *m_redo = nullptr;
    Prompt m_prompt;
};

} // namespace bs::gui
