// normalize() works on a copy (schedule/Normalize.cpp); its steps are read afterwards from the
// two schedules, which list the same stages in the same order: a stage marked compute_inline
// before and InlinedAlready after was inlined, and a Rebase relation the original stage lacks
// was added by RebaseNonZeroMinLoop.
#include "schedule/BoundSteps.h"

#include "schedule/Graph.h"
#include "schedule/Schedule.h"

#include <algorithm>

namespace bs {

namespace {

std::string consumerNames(const Stage& stage, const FeedGraph& feed) {
    std::vector<std::string> names;
    for (int i = 0; i < stage->op->numOutputs(); ++i) {
        auto it = feed.find(stage->op.output(i));
        if (it == feed.end())
            continue;
        for (const Operation& op : it->second)
            if (std::find(names.begin(), names.end(), op->name) == names.end())
                names.push_back(op->name);
    }
    std::string text;
    for (size_t i = 0; i < names.size(); ++i)
        text += (i ? ", '" : "'") + names[i] + "'";
    return text.empty() ? "no consumer" : text;
}

bool hasRelation(const Stage& stage, const IterVarRelation& rel) {
    return std::any_of(stage->relations.begin(), stage->relations.end(),
                       [&](const IterVarRelation& r) { return r.same_as(rel); });
}

} // namespace

BoundSteps normalizeSteps(const Schedule& original, const Schedule& normalized) {
    BoundSteps steps;
    if (original->stages.size() != normalized->stages.size())
        return steps;
    FeedGraph feed = createFeedGraph(createReadGraph(original));
    for (size_t i = 0; i < normalized->stages.size(); ++i) {
        const Stage& before = original->stages[i];
        const Stage& after = normalized->stages[i];
        if (before->attachType == AttachType::Inline) {
            BoundStep step;
            step.phase = StepPhase::Normalize;
            step.rule = "inline";
            step.stage = before->op;
            step.location = stepLine(before);
            step.text = "normalize inlines '" + before->op->name +
                        "' (compute_inline): its body is "
                        "substituted into " +
                        consumerNames(before, feed) +
                        ", so it has no loops, no buffer and no ranges of its own.";
            steps.add(std::move(step));
            continue;
        }
        for (const IterVarRelation& rel : after->relations) {
            const auto* rebase = rel.as<RebaseNode>();
            if (!rebase || hasRelation(before, rel))
                continue;
            BoundStep step;
            step.phase = StepPhase::Normalize;
            step.rule = "rebase";
            step.stage = after->op;
            step.relation = rel;
            step.iterVars = {rebase->parent, rebase->rebased};
            step.location =
                rebase->parent->location.known() ? rebase->parent->location : stepLine(after);
            step.text = "normalize rebases root loop " + rebase->parent->var.name() + " of '" +
                        after->op->name + "' into a fresh " + rebase->rebased->var.name() +
                        " that starts at 0 (RebaseNonZeroMinLoop): InferBound requires every "
                        "loop it keeps as a point to start at 0.";
            steps.add(std::move(step));
        }
    }
    return steps;
}

} // namespace bs
