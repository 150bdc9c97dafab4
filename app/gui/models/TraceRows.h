/// \file
/// Engine results as text for the tables and panels: the bounds of every IterVar, and for one
/// stage its BoundTrace (seed 000, "InferRootBound": phase-1 leaf sets, the relax set, phase-2
/// root sets, phase-3 requests, the phase-4 union and ranges). Pure functions of an Analysis,
/// so the models stay adapters and the tests can check the text without widgets.
#pragma once

#include "analysis/Analysis.h"
#include "models/StringTableModel.h"

#include <QString>
#include <QStringList>

namespace bs::gui {

QString exprText(const Expr& e);
/// `min=0, ext=8`; `undefined` for a range without a min.
QString rangeText(const Range& r);
QString intSetText(const IntSet& s);
QString qstr(const std::string& s);

/// The stage of `schedule` named `name`, or an undefined Stage.
Stage findStageByName(const Schedule& schedule, const QString& name);
/// The trace of the stage named `name`, or nullptr.
const StageTrace* findStageTrace(const Analysis& analysis, const QString& name);
/// The schedule the views show: the normalized one InferBound ran on (its stage names are the
/// selection's), or the script's when the analysis was not lowered.
const Schedule& scheduleShown(const Analysis& analysis);
/// The names of the shown schedule's stages, producers first.
QStringList stageNames(const Analysis& analysis);
/// The stage a failed schedule's error is about, as the views select it: the stage computed
/// at the wrong place, the owner of an IterVar given to another stage, the stage of a loop
/// that cannot be vectorized; empty when the error names no stage.
QString problemStage(const Diagnostic& error);
/// `The schedule fails at line 10 (the message is under the script)`, for the views that have
/// nothing to show then; empty when the analysis did not fail.
QString failureNote(const Analysis& analysis);

/// What the inspector's header says about a stage.
struct StageSummary {
    bool found = false;
    QString kind;        ///< `output`, `placeholder`, `computed`, `extern`, `inlined`
    int visitIndex = -1; ///< 0-based position in InferBound's visit order (outputs first)
    int visitCount = 0;
    QString attachPoint; ///< `root`, `inline`, `at i of C`
    QString attachPath;  ///< `C: j.inner → j.outer → i` (innermost first), `root` when empty
    QString scope;       ///< `shared (set)`, `local (inferred)`
};
StageSummary summarizeStage(const Analysis& analysis, const QString& stage);

/// The script line that created `iterVar` of `stage` (or the stage itself when `iterVar` is
/// empty or unknown); 0 when the line is not known.
int sourceLine(const Analysis& analysis, const QString& stage, const QString& iterVar);

/// Every IterVar of every stage: Stage, IterVar, Min, Extent, Role.
QStringList boundsHeaders();
QList<TableRow> boundsRows(const Analysis& analysis);

/// Phase 3: each consumer's request per output axis of the stage.
QStringList requestHeaders();
QList<TableRow> requestRows(const Analysis& analysis, const StageTrace& trace);
/// Phase 1: the consumers' leaf sets with the case applied and why.
QStringList leafSetHeaders();
QList<TableRow> leafSetRows(const Analysis& analysis, const StageTrace& trace);
/// The consumers' attach-path loops that were relaxed, and why.
QStringList relaxHeaders();
QList<TableRow> relaxRows(const Analysis& analysis, const StageTrace& trace);
/// Phase 2: the consumers' root sets.
QStringList rootSetHeaders();
QList<TableRow> rootSetRows(const Analysis& analysis, const StageTrace& trace);
/// Phase 4: the union of the requests per root axis and the final ranges.
QStringList unionHeaders();
QList<TableRow> unionRows(const StageTrace& trace);

} // namespace bs::gui
