/// \file
/// Editing a schedule by direct manipulation (issue 7, item 4): an edit the user makes on an
/// IterVar or a stage in the views, and the Python text that performs it. Every edit is written
/// back as the line(s) a user would append to the script (`xo, xi = s[C].split(x, factor=8)`),
/// so the script stays the one source of truth and the views re-analyse it. Before any text is
/// produced the edit is tried on a copy of the program's schedule, so an illegal one (fusing
/// loops that are not adjacent, compute_at into itself) is refused with the engine's own
/// message and the script is never touched. No widgets: unit-tested on its own.
#pragma once

#include "analysis/Program.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace bs::gui {

enum class EditKind {
    Split,   ///< split the IterVar by `factor`
    Fuse,    ///< fuse the IterVar with the next leaf
    MoveOut, ///< reorder: swap with the enclosing leaf (Shift+Up)
    MoveIn,  ///< reorder: swap with the next inner leaf (Shift+Down)
    Bind,    ///< bind the IterVar to the thread axis `thread`
    Vectorize,
    Unroll,
    Parallel,
    ComputeAt, ///< compute the stage at `targetIterVar` of `targetStage`
    ComputeInline,
    ComputeRoot,
    SetScope,   ///< set the stage's storage scope to `scope`
    CacheRead,  ///< a `scope` copy of the stage's tensor for all its readers
    CacheWrite, ///< compute the stage into a `scope` cache first
};

/// `split`, `fuse`, `reorder`, ..., as the Python method is called.
QString editKindName(EditKind kind);
/// True for the edits made on an IterVar (the others act on a stage).
bool isIterVarEdit(EditKind kind);

/// One edit, naming what it acts on as the shared selection does (stage and IterVar names).
struct ScheduleEdit {
    EditKind kind = EditKind::Split;
    QString stage;
    QString iterVar;       ///< the leaf IterVar, for IterVar edits
    int64_t factor = 0;    ///< Split
    QString thread;        ///< Bind: `blockIdx.x`, `threadIdx.y`, `vthread`, ...
    QString scope;         ///< SetScope, CacheRead, CacheWrite: `shared`, `local`, ...
    QString targetStage;   ///< ComputeAt
    QString targetIterVar; ///< ComputeAt

    /// `split C.i by 8`, `compute_at B → C.i`: the undo text.
    QString description() const;
};

/// The Python lines for an edit, or the reason it cannot be made.
struct EditText {
    QString lines; ///< one or more complete lines, each ending with a newline
    QString error; ///< set when the edit is refused (lowercase, names the objects)

    bool ok() const { return error.isEmpty(); }
};

/// The thread tags a loop can be bound to, in menu order.
QStringList threadTags();
/// The storage scopes offered for set_scope and the caches.
QStringList storageScopes();

/// Writes `edit` as Python for `script`, whose current program is `program`.
EditText writeEdit(const QString &script, const Program &program, const ScheduleEdit &edit);

/// `script` with `lines` appended at its end (a newline is added first when it lacks one).
QString appendLines(const QString &script, const QString &lines);

} // namespace bs::gui
