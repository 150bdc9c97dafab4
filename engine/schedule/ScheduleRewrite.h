/// \file
/// Helpers shared by the schedule's dataflow rewrites (cache_read, cache_write, rfactor,
/// normalize): TVM's ReplaceDataFlow, stage insertion and keeping `outputs` current.
/// Internal to engine/schedule.
#pragma once

#include "schedule/Schedule.h"

namespace bs {

/// TVM's ReplaceDataFlow: every stage (in order) reads the images of `vmap` instead; the ops
/// this rewrites are added to `vmap` (keyed by the original tensor, through `rvmap`), so later
/// stages follow the chain.
void replaceDataFlow(const std::vector<Stage>& stages, TensorMap* vmap, TensorMap* rvmap);

/// Gives every stage of `stages` a name of its own (create_schedule's rule, Schedule.h): where
/// stages share a name (te.compute's default `compute`, topi's `T_add`), the first keeps it and
/// the others become `compute_1`, `compute_2`, ..., skipping names any stage already has.
void nameStagesApart(const std::vector<Stage>& stages);

/// Fixes the names of every operation `sch`'s stages hold (OperationNode::nameFixed), writing
/// only those not fixed yet. A rewrite ends with it (NamesFixedAfter), so that every operation a
/// schedule holds keeps its name in later schedules, and a schedule made of them (on any
/// thread) writes nothing to them.
void fixNames(const ScheduleNode& sch);
/// Calls fixNames(sch) when the rewrite returns or throws.
class NamesFixedAfter {
public:
    explicit NamesFixedAfter(const ScheduleNode& sch) : m_sch(sch) {}
    ~NamesFixedAfter() { fixNames(m_sch); }
    NamesFixedAfter(const NamesFixedAfter&) = delete;
    NamesFixedAfter& operator=(const NamesFixedAfter&) = delete;

private:
    const ScheduleNode& m_sch;
};

/// Appends a copy of `sch` and `primitive` to its record (ScheduleNode::scheduleRecord).
void appendRecord(ScheduleNode& sch, const std::string& primitive);

/// Records one primitive of `stage` when it returns (TVM's ScheduleContext): while the stage's
/// schedule keeps a record, a copy of the schedule and `name` are appended to it. A primitive
/// that throws records nothing (it changed nothing).
class PrimitiveRecord {
public:
    PrimitiveRecord(const Stage& stage, const char* name);
    ~PrimitiveRecord();
    PrimitiveRecord(const PrimitiveRecord&) = delete;
    PrimitiveRecord& operator=(const PrimitiveRecord&) = delete;
    /// Whether the stage's schedule keeps a record.
    bool active() const { return m_log && m_log->owner; }

private:
    std::shared_ptr<ScheduleRecordLog> m_log;
    const char* m_name;
    int m_exceptions;
};

/// The compute_at of `stage` that TVM accepts at the call and refuses when it lowers (as
/// TVM's tests expect): an output attached anywhere, or an attachment that closes a cycle.
/// Throws the UserError at the compute_at's line; does nothing for a sound attachment.
void checkAttachment(const Stage& stage);
/// checkAttachment() of every stage and group of `sch`, in time linear in their number: the
/// attachments are walked once for a cycle, and each stage checked alone only when there is
/// one (or when groups make the walk's answer incomplete).
void checkAttachments(const std::vector<Stage>& stages, const std::vector<Stage>& groups);

/// The position of `stage` in the schedule.
size_t stagePosition(const ScheduleNode& sch, const Stage& stage);

/// Inserts a new stage for `op` at `position`, registered in the stage map, with `scope`, in
/// the group of `sibling` (the stage it caches or factors, as TVM's rewrites do).
Stage insertStage(ScheduleNode& sch, size_t position, const Operation& op, const std::string& scope,
                  const Stage& sibling);

/// The stages of the outputs, to restore `outputs` after a rewrite changed their operations.
std::vector<Stage> outputStages(const Schedule& sch);
void setOutputs(ScheduleNode& sch, const std::vector<Stage>& stages);

} // namespace bs
