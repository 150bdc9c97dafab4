#include "schedule/BoundTrace.h"

#include "ir/OperationNode.h"
#include "ir/Printer.h"

#include <nlohmann/json.hpp>

namespace bs {

using json = nlohmann::ordered_json;

const char* leafCaseName(LeafCase c) {
    switch (c) {
    case LeafCase::ExtentOne:
        return "extent-one";
    case LeafCase::NoRelax:
        return "no-relax";
    case LeafCase::Relax:
        return "relax";
    case LeafCase::ThreadInRegion:
        return "thread-in-region";
    }
    return "relax";
}

const char* stageKindName(StageTrace::Kind kind) {
    switch (kind) {
    case StageTrace::Kind::Output:
        return "output";
    case StageTrace::Kind::Placeholder:
        return "placeholder";
    case StageTrace::Kind::InlinedAlready:
        return "inlined";
    case StageTrace::Kind::Computed:
        return "computed";
    }
    return "computed";
}

const StageTrace* BoundTrace::find(const Operation& op) const {
    for (const StageTrace& s : stages)
        if (s.op.same_as(op))
            return &s;
    return nullptr;
}

namespace {

json rangeJson(const Range& r) {
    if (!r.defined())
        return nullptr;
    return json{{"min", toString(r.min)}, {"extent", toString(r.extent)}};
}

json setJson(const IntSet& s) { return s.toString(); }

json ivJson(const IterVar& iv) { return iv->var.name(); }

/// The IterVars' names; `ivs` is a vector or an AttachPath (innermost first).
template <typename IterVars> json ivListJson(const IterVars& ivs) {
    json out = json::array();
    for (const IterVar& iv : ivs)
        out.push_back(ivJson(iv));
    return out;
}

json consumerJson(const ConsumerTrace& c) {
    json leaves = json::array();
    for (const LeafSetEntry& e : c.leafSets)
        leaves.push_back({{"itervar", ivJson(e.iv)},
                          {"range", rangeJson(e.range)},
                          {"set", setJson(e.set)},
                          {"case", leafCaseName(e.leafCase)},
                          {"reason", e.reason}});
    json relax = json::array();
    for (const RelaxEntry& e : c.relaxSet)
        relax.push_back({{"itervar", ivJson(e.iv)},
                         {"var", e.var.name()},
                         {"set", setJson(e.set)},
                         {"reason", e.reason}});
    json roots = json::array();
    for (const RootSetEntry& e : c.rootSets)
        roots.push_back({{"itervar", ivJson(e.iv)},
                         {"up_state", e.upState ? json(setJson(*e.upState)) : json(nullptr)},
                         {"covered", rangeJson(e.covered)},
                         {"domain", setJson(e.domain)}});
    json requests = json::array();
    for (const RequestEntry& e : c.requests)
        requests.push_back({{"tensor", e.tensor.name()},
                            {"value_index", e.tensor.valueIndex},
                            {"axis", e.axis},
                            {"index", toString(e.index)},
                            {"evaluated", setJson(e.evaluated)},
                            {"request", setJson(e.request)},
                            {"clamped", e.clamped}});
    return json{
        {"consumer", c.consumer->name}, {"consumer_attach_path", ivListJson(c.consumerAttachPath)},
        {"phase1_leaf_sets", leaves},   {"relax_set", relax},
        {"phase2_root_sets", roots},    {"phase3_requests", requests}};
}

json stageJson(const StageTrace& s) {
    json consumers = json::array();
    for (const ConsumerTrace& c : s.consumers)
        consumers.push_back(consumerJson(c));
    json roots = json::array();
    for (const RootBound& r : s.rootBounds)
        roots.push_back({{"itervar", ivJson(r.iv)},
                         {"output_axis", r.outputAxis},
                         {"union", r.unionSet ? json(setJson(*r.unionSet)) : json(nullptr)},
                         {"range", rangeJson(r.range)},
                         {"source", r.source}});
    json ranges = json::array();
    for (const auto& [iv, r] : s.ranges)
        ranges.push_back({{"itervar", ivJson(iv)}, {"range", rangeJson(r)}});
    return json{{"stage", s.op->name},
                {"kind", stageKindName(s.kind)},
                {"visit_index", s.visitIndex},
                {"attach_path", ivListJson(s.attachPath)},
                {"scope", s.scope},
                {"scope_inferred", s.scopeInferred},
                {"consumers", consumers},
                {"phase4_root_bounds", roots},
                {"ranges", ranges}};
}

} // namespace

std::string BoundTrace::toJson(int indent) const {
    json stagesJson = json::array();
    for (const StageTrace& s : stages)
        stagesJson.push_back(stageJson(s));
    json root{{"rules", boundRulesName(rules)}, {"stages", stagesJson}};
    return root.dump(indent);
}

} // namespace bs
