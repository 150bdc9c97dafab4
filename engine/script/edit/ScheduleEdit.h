/// \file
/// Schedule edits written into the script (DESIGN.md: a schedule edit is an engine call that
/// returns the edited script; the app's direct manipulation and `boundscope edit` make it).
///
/// An edit names what it acts on as the engine does (stage `C`, IterVar `i.outer`). Before any
/// text is produced it is tried on a copy of the program's schedule, so an illegal edit (fusing
/// loops that are not adjacent, compute_at into itself) is refused with the engine's own message
/// and the script is untouched. The Python is written in the script's own names
/// (edit/PythonNames.h) and placed by the script's structure as CPython's ast reads it:
/// - an edit that overrides an earlier call replaces it: set_scope replaces the stage's
///   set_scope; compute_at, compute_inline and compute_root replace one another; bind replaces
///   the bind of the same loop, and vectorize, unroll and parallel the annotation of the same
///   loop;
/// - otherwise it follows the stage's last primitive; a stage without primitives gets it at the
///   end of the schedule's primitives, before the first use of the schedule (`tvm.lower(s, ...)`,
///   `print(...)`, `tvm.build`);
/// - never before the statements that bind the names it uses, nor before a statement that still
///   reads a loop the edit splits or fuses away.
/// Then the edited script is run and must give the schedule the edit was tried on (the same
/// lowered program): a loop named by its position, a call in a `for` block or an inline
/// `s[C].op.axis[0]` the rules above do not see can make the preferred place wrong. The edit
/// then goes to the end of the schedule's primitives, just before the first use of the schedule
/// after them, and is checked again; when neither place gives that schedule it is refused.
#pragma once

#include "analysis/Program.h"
#include "script/ScriptRunner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs::script {

enum class EditKind {
    Split,   ///< split `iterVar` by `factor`, or into `nparts`
    Tile,    ///< tile `iterVar` and `moreIterVars[0]` by `factor` and `yFactor`
    Fuse,    ///< fuse `iterVar` with `moreIterVars[0]`, or with the next leaf when none
    Reorder, ///< reorder(`iterVar`, `moreIterVars`...)
    MoveOut, ///< reorder: swap `iterVar` with the enclosing leaf
    MoveIn,  ///< reorder: swap `iterVar` with the next inner leaf
    Bind,    ///< bind `iterVar` to the thread axis `thread`
    Vectorize,
    Unroll,
    Parallel,
    ComputeAt, ///< compute the stage at `targetIterVar` of `targetStage`
    ComputeInline,
    ComputeRoot,
    ReverseComputeInline,
    SetScope,   ///< set the stage's storage scope to `scope`
    CacheRead,  ///< a `scope` copy of the stage's tensor for `readers` (all readers when empty)
    CacheWrite, ///< compute the stage into a `scope` cache first
    Rfactor,    ///< factor the stage's reduction over `iterVar` into a new stage
};

/// `split`, `fuse`, `reorder`, ..., as the Python method is called.
std::string editKindName(EditKind kind);
/// True for the edits made on a loop of the stage (the others act on the stage).
bool isIterVarEdit(EditKind kind);

/// One edit, naming stages and IterVars as the engine does (`C`, `i.outer`).
struct ScheduleEdit {
    EditKind kind = EditKind::Split;
    std::string stage;
    std::string iterVar;                   ///< the leaf IterVar, for IterVar edits
    std::vector<std::string> moreIterVars; ///< Tile's y, Fuse's second, Reorder's rest
    int64_t factor = 0;                    ///< Split (0 with nparts), Tile's x factor
    int64_t nparts = 0;                    ///< Split by parts
    int64_t yFactor = 0;                   ///< Tile
    std::string thread;                    ///< Bind: `blockIdx.x`, `threadIdx.y`, `vthread`, ...
    std::string scope;                ///< SetScope, CacheRead, CacheWrite: `shared`, `local`, ...
    std::vector<std::string> readers; ///< CacheRead: reader stages (empty: every reader)
    std::string targetStage;          ///< ComputeAt
    std::string targetIterVar;        ///< ComputeAt

    /// `split C.i by 8`, `compute_at B → C.i`: the undo text.
    std::string description() const;
};

/// The edited script, or the reason the edit cannot be made.
struct EditResult {
    std::string script;   ///< the whole script after the edit
    std::string lines;    ///< the Python written (complete lines)
    int line = 0;         ///< the first line of `lines` in the edited script
    std::string replaced; ///< the statement the edit replaced (empty when inserted)
    std::string error;    ///< set when refused (lowercase, names the objects)

    bool ok() const { return error.empty(); }
};

/// The thread tags a loop can be bound to, in menu order.
const std::vector<std::string>& threadTags();
/// The storage scopes offered for set_scope and the caches.
const std::vector<std::string>& storageScopes();

struct EditOptions {
    /// Run the edited script to check its schedule (the file comment says why); off only where
    /// `program` was not made by running `script` (unit tests build programs in C++).
    bool verify = true;
    /// How that run goes (its time limit); its output is dropped.
    ScriptOptions run;
};

/// Writes `edit` into `script` (the text that defined `program`, read as `fileName`). Runs
/// CPython's parser, and the edited script when `options.verify`, on the Python thread; leaves
/// `program` and the file unchanged.
EditResult applyEdit(const std::string& script, const std::string& fileName, const Program& program,
                     const ScheduleEdit& edit, const EditOptions& options = {});

/// The stages of `sch` whose operation reads `producer`'s: the readers cache_read offers.
std::vector<Stage> readersOf(const Schedule& sch, const Stage& producer);

/// Runs `edited` as the script `fileName` (its output dropped, `options`' time limit) with the
/// process's program recorder to itself; `program` is set to what it defines. How every edit
/// is checked. The script is interrupted when the calling thread's cancellation flag is set
/// (support/Cancellation.h): the app checks edits as background jobs.
ScriptResult runEditedScript(const std::string& edited, const std::string& fileName,
                             const ScriptOptions& options, Program* program);

/// Why `edit` cannot be made on `program` now (empty when it can): the stages and loops it names,
/// its arguments, and the engine's own checks on a copy of the schedule. Writes nothing, runs
/// no Python: cheap enough to decide which menu entries are enabled.
std::string checkEdit(const Program& program, const ScheduleEdit& edit);

/// Resolves a primitive call typed as Python, `C.split(i, factor=8)` or
/// `B.compute_at(C, i.outer)`, into an edit: the stage by the script's variable for its tensor
/// or by its engine name, loops by the script's names or the engine's. Sets `error` instead
/// when the call names no primitive, stage or loop of the program.
ScheduleEdit parseEdit(const std::string& call, const std::string& script,
                       const std::string& fileName, const Program& program, std::string* error);

} // namespace bs::script
