#include "schedule/ScheduleErrors.h"

#include "schedule/Stage.h"
#include "te/Operation.h"

#include <algorithm>

namespace bs {

namespace {

std::string quoted(const IterVar& iv) { return "'" + iv->var.name() + "'"; }

/// The relation that took `iv` out of the leaves, described from `iv`'s point of view.
std::string consumedBy(const IterVar& iv, const std::vector<IterVarRelation>& relations) {
    for (const IterVarRelation& rel : relations) {
        std::vector<IterVar> inputs = relationInputs(rel);
        if (std::none_of(inputs.begin(), inputs.end(),
                         [&](const IterVar& x) { return x.same_as(iv); }))
            continue;
        return visitRelation(
            rel,
            Overloaded{
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

void failPrimitive(const std::string& context, const std::string& rule, DiagnosticSubject subject,
                   std::string fix) {
    Diagnostic d{context + ": " + rule, currentSourceLocation()};
    d.subject = std::move(subject);
    d.fix = std::move(fix);
    throw UserError(std::move(d));
}

std::string leafFix(const DiagnosticSubject& subject, const std::vector<IterVar>& leaves,
                    const std::vector<IterVarRelation>& relations, const IterVar& iv) {
    if (subject.kind == "not-a-leaf" || subject.kind == "attach-not-leaf") {
        for (const IterVarRelation& rel : relations) {
            std::vector<IterVar> inputs = relationInputs(rel);
            if (std::any_of(inputs.begin(), inputs.end(),
                            [&](const IterVar& x) { return x.same_as(iv); }))
                return "use what '" + iv->var.name() +
                       "' became: " + iterVarList(relationOutputs(rel)) +
                       " (the values split, fuse and rebase return)";
        }
    }
    return "use a loop of stage '" + subject.stage + "', one of its leaves " + iterVarList(leaves) +
           " (s[" + subject.stage + "].op.axis, or what s[" + subject.stage +
           "].split/fuse returned)";
}

DiagnosticSubject leafSubject(const IterVar& iv, const std::vector<IterVar>& all,
                              const std::string& stageName) {
    bool known =
        std::any_of(all.begin(), all.end(), [&](const IterVar& x) { return x.same_as(iv); });
    DiagnosticSubject subject;
    subject.kind = known ? "not-a-leaf" : "itervar-of-other-stage";
    subject.stage = stageName;
    subject.iterVar = iv->var.name();
    subject.iterVarId = iv.get();
    return subject;
}

DiagnosticSubject loopSubject(std::string kind, const Stage& stage, const IterVar& iv) {
    DiagnosticSubject subject;
    subject.kind = std::move(kind);
    subject.stage = stage.name();
    subject.iterVar = iv->var.name();
    subject.iterVarId = iv.get();
    return subject;
}

std::string notLeafReason(const IterVar& iv, const std::vector<IterVar>& all,
                          const std::vector<IterVarRelation>& relations,
                          const std::string& stageName) {
    bool known =
        std::any_of(all.begin(), all.end(), [&](const IterVar& x) { return x.same_as(iv); });
    if (!known)
        return quoted(iv) + " is not an iter var of stage '" + stageName + "'";
    if (iv->iterType == IterVarType::Opaque)
        return quoted(iv) + " is an opaque axis of stage '" + stageName +
               "' (a scan's spatial axis): it has no loop of its own to schedule; the scan's "
               "updates loop over it";
    std::string how = consumedBy(iv, relations);
    return quoted(iv) + " is no longer a leaf" + (how.empty() ? "" : " (" + how + ")");
}

std::string iterVarList(const std::vector<IterVar>& ivs) {
    std::string text = "(";
    for (size_t i = 0; i < ivs.size(); ++i)
        text += (i ? ", " : "") + ivs[i]->var.name();
    return text + ")";
}

IterVar loopAsWritten(const Stage& stage, const IterVar& iv) {
    for (const IterVarRelation& rel : stage->relations)
        if (const auto* rebase = rel.as<RebaseNode>(); rebase && rebase->rebased.same_as(iv))
            return rebase->parent;
    return iv;
}

std::string rootAxisName(const Stage& stage, const IterVar& iv) {
    const IterVar written = loopAsWritten(stage, iv);
    if (const auto* compute = stage->op.as<ComputeOpNode>()) {
        for (size_t k = 0; k < compute->axis.size(); ++k)
            if (compute->axis[k].same_as(written))
                return stage.name() + ".op.axis[" + std::to_string(k) + "]";
        for (size_t k = 0; k < compute->reduceAxis.size(); ++k)
            if (compute->reduceAxis[k].same_as(written))
                return stage.name() + ".op.reduce_axis[" + std::to_string(k) + "]";
    }
    return "";
}

std::string scriptNameOf(const Stage& stage, const IterVar& iv) {
    std::string axis = rootAxisName(stage, iv);
    return axis.empty() ? iv->var.name() : axis;
}

} // namespace bs
