/// \file
/// How a script refers to the objects of the program it defined, so that an edit made by
/// direct manipulation can be written back as Python the user would have written (issue 7,
/// item 4). The engine records the script line that created each operation, schedule and
/// IterVar; the assignment on that line names it (`C = te.compute(...)` names stage C's tensor,
/// `xo, xi = s[C].split(x, 4)` names the outer and inner IterVars). A name is used only where
/// it surely still refers to that object at the end of the script: the statement is at the top
/// level (run once) and no later line assigns the name again. Everything else gets a stable
/// expression TVM accepts, valid at the end of the script: `s.stages[3]`, `s[C].op.axis[0]`,
/// `s[C].leaf_iter_vars[2]`. No widgets: unit-tested on its own.
#pragma once

#include "analysis/Program.h"

#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace bs::gui {

class PythonNames {
public:
    /// `script` is the text that defined `program` (the current Analysis).
    PythonNames(const QString &script, const Program &program);

    /// The variable holding the schedule (`s`); nullopt when the create_schedule call is not
    /// assigned to a variable that keeps it, in which case no edit can be written.
    const std::optional<QString> &schedule() const { return m_schedule; }
    /// The tensor computed by `stage` (output 0): `C`, or `s.stages[2].op.output(0)`.
    QString tensor(const Stage &stage) const;
    /// The stage: `s[C]`, or `s.stages[2]`.
    QString stage(const Stage &stage) const;
    /// A leaf, root or reduce IterVar of `stage`: `xo`, `s[C].op.axis[0]`,
    /// `s[C].leaf_iter_vars[2]`. Empty when `iv` is none of these.
    QString iterVar(const Stage &stage, const IterVar &iv) const;
    /// The thread axis for `tag`: a script variable made by `thread_axis("tag")`, else a call
    /// through the module the script imported (`te.thread_axis("tag")`); `needsImport` is set
    /// when the script imported neither `tvm` nor `te` and an `import tvm` must come first.
    QString threadAxis(const QString &tag, bool *needsImport) const;
    /// A Python identifier based on `base` (made valid) that no line of the script uses and
    /// that was not handed out before: `i_outer`, `i_outer_2`, ...
    QString freshName(const QString &base) const;

private:
    /// The statement containing line `line` (1-based): its first line, index into m_lines.
    int statementStart(int line) const;
    /// The names assigned by the top-level statement that contains `line` (empty when the
    /// statement is indented or assigns something other than plain names).
    QStringList targetsAt(int line) const;
    /// Whether `name` is assigned by any statement after the statement starting at `start`.
    bool reassignedAfter(const QString &name, int start) const;
    /// targetsAt(line)[index] if the statement has `count` targets and that name is final.
    std::optional<QString> finalTarget(int line, int index, int count) const;
    std::optional<QString> rootAxisName(const Stage &stage, const IterVar &iv) const;
    QString scheduleExpr() const { return m_schedule.value_or(QStringLiteral("s")); }

    QStringList m_lines;
    QList<int> m_statementOf; ///< for each line, the index of its statement's first line
    Schedule m_sch;
    std::optional<QString> m_schedule;
    QSet<QString> m_identifiers;
    mutable QSet<QString> m_handedOut;
};

/// The names assigned by one logical Python statement (`a, (b, c) = ...` gives a, b, c;
/// `x += 1` gives x; `for i in ...` gives i). Empty for expressions and keyword arguments.
QStringList assignedNames(const QString &statement);

} // namespace bs::gui
