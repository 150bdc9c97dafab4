#include "edit/EditActions.h"

#include "document/ScriptDocument.h"
#include "edit/ScheduleEditor.h"

#include <QAction>
#include <QInputDialog>
#include <QMenu>
#include <QUndoStack>

namespace bs::gui {

namespace {

std::optional<QString> askWithDialog(QWidget *parent, const QString &title, const QString &label,
                                     const QStringList &choices) {
    bool ok = false;
    QString answer;
    if (choices.isEmpty())
        answer = QString::number(QInputDialog::getInt(parent, title, label, 4, 1, 1 << 30, 1, &ok));
    else
        answer = QInputDialog::getItem(parent, title, label, choices, 0, true, &ok);
    if (!ok)
        return std::nullopt;
    return answer.trimmed();
}

} // namespace

EditActions::EditActions(ScheduleEditor *editor, QWidget *window)
    : QObject(window), m_editor(editor), m_window(window) {
    m_prompt = [window](const QString &title, const QString &label, const QStringList &choices) {
        return askWithDialog(window, title, label, choices);
    };
    // The script's one history: typing and schedule edits, undone in the order they were made.
    m_undo = editor->undoStack()->createUndoAction(this, tr("&Undo"));
    m_redo = editor->undoStack()->createRedoAction(this, tr("&Redo"));
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo->setShortcut(QKeySequence::Redo);
    addEdit(EditKind::Split, tr("&Split…"), Qt::Key_S);
    addEdit(EditKind::Fuse, tr("&Fuse with Next"), Qt::Key_F);
    addEdit(EditKind::MoveOut, tr("Move &Out"), Qt::SHIFT | Qt::Key_Up);
    addEdit(EditKind::MoveIn, tr("Move I&n"), Qt::SHIFT | Qt::Key_Down);
    addEdit(EditKind::Bind, tr("&Bind to Thread…"), Qt::Key_B);
    addEdit(EditKind::Vectorize, tr("&Vectorize"), Qt::Key_V);
    addEdit(EditKind::Unroll, tr("&Unroll"), Qt::Key_U);
    addEdit(EditKind::Parallel, tr("&Parallel"), Qt::Key_P);
    m_actions << nullptr;
    addEdit(EditKind::ComputeAt, tr("Compute &At… (then click the loop)"), Qt::Key_A);
    addEdit(EditKind::ComputeInline, tr("Compute &Inline"), Qt::Key_I);
    addEdit(EditKind::ComputeRoot, tr("Compute &Root"), Qt::Key_R);
    addEdit(EditKind::SetScope, tr("Set Storage Sco&pe…"), Qt::Key_M);
    addEdit(EditKind::CacheRead, tr("&Cache Read…"), Qt::Key_C);
    addEdit(EditKind::CacheWrite, tr("Cache &Write…"), Qt::Key_W);
    m_cancel = new QAction(tr("Cancel Compute At"), this);
    m_cancel->setShortcut(Qt::Key_Escape);
    m_cancel->setEnabled(false);
    window->addAction(m_cancel);
    connect(m_cancel, &QAction::triggered, editor, &ScheduleEditor::cancelComputeAt);
    connect(editor, &ScheduleEditor::pickingChanged, m_cancel, &QAction::setEnabled);
    ScriptDocument *document = editor->document();
    connect(document->selection(), &SelectionModel::changed, this, &EditActions::updateEnabled);
    connect(document, &ScriptDocument::analysisFinished, this, &EditActions::updateEnabled);
    connect(document, &ScriptDocument::busyChanged, this, &EditActions::updateEnabled);
    updateEnabled();
}

QAction *EditActions::addEdit(EditKind kind, const QString &text, const QKeySequence &key) {
    auto *action = new QAction(text, this);
    action->setShortcut(key);
    action->setData(int(kind));
    action->setToolTip(
        QStringLiteral("%1 (%2)").arg(primitiveName(kind), key.toString(QKeySequence::NativeText)));
    connect(action, &QAction::triggered, this, [this, kind] { trigger(kind); });
    m_window->addAction(action);
    m_actions << action;
    return action;
}

QAction *EditActions::action(EditKind kind) const {
    for (QAction *action : m_actions) {
        if (action && action->data().toInt() == int(kind))
            return action;
    }
    return nullptr;
}

QMenu *EditActions::createMenu(QWidget *parent) const {
    auto *menu = new QMenu(tr("&Schedule"), parent);
    menu->addActions({m_undo, m_redo});
    menu->addSeparator();
    for (QAction *action : m_actions) {
        if (action)
            menu->addAction(action);
        else
            menu->addSeparator();
    }
    menu->addAction(m_cancel);
    return menu;
}

void EditActions::updateEnabled() {
    const SelectionModel *selection = m_editor->document()->selection();
    const bool canEdit = m_editor->blocker().isEmpty() && !selection->stage().isEmpty();
    const bool onIterVar = canEdit && !selection->iterVar().isEmpty();
    for (QAction *action : std::as_const(m_actions)) {
        if (action)
            action->setEnabled(isIterVarEdit(EditKind(action->data().toInt())) ? onIterVar
                                                                               : canEdit);
    }
}

bool EditActions::askArguments(ScheduleEdit *edit) {
    std::optional<QString> answer;
    switch (edit->kind) {
    case EditKind::Split:
        answer = m_prompt(tr("Split %1").arg(QString::fromStdString(edit->iterVar)), tr("Inner loop extent (factor):"), {});
        if (answer)
            edit->factor = answer->toLongLong();
        break;
    case EditKind::Bind:
        answer = m_prompt(tr("Bind %1").arg(QString::fromStdString(edit->iterVar)), tr("Thread axis:"), threadTags());
        if (answer)
            edit->thread = answer->toStdString();
        break;
    case EditKind::SetScope:
    case EditKind::CacheRead:
    case EditKind::CacheWrite:
        answer = m_prompt(tr("%1 of %2").arg(primitiveName(edit->kind), QString::fromStdString(edit->stage)),
                          tr("Storage scope:"), storageScopes());
        if (answer)
            edit->scope = answer->toStdString();
        break;
    default:
        return true;
    }
    return answer.has_value();
}

void EditActions::trigger(EditKind kind) {
    const SelectionModel *selection = m_editor->document()->selection();
    ScheduleEdit edit;
    edit.kind = kind;
    edit.stage = selection->stage().toStdString();
    edit.iterVar = selection->iterVar().toStdString();
    QString error;
    if (kind == EditKind::ComputeAt) {
        m_editor->beginComputeAt(selection->stage(), &error);
        return;
    }
    if (askArguments(&edit))
        m_editor->apply(edit, &error);
}

} // namespace bs::gui
