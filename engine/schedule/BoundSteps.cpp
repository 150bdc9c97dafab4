#include "schedule/BoundSteps.h"

#include "ir/OperationNode.h"
#include "ir/Printer.h"
#include "schedule/Schedule.h"
#include "support/Check.h"

#include <nlohmann/json.hpp>

namespace bs {

using json = nlohmann::ordered_json;

const char* stepPhaseName(StepPhase phase) {
    switch (phase) {
    case StepPhase::Normalize:
        return "normalize";
    case StepPhase::Visit:
        return "visit";
    case StepPhase::Consumer:
        return "consumer";
    case StepPhase::LeafSet:
        return "leaf-set";
    case StepPhase::Relax:
        return "relax";
    case StepPhase::PassUp:
        return "pass-up";
    case StepPhase::RootSet:
        return "root-set";
    case StepPhase::Request:
        return "request";
    case StepPhase::Union:
        return "union";
    case StepPhase::PassDown:
        return "pass-down";
    case StepPhase::Tight:
        return "tight";
    case StepPhase::Realize:
        return "realize";
    case StepPhase::BoundCheck:
        return "bound-check";
    case StepPhase::Tensorize:
        return "tensorize";
    case StepPhase::Compact:
        return "compact";
    case StepPhase::Allocate:
        return "allocate";
    }
    BS_UNREACHABLE("unknown step phase");
}

int BoundSteps::add(BoundStep step) {
    step.id = int(m_steps.size());
    m_steps.push_back(std::move(step));
    return m_steps.back().id;
}

int BoundSteps::rangeStep(const IterVar& iv) const {
    auto it = m_rangeStep.find(iv);
    return it == m_rangeStep.end() ? -1 : it->second;
}

int BoundSteps::loopStep(const IterVar& iv) const {
    auto it = m_loopStep.find(iv);
    return it == m_loopStep.end() ? rangeStep(iv) : it->second;
}

int BoundSteps::realizeStep(const Operation& op, int valueIndex) const {
    auto it = m_realizeStep.find({op.get(), valueIndex});
    return it == m_realizeStep.end() ? -1 : it->second;
}

void BoundSteps::setRealizeStep(const Operation& op, int valueIndex, int step) {
    m_realizeStep[{op.get(), valueIndex}] = step;
}

std::vector<int> BoundSteps::idsOf(StepPhase phase, size_t first, size_t last) const {
    std::vector<int> ids;
    for (size_t i = first; i < std::min(last, m_steps.size()); ++i)
        if (m_steps[i].phase == phase)
            ids.push_back(int(i));
    return ids;
}

namespace {

/// Builds the BoundTrace from the steps, stage by stage.
class TraceBuilder {
public:
    explicit TraceBuilder(BoundTrace& trace) : m_trace(trace) {}

    void add(const BoundStep& step) {
        std::visit([&](const auto& detail) { take(step, detail); }, step.detail);
    }

private:
    void take(const BoundStep&, const std::monostate&) {}
    void take(const BoundStep& step, const StageVisit& v) {
        StageTrace s;
        s.op = step.stage;
        s.kind = v.kind;
        s.visitIndex = v.visitIndex;
        s.attachPath = v.attachPath;
        s.scope = v.scope;
        s.scopeInferred = v.scopeInferred;
        m_trace.stages.push_back(std::move(s));
    }
    void take(const BoundStep& step, const ConsumerVisit& c) {
        ConsumerTrace ct;
        ct.consumer = step.consumer;
        ct.consumerAttachPath = c.consumerAttachPath;
        stage().consumers.push_back(std::move(ct));
    }
    void take(const BoundStep&, const LeafSetEntry& e) { consumer().leafSets.push_back(e); }
    void take(const BoundStep&, const RelaxEntry& e) { consumer().relaxSet.push_back(e); }
    void take(const BoundStep&, const RootSetEntry& e) { consumer().rootSets.push_back(e); }
    void take(const BoundStep&, const RequestEntry& e) { consumer().requests.push_back(e); }
    void take(const BoundStep&, const RootBound& b) { stage().rootBounds.push_back(b); }
    void take(const BoundStep&, const TightAxis& t) {
        for (RootBound& b : stage().rootBounds) {
            if (b.outputAxis != t.axis)
                continue;
            if (t.loop)
                b.range = *t.loop;
            b.source += "; tight: " + t.note;
            if (t.realize.defined())
                b.source += ", realize extent " + toString(t.realize);
        }
    }

    StageTrace& stage() {
        BS_CHECK(!m_trace.stages.empty()) << "a step before any stage visit";
        return m_trace.stages.back();
    }
    ConsumerTrace& consumer() {
        BS_CHECK(!stage().consumers.empty()) << "a phase-1 step before any consumer";
        return stage().consumers.back();
    }

    BoundTrace& m_trace;
};

json rangeJson(const Range& r) {
    if (!r.defined())
        return nullptr;
    return json{{"min", toString(r.min)}, {"extent", toString(r.extent)}};
}

json valueJson(const StepValue& v) {
    json out{{"name", v.name}};
    if (v.set)
        out["set"] = v.set->toString();
    if (v.range)
        out["range"] = rangeJson(*v.range);
    if (v.expr.defined())
        out["expr"] = toString(v.expr);
    return out;
}

json valuesJson(const std::vector<StepValue>& values) {
    json out = json::array();
    for (const StepValue& v : values)
        out.push_back(valueJson(v));
    return out;
}

json stepJson(const BoundStep& s) {
    json ivs = json::array();
    for (const IterVar& iv : s.iterVars)
        ivs.push_back(iv->var.name());
    json from = json::array();
    for (int id : s.from)
        from.push_back(id);
    return json{{"id", s.id},
                {"phase", stepPhaseName(s.phase)},
                {"rule", s.rule},
                {"stage", s.stage.defined() ? json(s.stage->name) : json(nullptr)},
                {"consumer", s.consumer.defined() ? json(s.consumer->name) : json(nullptr)},
                {"relation", s.relation.defined() ? json(toString(s.relation)) : json(nullptr)},
                {"itervars", ivs},
                {"tensor", s.tensor.defined() ? json(s.tensor.name()) : json(nullptr)},
                {"axis", s.axis},
                {"inputs", valuesJson(s.inputs)},
                {"outputs", valuesJson(s.outputs)},
                {"text", s.text},
                {"line", s.location.line},
                {"from", from}};
}

} // namespace

BoundTrace traceOf(const BoundSteps& steps, BoundRules rules, const Schedule* schedule,
                   const IterVarMap<Range>* bounds, size_t first, size_t last) {
    BoundTrace trace;
    trace.rules = rules;
    TraceBuilder builder(trace);
    for (size_t i = first; i < std::min(last, steps.size()); ++i)
        builder.add(steps.all()[i]);
    if (!schedule || !bounds)
        return trace;
    for (StageTrace& s : trace.stages) {
        Stage stage = schedule->stageOf(s.op);
        for (const IterVar& iv : stage->allIterVars) {
            auto it = bounds->find(iv);
            if (it != bounds->end())
                s.ranges.emplace_back(iv, it->second);
        }
    }
    return trace;
}

std::string stepsToJson(const BoundSteps& steps, BoundRules rules, int indent) {
    json list = json::array();
    for (const BoundStep& s : steps.all())
        list.push_back(stepJson(s));
    return json{{"rules", boundRulesName(rules)}, {"steps", list}}.dump(indent);
}

SourceLocation stepLine(const Stage& stage) {
    if (stage->attachLocation.known())
        return stage->attachLocation;
    if (stage->originOp->location.known())
        return stage->originOp->location;
    return stage->location;
}

std::string toString(const StepValue& value) {
    std::string text = value.name + " = ";
    if (value.set)
        return text + value.set->toString();
    if (value.range)
        return text + toString(*value.range);
    if (value.expr.defined())
        return text + toString(value.expr);
    return value.name;
}

std::string stepText(const BoundStep& step) {
    std::string text = "#" + std::to_string(step.id) + " " + stepPhaseName(step.phase);
    if (!step.rule.empty())
        text += " (" + step.rule + ")";
    if (step.stage.defined())
        text += " [" + step.stage->name + "]";
    if (step.location.known())
        text += " line " + std::to_string(step.location.line);
    return text + "\n    " + step.text + "\n";
}

} // namespace bs
