/// \file
/// What each line of printed IR is about, so the IR view and the shared selection link both
/// ways (issue 7, item 3: "the IR lines it produced; clicking an IR line selects its stage").
/// The printer (ir/Printer.h) writes a stage's computation inside `produce X { ... }`, and its
/// storage as `realize X(...)`, `allocate X[...]` and `// attr [X] storage_scope` or
/// `// attr [compute(X)] realize_scope` lines; loops open with `for (v, ...)` and thread
/// bindings with `// attr [iter_var(blockIdx.x, ...)] thread_extent`.
#pragma once

#include <QList>
#include <QPair>
#include <QString>

namespace bs::gui {

struct IrLine {
    /// The stage the line belongs to: the innermost enclosing `produce`, or the stage a storage
    /// line names; empty outside every stage.
    QString stage;
    /// The loop or thread variable the line opens (`j.inner`, `threadIdx.x`), if any.
    QString loopVar;
    /// True for the lines that name the stage itself (produce, realize, allocate, its attrs).
    bool namesStage = false;
};

/// One entry per line of `text` (lines split at '\n').
QList<IrLine> irLines(const QString& text);

/// The number written at or just before `column` of `line` (`512` in `for (i, 0, 512) {`,
/// `8` in `allocate B[int32 * 8]`), as [start, end) columns; {-1, -1} when there is none. Digits
/// inside a name (`int32`, `i0`) are no number.
QPair<int, int> numberSpanAt(const QString& line, int column);

} // namespace bs::gui
