/// \file
/// What the views ask of an analysis about one stage: it by name (in the schedule the views
/// show), its trace, what the inspector's header says of it, the script line that made it, the
/// stage a failure is about. Pure functions of an Analysis, like models/TraceRows.h.
#pragma once

#include "analysis/Analysis.h"

#include <QString>
#include <QStringList>

namespace bs::gui {

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

/// The normalized schedule InferBound ran on; an undefined Schedule when the analysis was not
/// lowered (scheduleShown falls back to the script's).
const Schedule& normalizedSchedule(const Analysis& analysis);
/// `i`, with the thread it is bound to: `i [blockIdx.x]`.
QString iterVarLabel(const Analysis& analysis, const IterVar& iv);

} // namespace bs::gui
