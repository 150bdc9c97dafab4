#include "schedule/Schedule.h"

#include "schedule/Graph.h"
#include "schedule/ScheduleRewrite.h"
#include "support/Check.h"

#include <exception>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace bs {

const std::vector<Stage>& Schedule::stages() const { return get()->stages; }

const std::vector<Operation>& Schedule::outputs() const { return get()->outputs; }

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
        fresh.mutableNode()->recordLog.reset(); // a copy keeps no record
        remap.emplace(s.get(), fresh);
        node->stages.push_back(fresh);
    }
    for (const Stage& g : get()->groups) {
        Stage fresh = Stage::makeGroup(g.name());
        *fresh.mutableNode() = *g.get();
        fresh.mutableNode()->recordLog.reset();
        remap.emplace(g.get(), fresh);
        node->groups.push_back(fresh);
    }
    for (const auto& [op, stage] : get()->stageMap)
        node->stageMap.emplace(op, remap.at(stage.get()));
    auto relink = [&](const Stage& s) {
        StageNode* n = s.mutableNode();
        for (Stage* link : {&n->attachStage, &n->group}) {
            if (!link->defined())
                continue;
            auto it = remap.find(link->get());
            BS_CHECK(it != remap.end())
                << "stage " << s.name() << " refers to a stage outside the schedule";
            *link = it->second;
        }
    };
    for (const Stage& s : node->stages)
        relink(s);
    for (const Stage& g : node->groups)
        relink(g);
    return Schedule(node);
}

const std::vector<Stage>& Schedule::groups() const { return get()->groups; }

namespace {

/// The innermost group holding both (undefined when either is at the top), TVM's
/// LeastCommonAncestor.
Stage commonGroup(const Stage& a, const Stage& b) {
    if (!a.defined() || !b.defined())
        return Stage();
    if (a.same_as(b) || a.isInGroup(b))
        return b;
    if (b.isInGroup(a))
        return a;
    for (Stage g = a->group; g.defined(); g = g->group)
        if (b.isInGroup(g))
            return g;
    return Stage();
}

} // namespace

Stage Schedule::createGroup(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                            bool includeInputs, std::vector<Stage>* rooted) const {
    // Tensors of rewritten stages stand for the stages' current operations, as in TVM.
    auto currentOps = [&](const std::vector<Tensor>& tensors, const char* what) {
        std::vector<Operation> ops;
        for (const Tensor& t : tensors) {
            if (!t.defined())
                throw UserError(std::string("create_group: an undefined tensor among the ") + what);
            Stage stage = findStage(t.op);
            if (!stage.defined())
                throw UserError("create_group: tensor '" + t.op->name +
                                "' is not part of the schedule");
            ops.push_back(stage->op);
        }
        return ops;
    };
    std::vector<Operation> ops =
        getSubGraph(currentOps(outputs, "outputs"), currentOps(inputs, "inputs"), includeInputs);
    std::vector<Stage> members;
    for (const Operation& op : ops)
        members.push_back((*this)[op]);

    // The innermost group holding every member, and how many of each group's children are
    // among them.
    Stage parent;
    std::unordered_map<const StageNode*, std::pair<Stage, int>> counted;
    for (size_t i = 0; i < members.size(); ++i) {
        Stage g = members[i]->group;
        parent = i == 0 ? g : commonGroup(parent, g);
        if (g.defined()) {
            counted.try_emplace(g.get(), g, 0);
            ++counted[g.get()].second;
        }
    }
    ScheduleNode* self = mutableNode();
    Stage group = Stage::makeGroup("group" + std::to_string(self->groups.size()));
    StageNode* node = group.mutableNode();
    node->recordLog = self->recordLog;
    // A group all of whose children are members counts as one child of its own group.
    std::vector<Stage> full;
    for (const auto& [ptr, entry] : counted)
        if (!entry.first.same_as(parent) && entry.first->numChildStages == entry.second)
            full.push_back(entry.first);
    while (!full.empty()) {
        Stage g = full.back();
        full.pop_back();
        Stage up = g->group;
        if (!up.defined() || up.same_as(parent))
            continue;
        auto& entry = counted.try_emplace(up.get(), up, 0).first->second;
        if (++entry.second == up->numChildStages)
            full.push_back(up);
    }
    for (const auto& [ptr, entry] : counted) {
        const Stage& g = entry.first;
        if (g.same_as(parent))
            continue;
        if (g->numChildStages != entry.second)
            throw UserError("create_group: the stages cut across " + g.name() + ", which holds " +
                            std::to_string(g->numChildStages) + " stages or groups, " +
                            std::to_string(entry.second) +
                            " of them here: a group must contain whole groups");
    }
    // Accepted: only now does anything change.
    node->group = parent;
    if (parent.defined())
        ++parent.mutableNode()->numChildStages;
    auto adopt = [&](const Stage& s) {
        s.mutableNode()->group = group;
        ++node->numChildStages;
        if (parent.defined())
            --parent.mutableNode()->numChildStages;
    };
    for (const auto& [ptr, entry] : counted)
        if (!entry.first.same_as(parent) && entry.first->group.same_as(parent))
            adopt(entry.first);
    for (const Stage& s : members)
        if (s->group.same_as(parent))
            adopt(s);
    // Members stay inside the group: one attached outside it goes to the group's root.
    for (const Stage& s : members) {
        if (s->attachType != AttachType::Scope)
            continue;
        if (!s->attachStage.isInGroup(group)) {
            StageNode* n = s.mutableNode();
            n->attachType = AttachType::GroupRoot;
            n->attachIVar = IterVar();
            n->attachStage = Stage();
            if (rooted)
                rooted->push_back(s);
        }
    }
    self->groups.push_back(group);
    return group;
}

namespace {

/// Renames `op` (a stage's operation) to `name`. An operation's name is otherwise fixed when it
/// is made; only the schedule renames one, so that its stages have names of their own.
void renameOperation(const Operation& op, std::string name) {
    const_cast<OperationNode*>(op.get())->name = std::move(name);
}

} // namespace

void nameStagesApart(const std::vector<Stage>& stages) {
    // Of the stages of one name, the first whose name is fixed (an earlier schedule holds it)
    // keeps the name, else the first; the others are renamed, unless their names are fixed too.
    // Every name any stage has, or is given, is a key: the renamed skip them all.
    std::unordered_map<std::string, const OperationNode*> keeper;
    for (const Stage& stage : stages) {
        const OperationNode* op = stage->op.get();
        auto [it, first] = keeper.try_emplace(op->name, op);
        if (!first && op->nameFixed && !it->second->nameFixed)
            it->second = op;
    }
    std::unordered_map<std::string, int> next; // per name, the suffix to try next
    for (const Stage& stage : stages) {
        const Operation& op = stage->op;
        if (op->nameFixed || keeper.at(op->name) == op.get())
            continue;
        // `base_1`, `base_2`, ...: the first no stage has (TVM's printers' suffixes).
        const std::string base = op->name;
        int& k = next.try_emplace(base, 1).first->second;
        std::string own = base + "_" + std::to_string(k++);
        while (keeper.count(own))
            own = base + "_" + std::to_string(k++);
        keeper.emplace(own, op.get());
        renameOperation(op, std::move(own));
    }
}

void fixNames(const ScheduleNode& sch) {
    // Written only when it changes: a schedule made on a worker thread of operations an
    // analysis shows (the unscheduled reference of `run --check`) writes nothing.
    auto fix = [](const Operation& op) {
        if (op.defined() && !op->nameFixed)
            const_cast<OperationNode*>(op.get())->nameFixed = true;
    };
    for (const Stage& stage : sch.stages) {
        fix(stage->op);
        fix(stage->originOp);
    }
}

Schedule createSchedule(const std::vector<Operation>& outputs, bool keepRecord) {
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
    if (keepRecord) {
        node->keepScheduleRecord = true;
        node->recordLog = std::make_shared<ScheduleRecordLog>();
        node->recordLog->owner = node.get();
    }
    for (const Operation& op : postDFSOrder(outputs, graph)) {
        Stage stage(op);
        stage.mutableNode()->isOutput = outputSet.count(op.get()) != 0;
        stage.mutableNode()->recordLog = node->recordLog;
        node->stages.push_back(stage);
        node->stageMap.emplace(op, stage);
    }
    nameStagesApart(node->stages);
    fixNames(*node);
    Schedule sch(node);
    // A scan's body (its updates and the stages between them and the states or inputs, TVM's
    // ScanGetBody) is a group computed inside the scan's loop; the updates are attached there
    // themselves. Inner scans come first in post order, so their groups nest inside.
    for (const Stage& stage : std::vector<Stage>(node->stages)) {
        const auto* scan = stage->op.as<ScanOpNode>();
        if (!scan)
            continue;
        std::vector<Tensor> bounds = scan->statePlaceholder;
        bounds.insert(bounds.end(), scan->inputs.begin(), scan->inputs.end());
        Stage body = sch.createGroup(scan->update, bounds, /*includeInputs=*/false);
        body.mutableNode()->groupName = scan->name + ".body";
        body.mutableNode()->attachType = AttachType::ScanUpdate;
        body.mutableNode()->attachStage = stage;
        for (const Tensor& t : scan->update) {
            StageNode* update = sch[t.op].mutableNode();
            if (update->attachType == AttachType::ScanUpdate)
                throw UserError("scan '" + scan->name + "': update '" + t.name() +
                                "' is already the update of another scan");
            update->attachType = AttachType::ScanUpdate;
            update->attachStage = stage;
        }
    }
    if (keepRecord)
        appendRecord(*node, "vanilla");
    return sch;
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

PrimitiveRecord::PrimitiveRecord(const Stage& stage, const char* name)
    : m_log(stage->recordLog), m_name(name), m_exceptions(std::uncaught_exceptions()) {}

void appendRecord(ScheduleNode& sch, const std::string& primitive) {
    sch.scheduleRecord.push_back(Schedule(IntrusivePtr<ScheduleNode>(&sch)).copy());
    sch.primitiveRecord.push_back(primitive);
}

PrimitiveRecord::~PrimitiveRecord() {
    if (active() && std::uncaught_exceptions() <= m_exceptions)
        appendRecord(*m_log->owner, m_name);
}

size_t stagePosition(const ScheduleNode& sch, const Stage& stage) {
    for (size_t i = 0; i < sch.stages.size(); ++i)
        if (sch.stages[i].same_as(stage))
            return i;
    BS_UNREACHABLE("stage " << stage.name() << " is not in the schedule");
}

Stage insertStage(ScheduleNode& sch, size_t position, const Operation& op, const std::string& scope,
                  const Stage& sibling) {
    BS_CHECK(position <= sch.stages.size()) << "stage position out of range";
    Stage stage(op);
    stage.setScope(scope);
    stage.mutableNode()->recordLog = sch.recordLog;
    if (Stage group = sibling->group; group.defined()) {
        stage.mutableNode()->group = group;
        ++group.mutableNode()->numChildStages;
    }
    sch.stages.insert(sch.stages.begin() + long(position), stage);
    sch.stageMap[op] = stage;
    // The rewrite made `op`; it gets a name of its own (a second cache_write of one stage).
    nameStagesApart(sch.stages);
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
