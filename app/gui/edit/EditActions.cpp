#include "edit/EditActions.h"

#include "analysis/ScheduleFixes.h"
#include "document/ScriptDocument.h"
#include "edit/ScheduleEditor.h"
#include "edit/StageDialog.h"
#include "models/StageQueries.h"

#include <QAction>
#include <QInputDialog>
#include <QMenu>
#include <QUndoStack>

#include <algorithm>

namespace bs::gui {

namespace {

using Entry = EditActions::Entry;

std::optional<QString> askWithDialog(QWidget* parent, const QString& title, const QString& label,
                                     const QStringList& choices) {
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

/// The leaf `offset` places from `iterVar` in `stage`'s loop nest (empty when there is none).
std::string neighbourLeaf(const Program& program, const std::string& stage,
                          const std::string& iterVar, int offset) {
    const Stage s = findStageByName(program.schedule, QString::fromStdString(stage));
    if (!s.defined())
        return std::string();
    const std::vector<IterVar>& leaves = s->leafIterVars;
    for (size_t i = 0; i < leaves.size(); ++i) {
        if (leaves[i]->var.name() != iterVar)
            continue;
        const long at = long(i) + offset;
        return at >= 0 && at < long(leaves.size()) ? leaves[size_t(at)]->var.name() : std::string();
    }
    return std::string();
}

/// The stages that read `stage`'s tensor, by name.
QStringList readersOf(const Program& program, const QString& stage) {
    const Stage producer = findStageByName(program.schedule, stage);
    QStringList readers;
    if (producer.defined()) {
        for (const Stage& s : script::readersOf(program.schedule, producer))
            readers << QString::fromStdString(s.name());
    }
    return readers;
}

/// Why tile or fuse with the previous loop cannot be made: the neighbour it needs is missing.
std::string missingNeighbour(Entry entry, const ScheduleEdit& edit) {
    if (entry == Entry::FusePrevious && edit.iterVar.empty())
        return "'" + edit.moreIterVars[0] + "' is the outermost loop of stage '" + edit.stage + "'";
    if (entry == Entry::Tile && edit.moreIterVars[0].empty())
        return "'" + edit.iterVar + "' is the innermost loop of stage '" + edit.stage +
               "': tile takes it and the next loop";
    return std::string();
}

} // namespace

EditKind editKindOf(Entry entry) {
    switch (entry) {
    case Entry::Split:
        return EditKind::Split;
    case Entry::Tile:
        return EditKind::Tile;
    case Entry::FuseNext:
    case Entry::FusePrevious:
        return EditKind::Fuse;
    case Entry::MoveOut:
        return EditKind::MoveOut;
    case Entry::MoveIn:
        return EditKind::MoveIn;
    case Entry::Bind:
        return EditKind::Bind;
    case Entry::Vectorize:
        return EditKind::Vectorize;
    case Entry::Unroll:
        return EditKind::Unroll;
    case Entry::Parallel:
        return EditKind::Parallel;
    case Entry::Rfactor:
        return EditKind::Rfactor;
    case Entry::ComputeAt:
        return EditKind::ComputeAt;
    case Entry::ComputeInline:
        return EditKind::ComputeInline;
    case Entry::ComputeRoot:
        return EditKind::ComputeRoot;
    case Entry::ReverseComputeInline:
        return EditKind::ReverseComputeInline;
    case Entry::SetScope:
        return EditKind::SetScope;
    case Entry::CacheRead:
        return EditKind::CacheRead;
    case Entry::CacheWrite:
        return EditKind::CacheWrite;
    }
    return EditKind::Split;
}

EditActions::EditActions(ScheduleEditor* editor, QWidget* window)
    : QObject(window), m_editor(editor), m_window(window) {
    m_prompt = [window](const QString& title, const QString& label, const QStringList& choices) {
        return askWithDialog(window, title, label, choices);
    };
    // The script's one history: typing and schedule edits, undone in the order they were made.
    m_undo = editor->undoStack()->createUndoAction(this, tr("&Undo"));
    m_redo = editor->undoStack()->createRedoAction(this, tr("&Redo"));
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo->setShortcut(QKeySequence::Redo);
    addEdit(Entry::Split, tr("&Split…"), Qt::Key_S);
    addEdit(Entry::Tile, tr("&Tile with Next…"), Qt::Key_T);
    addEdit(Entry::FuseNext, tr("&Fuse with Next"), Qt::Key_F);
    addEdit(Entry::FusePrevious, tr("Fuse with &Previous"), Qt::SHIFT | Qt::Key_F);
    addEdit(Entry::MoveOut, tr("Move &Out"), Qt::SHIFT | Qt::Key_Up);
    addEdit(Entry::MoveIn, tr("Move I&n"), Qt::SHIFT | Qt::Key_Down);
    addEdit(Entry::Bind, tr("&Bind to Thread…"), Qt::Key_B);
    addEdit(Entry::Vectorize, tr("&Vectorize"), Qt::Key_V);
    addEdit(Entry::Unroll, tr("&Unroll"), Qt::Key_U);
    addEdit(Entry::Parallel, tr("&Parallel"), Qt::Key_P);
    addEdit(Entry::Rfactor, tr("R&factor"), Qt::Key_X);
    m_actions << nullptr;
    addEdit(Entry::ComputeAt, tr("Compute &At… (then click the loop)"), Qt::Key_A);
    addEdit(Entry::ComputeInline, tr("Compute &Inline"), Qt::Key_I);
    addEdit(Entry::ComputeRoot, tr("Compute &Root"), Qt::Key_R);
    addEdit(Entry::ReverseComputeInline, tr("Reverse Compute In&line"), Qt::SHIFT | Qt::Key_I);
    addEdit(Entry::SetScope, tr("Set Storage Sco&pe…"), Qt::Key_M);
    addEdit(Entry::CacheRead, tr("&Cache Read…"), Qt::Key_C);
    addEdit(Entry::CacheWrite, tr("Cache &Write…"), Qt::Key_W);
    addStageEdit(StageEntry::AddPlaceholder, tr("Add &Placeholder…"));
    addStageEdit(StageEntry::AddCompute, tr("Add Compute &Stage…"));
    addStageEdit(StageEntry::AddReduction, tr("Add Re&duction…"));
    addStageEdit(StageEntry::Rename, tr("Re&name Stage…"));
    addStageEdit(StageEntry::Delete, tr("&Delete Stage"));
    m_stagePrompt = [window](script::NewStage::Kind kind,
                             const QStringList& tensors) -> std::optional<script::NewStage> {
        StageDialog dialog(kind, tensors, window);
        if (dialog.exec() != QDialog::Accepted)
            return std::nullopt;
        return dialog.stage();
    };
    m_cancel = new QAction(tr("Cancel Compute At"), this);
    m_cancel->setShortcut(Qt::Key_Escape);
    m_cancel->setEnabled(false);
    window->addAction(m_cancel);
    connect(m_cancel, &QAction::triggered, editor, &ScheduleEditor::cancelComputeAt);
    connect(editor, &ScheduleEditor::pickingChanged, m_cancel, &QAction::setEnabled);
    ScriptDocument* document = editor->document();
    connect(document->selection(), &StageSelection::changed, this, &EditActions::updateEnabled);
    connect(document, &ScriptDocument::analysisFinished, this, &EditActions::updateEnabled);
    connect(document, &ScriptDocument::busyChanged, this, &EditActions::updateEnabled);
    connect(editor, &ScheduleEditor::checkingChanged, this, &EditActions::updateEnabled);
    updateEnabled();
}

QAction* EditActions::addEdit(Entry entry, const QString& text, const QKeySequence& key) {
    auto* action = new QAction(text, this);
    action->setShortcut(key);
    action->setData(int(entry));
    action->setToolTip(QStringLiteral("%1 (%2)").arg(primitiveName(editKindOf(entry)),
                                                     key.toString(QKeySequence::NativeText)));
    connect(action, &QAction::triggered, this, [this, entry] { trigger(entry); });
    m_window->addAction(action);
    m_actions << action;
    return action;
}

QAction* EditActions::addStageEdit(StageEntry entry, const QString& text) {
    auto* action = new QAction(text, this);
    action->setData(int(entry));
    connect(action, &QAction::triggered, this, [this, entry] { triggerStage(entry); });
    m_stageActions << action;
    return action;
}

QAction* EditActions::action(StageEntry entry) const {
    for (QAction* action : m_stageActions) {
        if (action->data().toInt() == int(entry))
            return action;
    }
    return nullptr;
}

QAction* EditActions::action(Entry entry) const {
    for (QAction* action : m_actions) {
        if (action && action->data().toInt() == int(entry))
            return action;
    }
    return nullptr;
}

QAction* EditActions::action(EditKind kind) const {
    for (QAction* action : m_actions) {
        if (action && editKindOf(Entry(action->data().toInt())) == kind)
            return action;
    }
    return nullptr;
}

QMenu* EditActions::createMenu(QWidget* parent) const {
    auto* menu = new QMenu(tr("&Schedule"), parent);
    menu->setToolTipsVisible(true);
    menu->addActions({m_undo, m_redo});
    menu->addSeparator();
    for (QAction* action : m_actions) {
        if (action)
            menu->addAction(action);
        else
            menu->addSeparator();
    }
    menu->addAction(m_cancel);
    menu->addSection(tr("Stages"));
    menu->addActions(m_stageActions);
    auto* self = const_cast<EditActions*>(this);
    connect(menu, &QMenu::aboutToShow, self, &EditActions::checkLegality);
    return menu;
}

QMenu* EditActions::createContextMenu(QWidget* parent) {
    const StageSelection* selection = m_editor->document()->selection();
    const bool onLoop = !selection->iterVar().isEmpty();
    auto* menu = new QMenu(parent);
    menu->setToolTipsVisible(true);
    menu->addSection(onLoop ? tr("Loop %1 of %2").arg(selection->iterVar(), selection->stage())
                            : tr("Stage %1").arg(selection->stage()));
    checkLegality();
    for (QAction* action : std::as_const(m_actions)) {
        if (action && isIterVarEdit(editKindOf(Entry(action->data().toInt()))) == onLoop)
            menu->addAction(action);
    }
    if (!onLoop) {
        menu->addSeparator();
        menu->addActions({action(StageEntry::Rename), action(StageEntry::Delete)});
    }
    menu->addSeparator();
    menu->addActions({m_undo, m_redo});
    return menu;
}

void EditActions::popupContextMenu(const QPoint& globalPos) {
    if (m_editor->document()->selection()->stage().isEmpty())
        return;
    QMenu* menu = createContextMenu(m_window);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
}

void EditActions::updateEnabled() {
    m_judged.reset(); // called whenever the analysis, the script's run or a check changes
    const StageSelection* selection = m_editor->document()->selection();
    const QString blocker = m_editor->blocker();
    const bool canEdit = blocker.isEmpty() && !selection->stage().isEmpty();
    const bool onIterVar = canEdit && !selection->iterVar().isEmpty();
    for (QAction* action : std::as_const(m_actions)) {
        if (!action)
            continue;
        const bool loopEdit = isIterVarEdit(editKindOf(Entry(action->data().toInt())));
        action->setEnabled(loopEdit ? onIterVar : canEdit);
        action->setToolTip(blocker.isEmpty() ? QString() : blocker);
    }
    const QString stageBlocker = m_editor->stageBlocker();
    for (QAction* action : std::as_const(m_stageActions)) {
        const bool onStage = StageEntry(action->data().toInt()) == StageEntry::Rename ||
                             StageEntry(action->data().toInt()) == StageEntry::Delete;
        action->setEnabled(stageBlocker.isEmpty() && (!onStage || !selection->stage().isEmpty()));
        action->setToolTip(stageBlocker);
    }
}

ScheduleEdit EditActions::sampleEdit(Entry entry) const {
    const StageSelection* selection = m_editor->document()->selection();
    static const Program kNoProgram;
    const auto& analysis = m_editor->document()->analysis();
    const Program& program = analysis ? analysis->program : kNoProgram;
    ScheduleEdit edit;
    edit.kind = editKindOf(entry);
    edit.stage = selection->stage().toStdString();
    edit.iterVar = selection->iterVar().toStdString();
    switch (entry) {
    case Entry::Split:
        edit.factor = 2;
        break;
    case Entry::Tile:
        edit.factor = edit.yFactor = 2;
        edit.moreIterVars = {neighbourLeaf(program, edit.stage, edit.iterVar, 1)};
        break;
    case Entry::FusePrevious:
        // fuse(previous, this): the previous loop is the outer one.
        edit.moreIterVars = {edit.iterVar};
        edit.iterVar = neighbourLeaf(program, edit.stage, edit.iterVar, -1);
        break;
    case Entry::Bind:
        edit.thread = script::threadTags().front();
        for (const std::string& tag : script::threadTags()) {
            edit.thread = tag;
            if (script::checkEdit(program, edit).empty())
                break;
        }
        break;
    case Entry::SetScope:
    case Entry::CacheWrite:
        edit.scope = "local";
        break;
    case Entry::CacheRead:
        edit.scope = "shared";
        break;
    default:
        break;
    }
    return edit;
}

namespace {

/// The names of `stage`'s leaves, outermost first.
std::vector<std::string> leafNames(const Stage& stage) {
    std::vector<std::string> names;
    for (const IterVar& leaf : stage->leafIterVars)
        names.push_back(leaf->var.name());
    return names;
}

/// The reorder that moves the leaf `from` to the place of the leaf `to`: the leaves between
/// them (both included) with `from` taken out and put back at `to`'s index.
ScheduleEdit moveLeaf(const std::string& stage, std::vector<std::string> leaves, size_t from,
                      size_t to) {
    const size_t lo = std::min(from, to);
    const size_t hi = std::max(from, to);
    std::vector<std::string> span(leaves.begin() + lo, leaves.begin() + hi + 1);
    const std::string moved = span[from - lo];
    span.erase(span.begin() + (from - lo));
    span.insert(span.begin() + (to - lo), moved);
    ScheduleEdit edit;
    edit.kind = EditKind::Reorder;
    edit.stage = stage;
    edit.iterVar = span.front();
    edit.moreIterVars.assign(span.begin() + 1, span.end());
    return edit;
}

} // namespace

std::optional<ScheduleEdit> dropEdit(const Program& program, const GraphDrop& drop,
                                     QString* refusal) {
    refusal->clear();
    if (drop.stage.isEmpty() || !program.defined())
        return std::nullopt;
    ScheduleEdit edit;
    edit.stage = drop.stage.toStdString();
    if (drop.root) {
        edit.kind = EditKind::ComputeRoot;
        return edit;
    }
    if (drop.targetStage.isEmpty())
        return std::nullopt;
    if (drop.targetStage != drop.stage) {
        if (drop.targetIterVar.isEmpty()) {
            *refusal = QObject::tr("drop %1 on a loop of %2 to compute it there")
                           .arg(drop.stage, drop.targetStage);
            return std::nullopt;
        }
        edit.kind = EditKind::ComputeAt;
        edit.targetStage = drop.targetStage.toStdString();
        edit.targetIterVar = drop.targetIterVar.toStdString();
        return edit;
    }
    // Within one stage: a loop onto another loop reorders them.
    if (drop.iterVar.isEmpty() || drop.targetIterVar.isEmpty() ||
        drop.iterVar == drop.targetIterVar)
        return std::nullopt;
    const Stage stage = stageNamed(program.schedule, edit.stage);
    const std::vector<std::string> leaves =
        stage.defined() ? leafNames(stage) : std::vector<std::string>();
    const auto from = std::find(leaves.begin(), leaves.end(), drop.iterVar.toStdString());
    const auto to = std::find(leaves.begin(), leaves.end(), drop.targetIterVar.toStdString());
    if (from == leaves.end() || to == leaves.end()) {
        *refusal = QObject::tr("only loops reorder: '%1' is not a loop of %2 any more (it was "
                               "split or fused)")
                       .arg(from == leaves.end() ? drop.iterVar : drop.targetIterVar, drop.stage);
        return std::nullopt;
    }
    return moveLeaf(edit.stage, leaves, size_t(from - leaves.begin()), size_t(to - leaves.begin()));
}

DropVerdict EditActions::judgeDrop(const GraphDrop& drop) {
    const auto& analysis = m_editor->document()->analysis();
    if (m_judged && m_judged->drop == drop)
        return m_judged->verdict;
    DropVerdict verdict;
    if (analysis) {
        const std::optional<ScheduleEdit> edit =
            dropEdit(analysis->program, drop, &verdict.refusal);
        if (edit) {
            verdict.refusal = m_editor->blocker();
            if (verdict.refusal.isEmpty())
                verdict.refusal =
                    QString::fromStdString(script::checkEdit(analysis->program, *edit));
            if (verdict.refusal.isEmpty())
                verdict.action = QString::fromStdString(edit->description());
        }
    }
    m_judged = JudgedDrop{drop, verdict};
    return verdict;
}

void EditActions::drop(const GraphDrop& drop) {
    const auto& analysis = m_editor->document()->analysis();
    QString error;
    const std::optional<ScheduleEdit> edit =
        analysis ? dropEdit(analysis->program, drop, &error) : std::nullopt;
    if (edit)
        m_editor->apply(*edit, &error); // checks again: the script may have changed
    else if (!error.isEmpty())
        Q_EMIT m_editor->refused(error);
}

void EditActions::checkLegality() {
    updateEnabled();
    const auto& analysis = m_editor->document()->analysis();
    if (!analysis || !m_editor->blocker().isEmpty())
        return;
    for (QAction* action : std::as_const(m_actions)) {
        if (!action || !action->isEnabled())
            continue;
        const Entry entry = Entry(action->data().toInt());
        const ScheduleEdit edit = sampleEdit(entry);
        std::string why = missingNeighbour(entry, edit);
        if (why.empty() && entry != Entry::ComputeAt) // its target loop is picked afterwards
            why = script::checkEdit(analysis->program, edit);
        action->setEnabled(why.empty());
        action->setToolTip(QString::fromStdString(why));
    }
}

bool EditActions::askArguments(ScheduleEdit* edit) {
    std::optional<QString> answer;
    const QString loop = QString::fromStdString(edit->iterVar);
    const QString stage = QString::fromStdString(edit->stage);
    switch (edit->kind) {
    case EditKind::Split:
        answer = m_prompt(tr("Split %1").arg(loop), tr("Inner loop extent (factor):"), {});
        if (answer)
            edit->factor = answer->toLongLong();
        break;
    case EditKind::Tile: {
        const QString y = QString::fromStdString(edit->moreIterVars[0]);
        answer = m_prompt(tr("Tile %1 and %2").arg(loop, y), tr("Factor of %1:").arg(loop), {});
        if (!answer)
            return false;
        edit->factor = answer->toLongLong();
        answer = m_prompt(tr("Tile %1 and %2").arg(loop, y), tr("Factor of %1:").arg(y), {});
        if (answer)
            edit->yFactor = answer->toLongLong();
        break;
    }
    case EditKind::Bind:
        answer = m_prompt(tr("Bind %1").arg(loop), tr("Thread axis:"), threadTags());
        if (answer)
            edit->thread = answer->toStdString();
        break;
    case EditKind::SetScope:
    case EditKind::CacheWrite:
        answer = m_prompt(tr("%1 of %2").arg(primitiveName(edit->kind), stage),
                          tr("Storage scope:"), storageScopes());
        if (answer)
            edit->scope = answer->toStdString();
        break;
    case EditKind::CacheRead: {
        answer = m_prompt(tr("cache_read of %1").arg(stage), tr("Storage scope:"), storageScopes());
        if (!answer)
            return false;
        edit->scope = answer->toStdString();
        const QStringList readers = readersOf(m_editor->document()->analysis()->program, stage);
        if (readers.size() > 1) {
            const QString all = tr("all readers");
            answer = m_prompt(tr("cache_read of %1").arg(stage), tr("For the reader:"),
                              QStringList{all} + readers);
            if (answer && *answer != all)
                edit->readers = {answer->toStdString()};
        }
        break;
    }
    default:
        return true;
    }
    return answer.has_value();
}

void EditActions::trigger(Entry entry) {
    const StageSelection* selection = m_editor->document()->selection();
    QString error;
    if (entry == Entry::ComputeAt) {
        m_editor->beginComputeAt(selection->stage(), &error);
        return;
    }
    error = m_editor->blocker();
    if (!error.isEmpty()) {
        Q_EMIT m_editor->refused(error);
        return;
    }
    ScheduleEdit edit = sampleEdit(entry);
    if (const std::string why = missingNeighbour(entry, edit); !why.empty()) {
        Q_EMIT m_editor->refused(QString::fromStdString(why));
        return;
    }
    if (askArguments(&edit))
        m_editor->apply(edit, &error); // rechecks the blocker after the dialogs
}

bool EditActions::stillEditable() {
    // A dialog ran the event loop: the script may have changed or be running again.
    const QString blocker = m_editor->stageBlocker();
    if (!blocker.isEmpty())
        Q_EMIT m_editor->refused(blocker);
    return blocker.isEmpty();
}

void EditActions::triggerStage(StageEntry entry) {
    QString error = m_editor->stageBlocker();
    if (!error.isEmpty()) {
        Q_EMIT m_editor->refused(error);
        return;
    }
    const QString stage = m_editor->document()->selection()->stage();
    const std::string stageName = stage.toStdString();
    switch (entry) {
    case StageEntry::AddPlaceholder:
    case StageEntry::AddCompute:
    case StageEntry::AddReduction: {
        const auto kind = entry == StageEntry::AddPlaceholder ? script::NewStage::Kind::Placeholder
                          : entry == StageEntry::AddCompute   ? script::NewStage::Kind::Compute
                                                              : script::NewStage::Kind::Reduction;
        const auto& analysis = m_editor->document()->analysis();
        QStringList tensors;
        if (analysis && analysis->program.defined()) {
            for (const Stage& s : analysis->program.schedule.stages())
                tensors << QString::fromStdString(s.name());
        }
        const std::optional<script::NewStage> added = m_stagePrompt(kind, tensors);
        if (!added || !stillEditable())
            return;
        m_editor->applyScriptEdit(
            [added = *added](const std::string& text, const std::string& file,
                             const Program& program) {
                return script::addStage(text, file, program, added);
            },
            tr("add %1").arg(QString::fromStdString(added->name)), &error);
        return;
    }
    case StageEntry::Rename: {
        const std::optional<QString> name =
            m_prompt(tr("Rename %1").arg(stage), tr("New name:"), {stage});
        if (!name || *name == stage || !stillEditable())
            return;
        m_editor->applyScriptEdit(
            [stageName, name = name->toStdString()](
                const std::string& text, const std::string& file, const Program& program) {
                return script::renameStage(text, file, program, stageName, name);
            },
            tr("rename %1 to %2").arg(stage, *name), &error);
        return;
    }
    case StageEntry::Delete:
        m_editor->applyScriptEdit(
            [stageName](const std::string& text, const std::string& file, const Program& program) {
                return script::deleteStage(text, file, program, stageName);
            },
            tr("delete %1").arg(stage), &error);
        return;
    }
}

} // namespace bs::gui
