/// \file
/// A Schedule: the stages of a computation in TVM's order (post-DFS from the outputs, producers
/// first, placeholders included), edited in place by the stage primitives (schedule/Stage.h)
/// and by the dataflow rewrites `cache_read`, `cache_write` and `rfactor`, which insert stages
/// where TVM inserts them (cache_read right after the source stage, cache_write and rfactor
/// right before the original stage). `normalize()` returns a normalized copy (notes section 1).
#pragma once

#include "schedule/Stage.h"

namespace bs {

struct ScheduleNode;

/// A mutable, reference-counted handle to a ScheduleNode (copies share the schedule).
class Schedule {
public:
    Schedule() = default;
    explicit Schedule(IntrusivePtr<ScheduleNode> node) : m_ptr(std::move(node)) {}

    bool defined() const { return m_ptr.get() != nullptr; }
    const ScheduleNode* get() const { return m_ptr.get(); }
    const ScheduleNode* operator->() const { return m_ptr.get(); }
    ScheduleNode* mutableNode() const { return m_ptr.get(); }
    bool same_as(const Schedule& other) const { return get() == other.get(); }

    const std::vector<Stage>& stages() const;
    /// The current operation of each output stage, in the order given to createSchedule.
    const std::vector<Operation>& outputs() const;

    /// `s[op]`: the stage created for `op`, or the stage whose current operation is `op` (an
    /// operation a rewrite produced). Throws UserError when `op` is not in the schedule.
    Stage operator[](const Operation& op) const;
    Stage operator[](const Tensor& tensor) const { return (*this)[tensor.op]; }
    /// The same lookup, under the name the analyses use.
    Stage stageOf(const Operation& op) const { return (*this)[op]; }
    /// The stage, or an undefined Stage when `op` is not in the schedule.
    Stage findStage(const Operation& op) const;

    /// `s.cache_read(tensor, scope, readers)`: a new stage `<name>.<scope>` (`<name>.v<i>.<scope>`
    /// for output i of a multi-output op, `.d` added until unique) copying `tensor`, inserted
    /// right after the stage of `tensor`; every reader then reads the copy. Returns the copy.
    /// Throws UserError when a reader does not read `tensor`.
    Tensor cacheRead(const Tensor& tensor, const std::string& scope,
                     const std::vector<Operation>& readers) const;
    /// `s.cache_write(tensor, scope)`: a new stage `<name>.<scope>` computing what `tensor`'s
    /// stage computed, laid out along that stage's current leaves (TVM's relayout), inserted
    /// right before it; the original stage becomes a copy of the cache with its loops reset.
    Tensor cacheWrite(const Tensor& tensor, const std::string& scope) const;
    /// cache_write of every output of one multi-output compute.
    std::vector<Tensor> cacheWrite(const std::vector<Tensor>& tensors,
                                   const std::string& scope) const;
    /// `s.rfactor(tensor, axis, factor_axis=0)`: factors the reduction of `tensor` over leaf
    /// `axis` into a new stage `<name>.rf` (with `axis` as data axis at `factorAxis`),
    /// inserted right before the reduction stage, which then reduces the rf tensor over
    /// `<axis>.v`. Returns the rf tensors (one per output).
    std::vector<Tensor> rfactor(const Tensor& tensor, const IterVar& axis,
                                int factorAxis = 0) const;

    /// `s.create_group(outputs, inputs, include_inputs)`: a new group stage holding the stages
    /// between `inputs` and `outputs` (those from which an input can be reached; the inputs
    /// themselves when `includeInputs`), nested inside the innermost group that holds them all;
    /// whole groups among them become its children. A member attached outside the new group
    /// is moved to the group's root and listed in `rooted` (TVM warns about it). Throws
    /// UserError when the stages cut across an existing group.
    Stage createGroup(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                      bool includeInputs, std::vector<Stage>* rooted = nullptr) const;
    /// The groups, in creation order.
    const std::vector<Stage>& groups() const;

    /// A normalized copy (notes section 1): compute_inline stages substituted into their
    /// consumers (dataflow rewritten, marked InlinedAlready), every non-thread-bound root leaf
    /// of every non-inlined stage rebased, attach points re-targeted through splits and fuses.
    Schedule normalize() const;
    /// A deep copy: new stages with the same operations and IterVars, attachments remapped.
    Schedule copy() const;

private:
    IntrusivePtr<ScheduleNode> m_ptr;
};

/// The link from a schedule's stages to the schedule whose record they add to: the schedule
/// clears `owner` when it goes, so a stage that outlives it records nothing.
struct ScheduleRecordLog {
    ScheduleNode* owner = nullptr;
};

/// The state of a schedule; fields public for the analyses, changed only by the primitives.
struct ScheduleNode : RefCounted {
    ~ScheduleNode() override {
        if (recordLog)
            recordLog->owner = nullptr;
    }

    /// The current operation of each output stage (kept up to date by the rewrites).
    std::vector<Operation> outputs;
    /// Every stage, producers before consumers.
    std::vector<Stage> stages;
    /// The operation each stage was created for -> the stage.
    OpMap<Stage> stageMap;
    /// The group stages (create_group), in creation order.
    std::vector<Stage> groups;
    SourceLocation location; ///< the script line of create_schedule
    /// TVM's schedule record (`te.keep_schedule_record` in a PassContext): a copy of the
    /// schedule as created ("vanilla") and after each primitive a stage ran, with the
    /// primitive's name (`split`, `reorder`, ...; tile records its splits and its reorder).
    bool keepScheduleRecord = false;
    std::vector<Schedule> scheduleRecord;
    std::vector<std::string> primitiveRecord;
    std::shared_ptr<ScheduleRecordLog> recordLog; ///< shared with the stages while recording
};

/// `te.create_schedule(ops)`: one stage per operation reachable from `outputs`, in post-DFS
/// order, the outputs marked `isOutput`; with no outputs, an empty schedule (as TVM). Stages
/// that share a name (te.compute's default `compute`) are renamed apart, as TVM's printers name
/// them: the first keeps it, the others become `compute_1`, `compute_2`, ... (names no stage
/// has), so that every stage, buffer and message names one stage. The rewrites that add stages
/// keep them apart too. With
/// `keepRecord`, the schedule keeps its record (ScheduleNode::scheduleRecord). Throws
/// UserError for an undefined output.
Schedule createSchedule(const std::vector<Operation>& outputs, bool keepRecord = false);
Schedule createSchedule(const Operation& output);

} // namespace bs
