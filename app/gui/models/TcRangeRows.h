/// \file
/// The TC Ranges table (issue 8, item 2): for a program built from Tensor Comprehensions (a
/// `.tc` file, or a script that called `boundscope.tc`), every statement variable with TC's
/// input-driven range next to InferBound's consumer-driven range of its IterVar under the
/// analysed rules (tc/RangeComparison.h computes them), and TC's warnings. Pure functions of an
/// Analysis, like models/TraceRows.h.
#pragma once

#include "analysis/Analysis.h"
#include "models/StringTableModel.h"

#include <QStringList>

namespace bs::gui {

/// Variable, TC range (input-driven), InferBound range (consumer-driven), Agreement,
/// Statement (`8: C(m, n) +=! ...`).
QStringList tcRangeHeaders();
/// One row per variable of every TC statement whose stage the analysed schedule holds; the
/// row's stage and IterVar are the ones InferBound bounded. Empty without TC or lowering.
QList<TableRow> tcRangeRows(const Analysis& analysis);
/// TC's warnings and notes, `line 3: warning: col 22: unchecked precondition ...`.
QStringList tcWarningLines(const Analysis& analysis);
/// One line on what the table shows: its TC definitions and the rules, or why it is empty
/// (the program does not come from TC).
QString tcRangesSummary(const Analysis& analysis);

} // namespace bs::gui
