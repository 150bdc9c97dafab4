#include "schedule/Schedule.h"

#include "schedule/Graph.h"
#include "schedule/ScheduleRewrite.h"
#include "support/Check.h"

#include <unordered_set>

namespace bs {

const std::vector<Stage>& Schedule::stages() const {
    return get()->stages;
}

const std::vector<Operation>& Schedule::outputs() const {
    return get()->outputs;
}

Stage Schedule::findStage(const Operation& op) const {
    auto it = get()->stageMap.find(op);
    if (it != get()->stageMap.end())
        return it->second;
    for (const Stage& s : get()->stages)
        if (s->op.same_as(op))
            return s;
    return Stage();
}

Stage Schedule::operator[](const Operation& op) const {
    if (!op.defined())
        throw UserError("schedule lookup of an undefined operation");
    Stage stage = findStage(op);
    if (!stage.defined())
        throw UserError("operation '" + op->name + "' is not part of the schedule");
    return stage;
}

Schedule Schedule::copy() const {
    auto node = makeIntrusive<ScheduleNode>();
    node->outputs = get()->outputs;
    node->location = get()->location;
    std::unordered_map<const StageNode*, Stage> remap;
    for (const Stage& s : get()->stages) {
        Stage fresh(s->op);
        *fresh.mutableNode() = *s.get();
        remap.emplace(s.get(), fresh);
        node->stages.push_back(fresh);
    }
    for (const auto& [op, stage] : get()->stageMap)
        node->stageMap.emplace(op, remap.at(stage.get()));
    for (const Stage& s : node->stages) {
        StageNode* n = s.mutableNode();
        if (n->attachStage.defined()) {
            auto it = remap.find(n->attachStage.get());
            BS_CHECK(it != remap.end())
                << "stage " << s.name() << " is attached outside the schedule";
            n->attachStage = it->second;
        }
    }
    return Schedule(node);
}

Schedule createSchedule(const std::vector<Operation>& outputs) {
    if (outputs.empty())
        throw UserError("create_schedule: no output operation given");
    for (size_t i = 0; i < outputs.size(); ++i)
        if (!outputs[i].defined())
            throw UserError("create_schedule: output " + std::to_string(i) + " is undefined");
    ReadGraph graph = createReadGraph(outputs);
    std::unordered_set<const Node*> outputSet;
    for (const Operation& op : outputs)
        outputSet.insert(op.get());
    auto node = makeIntrusive<ScheduleNode>();
    node->outputs = outputs;
    node->location = currentSourceLocation();
    for (const Operation& op : postDFSOrder(outputs, graph)) {
        Stage stage(op);
        stage.mutableNode()->isOutput = outputSet.count(op.get()) != 0;
        node->stages.push_back(stage);
        node->stageMap.emplace(op, stage);
    }
    return Schedule(node);
}

Schedule createSchedule(const Operation& output) {
    return createSchedule(std::vector<Operation>{output});
}

// ---------------------------------------------------------------------------------------------
// Rewrite helpers (ScheduleRewrite.h)

void replaceDataFlow(const std::vector<Stage>& stages, TensorMap* vmap, TensorMap* rvmap) {
    for (const Stage& s : stages) {
        Operation op = replaceInputs(s->op, *vmap);
        if (op.same_as(s->op))
            continue;
        for (int i = 0; i < op->numOutputs(); ++i) {
            Tensor before = s->op.output(i);
            auto it = rvmap->find(before);
            if (it != rvmap->end()) {
                (*vmap)[it->second] = op.output(i);
            } else {
                (*vmap)[before] = op.output(i);
                (*rvmap)[op.output(i)] = before;
            }
        }
        s.mutableNode()->op = op;
    }
}

size_t stagePosition(const ScheduleNode& sch, const Stage& stage) {
    for (size_t i = 0; i < sch.stages.size(); ++i)
        if (sch.stages[i].same_as(stage))
            return i;
    BS_UNREACHABLE("stage " << stage.name() << " is not in the schedule");
}

Stage insertStage(ScheduleNode& sch, size_t position, const Operation& op,
                  const std::string& scope) {
    BS_CHECK(position <= sch.stages.size()) << "stage position out of range";
    Stage stage(op);
    stage.setScope(scope);
    sch.stages.insert(sch.stages.begin() + long(position), stage);
    sch.stageMap[op] = stage;
    return stage;
}

std::vector<Stage> outputStages(const Schedule& sch) {
    std::vector<Stage> stages;
    for (const Operation& op : sch.outputs())
        stages.push_back(sch[op]);
    return stages;
}

void setOutputs(ScheduleNode& sch, const std::vector<Stage>& stages) {
    for (size_t i = 0; i < stages.size(); ++i)
        sch.outputs[i] = stages[i]->op;
}

} // namespace bs
