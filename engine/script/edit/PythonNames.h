/// \file
/// How a script refers to the objects of the program it defined, so that a schedule edit is
/// written as the Python the user would have written. The engine records the script line that
/// created each operation, schedule and IterVar; the top-level assignment on that line names it
/// (`C = te.compute(...)` names stage C's tensor, `xo, xi = s[C].split(x, 4)` the two loops). A
/// name is used only where it surely still refers to that object at the end of the script: the
/// statement is at the top level (run once) and no later statement binds the name again.
/// Everything else gets a stable expression TVM accepts, valid at the end of the script:
/// `s.stages[3]`, `s[C].op.axis[0]`, `s[C].leaf_iter_vars[2]`. Statements come from CPython's
/// ast (edit/SourceOutline.h).
#pragma once

#include "analysis/Program.h"
#include "script/edit/SourceOutline.h"

#include <optional>
#include <set>
#include <string>

namespace bs::script {

class PythonNames {
public:
    /// `outline` is the outline of the script `fileName` that defined `program`: a location the
    /// engine recorded in another file (a helper module the script imports) names no statement
    /// of it. An empty `fileName` takes every location as the script's.
    PythonNames(const SourceOutline& outline, const Program& program, std::string fileName = "");

    /// The line of `location` in the script, 0 when it is unknown or in another file.
    int lineOf(const SourceLocation& location) const;

    const SourceOutline& outline() const { return m_outline; }
    /// The variable holding the schedule (`s`); nullopt when the create_schedule call is not
    /// assigned to a top-level variable that keeps it, in which case no edit can be written.
    const std::optional<std::string>& schedule() const { return m_schedule; }
    /// The index of the statement that creates the schedule (-1 when unknown).
    int scheduleStatement() const;
    /// The tensor computed by `stage` (output 0): `C`, or `s.stages[2].op.output(0)`.
    std::string tensor(const Stage& stage) const;
    /// The stage: `s[C]`, or `s.stages[2]`.
    std::string stage(const Stage& stage) const;
    /// A leaf, root or reduce IterVar of `stage`: `xo`, `s[C].op.axis[0]`,
    /// `s[C].leaf_iter_vars[2]`. Empty when `iv` is none of these.
    std::string iterVar(const Stage& stage, const IterVar& iv) const;
    /// The thread axis for `tag`: a script variable made by `thread_axis("tag")`, else a call
    /// through the module the script imported (`te.thread_axis("tag")`); `needsImport` is set
    /// when the script imported neither `tvm` nor `te` and an `import tvm` must come first.
    std::string threadAxis(const std::string& tag, bool* needsImport) const;
    /// A Python identifier based on `base` (made valid) that no word of the script uses and
    /// that was not handed out before: `i_outer`, `i_outer_2`, ...
    std::string freshName(const std::string& base) const;

    /// The stage a script expression names (`C`, `AA`, `s.stages[2]`), judged at statement
    /// `before` (the expression's meaning there); undefined when it names none.
    Stage stageOfExpression(const std::string& text, int before) const;
    /// The statement (index) that last binds `name` before statement `before`; -1 when none.
    int bindingBefore(const std::string& name, int before) const;

private:
    /// targets[index] of the top-level statement containing `line`, if the statement assigns
    /// exactly `count` plain names and no later statement binds that one again.
    std::optional<std::string> finalTarget(int line, int index, int count) const;
    bool reassignedAfter(const std::string& name, int statement) const;
    std::optional<std::string> rootAxisName(const Stage& stage, const IterVar& iv) const;
    std::optional<std::string> relationName(const Stage& stage, const IterVar& iv) const;
    int stageIndex(const Stage& stage) const;
    std::string scheduleExpr() const { return m_schedule.value_or("s"); }

    const SourceOutline& m_outline;
    Schedule m_sch;
    std::string m_file;
    std::optional<std::string> m_schedule;
    std::set<std::string> m_identifiers;
    mutable std::set<std::string> m_handedOut;
};

/// How the script reaches TVM's te module: `te` after `from tvm import te`, `tvm.te` after
/// `import tvm`; nullopt when it imports neither.
std::optional<std::string> teModule(const SourceOutline& outline);

} // namespace bs::script
