/// \file
/// The steps of bound inference (schedule/BoundSteps.h) as the Step-through panel lays them out
/// (issue 13, item 4): the normalize steps, then one group per stage InferBound visits (in
/// visit order), then the lowering steps (realize, guards, allocate); inside a group, one
/// section per phase and consumer (`phase 2 · consumer C: pass up`). Also how the same step is
/// found again in the Analysis of an edited program, and how a step is named on the command
/// line (`--step`). Pure functions of an Analysis, so the model stays an adapter.
#pragma once

#include "analysis/Analysis.h"

#include <QList>
#include <QString>

#include <optional>

namespace bs::gui {

/// The steps of `analysis`; null when it was not lowered.
const BoundSteps* stepsOf(const Analysis& analysis);

/// The name of the stage of `op` in the normalized schedule (the selection's names), else the
/// operation's own name; empty for an undefined operation.
QString stageNameOf(const Analysis& analysis, const Operation& op);

/// A run of consecutive steps of one phase (and consumer) inside a group.
struct StepSection {
    QString title; ///< `phase 1 · consumer C: leaf sets`, `pass down`, `allocate`
    QList<int> steps;
};

struct StepGroup {
    enum class Kind { Normalize, Stage, Lowering };
    Kind kind = Kind::Stage;
    QString title; ///< `normalize`, `B · computed at i.j.fused.outer of C`, `lowering`
    QString stage; ///< the visited stage (Kind::Stage); empty otherwise
    QList<StepSection> sections;
};

/// Every step of `analysis` in its group and section, in step order (each step once).
QList<StepGroup> stepOutline(const Analysis& analysis);

/// What a step is about, independent of its id and of the rules: a step keeps its key when an
/// edit adds steps before it or the rules change how it is derived.
struct StepKey {
    StepPhase phase = StepPhase::Visit;
    QString stage;
    QString consumer;
    QString subject; ///< the relation's IterVars, the step's IterVars, or the tensor axis
    int ordinal = 0; ///< among the earlier steps with the same key

    bool operator==(const StepKey&) const = default;
};
/// The key of step `id`; nullopt when there is no such step.
std::optional<StepKey> stepKeyOf(const Analysis& analysis, int id);

/// The step of `analysis` to show after a re-analysis: `oldId` when that step still has `key`,
/// else the step with `key`, else `oldId` clamped to the steps there are; -1 when there are
/// none.
int resolveStep(const Analysis& analysis, const std::optional<StepKey>& key, int oldId);

/// The step `spec` names: an id (`12`), the first step of a phase (`pass-up`), or the first
/// step of a phase whose rule starts with a prefix (`pass-up:fuse`); -1 when there is none.
int findStep(const Analysis& analysis, const QString& spec);

/// Whether `spec` has the form findStep reads (an id, `PHASE` or `PHASE:RULE`).
bool isStepSpec(const QString& spec);

} // namespace bs::gui
