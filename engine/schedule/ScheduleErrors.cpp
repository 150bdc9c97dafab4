#include "schedule/ScheduleErrors.h"

#include <algorithm>

namespace bs {

namespace {

std::string quoted(const IterVar& iv) {
    return "'" + iv->var.name() + "'";
}

/// The relation that took `iv` out of the leaves, described from `iv`'s point of view.
std::string consumedBy(const IterVar& iv, const std::vector<IterVarRelation>& relations) {
    for (const IterVarRelation& rel : relations) {
        std::vector<IterVar> inputs = relationInputs(rel);
        if (std::none_of(inputs.begin(), inputs.end(), [&](const IterVar& x) { return x.same_as(iv); }))
            continue;
        return visitRelation(rel, Overloaded{
            [](const SplitNode* s) {
                return "it was split into " + quoted(s->outer) + " and " + quoted(s->inner);
            },
            [](const FuseNode* f) { return "it was fused into " + quoted(f->fused); },
            [](const RebaseNode* r) { return "it was rebased into " + quoted(r->rebased); },
            [](const SingletonNode*) { return std::string(); },
        });
    }
    return "";
}

} // namespace

std::string primitiveContext(const std::string& primitive, const IterVar& iv,
                             const std::string& stageName) {
    return primitive + " of " + quoted(iv) + " in stage '" + stageName + "'";
}

void failPrimitive(const std::string& context, const std::string& rule) {
    throw UserError(context + ": " + rule);
}

std::string notLeafReason(const IterVar& iv, const std::vector<IterVar>& all,
                          const std::vector<IterVarRelation>& relations,
                          const std::string& stageName) {
    bool known =
        std::any_of(all.begin(), all.end(), [&](const IterVar& x) { return x.same_as(iv); });
    if (!known)
        return quoted(iv) + " is not an iter var of stage '" + stageName + "'";
    std::string how = consumedBy(iv, relations);
    return quoted(iv) + " is no longer a leaf" + (how.empty() ? "" : " (" + how + ")");
}

std::string iterVarList(const std::vector<IterVar>& ivs) {
    std::string text = "(";
    for (size_t i = 0; i < ivs.size(); ++i)
        text += (i ? ", " : "") + ivs[i]->var.name();
    return text + ")";
}

} // namespace bs
