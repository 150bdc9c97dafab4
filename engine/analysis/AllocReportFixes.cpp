// Fixes the allocation report proposes are tried before they are shown (issue 13, item 7): the
// change is made on a copy of the script's schedule, the copy runs InferBound under the rules
// the waste is measured against, and the hint says what the buffer becomes. A change that
// fails, or that does not make the buffer smaller (or, for recomputation, compute less), is
// not proposed.
#include "analysis/AllocReportInternal.h"

#include "ir/Op.h"
#include "ir/Printer.h"

namespace bs::alloc {

namespace {

bool smaller(std::optional<int64_t> a, std::optional<int64_t> b) { return a && b && *a < *b; }

} // namespace

Stage stageOfOrigin(const Schedule& sch, const Operation& origin) {
    for (const Stage& s : sch->stages)
        if (s->originOp.same_as(origin))
            return s;
    return Stage();
}

Stage stageToFix(const Schedule& sch, const Operation& origin) {
    Stage stage = stageOfOrigin(sch, origin);
    if (!stage.defined())
        throw UserError("no stage made from '" + origin->name + "'");
    return stage;
}

void resplit(const Schedule& sch, const Operation& origin, const SplitNode* split, int64_t value) {
    Stage stage = stageToFix(sch, origin);
    for (IterVarRelation& rel : stage.mutableNode()->relations) {
        if (rel.get() != split)
            continue;
        Expr given = makeConst(DataType::int32(), value);
        rel = split->factor.defined()
                  ? IterVarRelation::split(split->parent, split->outer, split->inner, given, Expr(),
                                           split->disablePredication)
                  : IterVarRelation::split(split->parent, split->outer, split->inner, Expr(), given,
                                           split->disablePredication);
        return;
    }
    throw UserError("no such split in stage '" + origin->name + "'");
}

std::string tryFix(const BufferFacts& facts, const FixTrial& trial, FixGoal goal) {
    const BoundRules rules = facts.report->wasteRules;
    const RuleAllocation* before = facts.report->allocation(rules);
    if (!facts.schedule || !before)
        return "";
    const std::string& name = facts.report->name;
    try {
        Schedule copy = facts.schedule->copy();
        trial.apply(copy);
        RuleRun run = runRules(copy, rules);
        Stage stage = run.stageOf(facts.origin);
        const StageTrace* trace = stage.defined() ? run.result.trace.find(stage->op) : nullptr;
        if (!trace || trace->kind == StageTrace::Kind::InlinedAlready)
            return trial.text + ": " + name + " disappears (each use computes it in place)";
        RuleAllocation after = allocationUnder(run, stage, *trace);
        if (smaller(after.allocated, before->allocated))
            return trial.text + ": " + name + " allocates " + countText(after.allocated) +
                   " instead of " + countText(before->allocated);
        if (goal == FixGoal::SmallerOrComputeLess && smaller(after.computed, before->computed))
            return trial.text + ": " + name + " computes " + countText(after.computed) +
                   " elements instead of " + countText(before->computed) + " (it allocates " +
                   countText(after.allocated) + ")";
        if (goal == FixGoal::Lowers)
            return trial.text + ": " + name + " allocates " + countText(after.allocated);
    } catch (const UserError&) {
        // the change is not legal for this schedule: nothing to propose
    }
    return "";
}

} // namespace bs::alloc
