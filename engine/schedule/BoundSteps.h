/// \file
/// The bound inference of one program as ordered steps, from normalize to the allocations
/// (issue 13, DESIGN.md "InferBound, faithful first"): each inline and rebase of normalize; for
/// each stage in InferBound's visit order its visit (kind, attach path, storage scope), and per
/// consumer the phase-1 leaf sets and relax set, PassUpDomain through each relation, the root
/// domains and the phase-3 request per tensor axis; the phase-4 union; PassDownDomain per
/// relation and the thread extents; the tight rules' refinements; then ScheduleOps' realize
/// regions and guards and storage flattening's allocations.
///
/// Steps are the one record of the pass: the BoundTrace (the inspector's per-stage tables,
/// `boundscope trace --json`) is a view built from them (traceOf), and every loop extent,
/// thread extent, realize region, guard and allocate size of the lowered IR carries the id of
/// the step that produced it (ir/Stmt.h, StmtNode::stepId).
///
/// Each step says what it did in one or two sentences in the seed's terms. Ids are positions in
/// the list: stable for one program and rule set.
#pragma once

#include "schedule/BoundTrace.h"
#include "schedule/MessagePassing.h"

#include <map>
#include <variant>

namespace bs {

enum class StepPhase : uint8_t {
    Normalize,  ///< normalize(): a stage inlined, a root loop rebased
    Visit,      ///< InferBound visits a stage: its kind, attach path and storage scope
    Consumer,   ///< InferRootBound turns to one consumer of the stage
    LeafSet,    ///< phase 1: the IntSet of one consumer leaf (which of the three cases, why)
    Relax,      ///< phase 1: a consumer attach-path loop joins the relax set
    PassUp,     ///< phase 2: PassUpDomain through one relation of the consumer
    RootSet,    ///< phase 2: a consumer root's domain (covered, then relaxed)
    Request,    ///< phase 3: what the consumer requests of one tensor axis
    Union,      ///< phase 4: a root's range (the union of the requests, or its dom)
    PassDown,   ///< PassDownDomain through one relation, or a thread taking a leaf's range
    Tight,      ///< the tight rules refine a range (exact box, split remainder)
    Realize,    ///< ScheduleOps realizes a stage over its root ranges
    BoundCheck, ///< ScheduleOps guards a stage's body with a likely() condition
    Tensorize,  ///< ScheduleOps binds a tensor intrinsic's buffer to the region its loops cover
    Compact,    ///< compact storage stores a lattice or disjoint boxes of a buffer (or keeps it)
    Allocate,   ///< storage flattening allocates a realized buffer
};
/// `normalize`, `visit`, `consumer`, `leaf-set`, `relax`, `pass-up`, `root-set`, `request`,
/// `union`, `pass-down`, `tight`, `realize`, `bound-check`, `tensorize`, `compact`, `allocate`.
const char* stepPhaseName(StepPhase phase);

/// A value a step reads or writes: the set or range of an IterVar, a tensor axis, an expression.
struct StepValue {
    std::string name; ///< `i.j.fused`, `B[axis 0]`, `predicate`
    IterVar iv;       ///< when the value belongs to an IterVar
    std::optional<IntSet> set;
    std::optional<Range> range;
    Expr expr;
};

/// What InferBound found on visiting a stage (the trace's stage header).
struct StageVisit {
    StageTrace::Kind kind = StageTrace::Kind::Computed;
    int visitIndex = 0;
    AttachPath attachPath; ///< innermost first
    std::string scope;
    bool scopeInferred = false;
};

/// The consumer InferRootBound turns to, with the loops around it.
struct ConsumerVisit {
    AttachPath consumerAttachPath;
};

/// The tight rules' choice for one data axis of a stage.
struct TightAxis {
    int axis = 0;
    std::optional<Range> loop; ///< what each iteration computes; none when kept
    Expr realize;              ///< the static realize extent, where it differs
    std::string note;          ///< `the exact per-iteration need`, `kept (...)`
};

/// The structured part of a step, as the trace's tables show it.
using StepDetail = std::variant<std::monostate, StageVisit, ConsumerVisit, LeafSetEntry, RelaxEntry,
                                RootSetEntry, RequestEntry, RootBound, TightAxis>;

struct BoundStep {
    int id = -1;
    StepPhase phase = StepPhase::Visit;
    std::string rule;         ///< a stable tag within the phase (docs/STEPS.md)
    Operation stage;          ///< the stage whose bounds the step belongs to
    Operation consumer;       ///< phases 1-3: the consumer whose request it is
    IterVarRelation relation; ///< pass-up / pass-down / normalize rebase
    std::vector<IterVar> iterVars;
    Tensor tensor; ///< request, realize, allocate
    int axis = -1; ///< request, union: the tensor axis
    std::vector<StepValue> inputs;
    std::vector<StepValue> outputs;
    std::string text;        ///< one or two sentences in the seed's terms
    SourceLocation location; ///< the script line of the relation, primitive or stage
    std::vector<int> from;   ///< the steps whose results this one reads
    StepDetail detail;
};

/// The steps of one program, and which step made each result.
class BoundSteps {
public:
    /// Appends `step`, giving it the next id; returns the id.
    int add(BoundStep step);

    const std::vector<BoundStep>& all() const { return m_steps; }
    size_t size() const { return m_steps.size(); }
    bool empty() const { return m_steps.empty(); }
    const BoundStep& at(int id) const { return m_steps.at(size_t(id)); }

    /// The step that set the final range of `iv` (a root's union, a relation's pass-down, a
    /// thread's binding, a tight refinement); -1 when none did.
    int rangeStep(const IterVar& iv) const;
    void setRangeStep(const IterVar& iv, int step) { m_rangeStep[iv] = step; }
    /// The step that set the extent a leaf's loop really runs (tight split remainders), else
    /// its range step.
    int loopStep(const IterVar& iv) const;
    void setLoopStep(const IterVar& iv, int step) { m_loopStep[iv] = step; }
    /// The realize step of `op`'s output `valueIndex` (under the compact rules, the compaction's
    /// where it changed the region); -1 when not realized.
    int realizeStep(const Operation& op, int valueIndex = 0) const;
    void setRealizeStep(const Operation& op, int valueIndex, int step);

    /// The steps in `[first, last)` of phase `phase`.
    std::vector<int> idsOf(StepPhase phase, size_t first = 0, size_t last = SIZE_MAX) const;

private:
    std::vector<BoundStep> m_steps;
    IterVarMap<int> m_rangeStep;
    IterVarMap<int> m_loopStep;
    std::map<std::pair<const Node*, int>, int> m_realizeStep; ///< (op, value index) -> step
};

/// The steps of normalize() (notes section 1), read from the schedule before and after it: each
/// compute_inline stage substituted into its consumers, each root loop rebased.
BoundSteps normalizeSteps(const Schedule& original, const Schedule& normalized);

/// The BoundTrace of the InferBound steps in `steps[first, last)`: one StageTrace per visit,
/// its consumers with their phase 1-3 tables, the phase-4 root bounds (with the tight rules'
/// notes), and each stage's final ranges from `bounds` (none when `bounds` is null).
BoundTrace traceOf(const BoundSteps& steps, BoundRules rules, const Schedule* schedule,
                   const IterVarMap<Range>* bounds, size_t first = 0, size_t last = SIZE_MAX);

/// The steps as JSON (docs/STEPS.md): `{"rules": ..., "steps": [{"id", "phase", "rule",
/// "stage", "consumer", "relation", "itervars", "tensor", "axis", "inputs", "outputs", "text",
/// "line", "from"}]}`, expressions in TVM's text form.
std::string stepsToJson(const BoundSteps& steps, BoundRules rules, int indent = 2);

/// The script line a stage's steps point at: its compute_at (compute_inline, compute_root) when
/// it has one, else the line that created its operation.
SourceLocation stepLine(const Stage& stage);

/// `i.j.fused = [(o*8), ((o*8) + 7)]`, `B[axis 0] = range(min=0, ext=8)`.
std::string toString(const StepValue& value);

/// A step as `boundscope steps` prints it: `#6 visit (computed) [B] line 19` and its text on
/// an indented second line.
std::string stepText(const BoundStep& step);

} // namespace bs
