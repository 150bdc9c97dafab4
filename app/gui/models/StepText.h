/// \file
/// The words the app shows for a step of bound inference (schedule/BoundSteps.h; issue 13,
/// items 3 and 4): its label in the Step-through list, a one-line summary, the details of the
/// current step (its text, rule, values in and out, the steps it reads and those that read it,
/// as `step:N` links), and the derivation shown when hovering a number of the lowered IR (the
/// step, the steps it reads, and theirs). Pure functions of the steps.
#pragma once

#include "analysis/Analysis.h"

#include <QList>
#include <QSet>
#include <QString>

namespace bs::gui {

/// `#12 pass-up`.
QString stepLabel(const BoundStep& step);
/// The values the step produces (`i = [0, 63]; j = [0, 63]`), else its first sentence.
QString stepSummary(const BoundStep& step);
/// A value as the graphs label it: a set `[0, 63]`, a range `[0, +64)`, an expression.
QString stepValueText(const StepValue& value);

/// The current step for the Step-through panel, as HTML: title, stage, consumer, relation and
/// script line, the text, the values in and out, and links `step:N` to the steps it reads
/// (`from`) and to those that read it. Empty when there is no step `id`.
QString stepDetailsHtml(const Analysis& analysis, int id);

/// The derivation of step `id` for a tooltip, as HTML: the step's text, then, indented, the
/// steps it reads and theirs, `depth` levels in all (allocate ← realize ← unions), each step
/// once. Empty when there is no step `id`.
QString derivationHtml(const BoundSteps& steps, int id, int depth = 3);

/// The steps whose `from` names `id`, in order.
QList<int> stepsReading(const BoundSteps& steps, int id);
/// `id` and every step whose results derive from it through `from`, transitively.
QSet<int> stepsDerivedFrom(const BoundSteps& steps, int id);

} // namespace bs::gui
