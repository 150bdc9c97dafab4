/// \file
/// Shared by the parts of the allocation report (private to engine/analysis): one InferBound run
/// per rule set, loop nests as lists of loops to count iterations and maximise sizes over, and
/// the cause finder.
#pragma once

#include "analysis/AllocReport.h"
#include "analysis/ScheduleFixes.h"
#include "lower/Lower.h"
#include "runtime/Buffer.h"
#include "runtime/Interpreter.h"
#include "schedule/InferBound.h"
#include "schedule/InferBoundTight.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

namespace bs::alloc {

/// A count as the report prints it: the number, or `?` when unknown.
inline std::string countText(std::optional<int64_t> v) { return v ? std::to_string(*v) : "?"; }

/// One loop: its variable (and the thread variable it is bound to), its min and the extent it
/// really runs, which may name loops outside it.
struct Loop {
    std::vector<Var> vars;
    std::string threadTag; ///< the thread it is bound to, "" for a serial loop
    Expr min;
    Expr extent;
    std::vector<Var> named; ///< the variables `min` and `extent` name
};

/// A loop nest, outermost first, as pointers to loops that outlive it. Its first `plain`
/// loops have constant bounds, so nothing inside can depend on them unless it names their
/// variables; `plainIterations` is the product of their extents (nullopt past int64). A walk
/// that needs none of them multiplies by it instead of visiting each (a nest of attached
/// stages is as deep as the program, and every buffer in it is walked).
struct Nest {
    std::vector<const Loop*> loops;
    size_t plain = 0;
    std::optional<int64_t> plainIterations = 1;

    /// Appends `loop` innermost.
    void push(const Loop* loop);
};

/// InferBound under one rule set, on its own normalized copy of the schedule.
struct RuleRun {
    BoundRules rules;
    Schedule normalized;
    InferBoundResult result;
    IterVarMap<IterVar> bindMap;
    /// The compact rules only: the buffers compact storage changed (their realize regions).
    std::vector<Compaction> compactions;
    /// attachLoops' answers, by attach path (AttachPath::id): each path's own loops, and the
    /// whole nest as pointers into them and into its outer path's.
    struct PathLoops {
        std::vector<Loop> own;
        Nest nest;
    };
    mutable std::unordered_map<const void*, std::unique_ptr<const PathLoops>> loopsAround;

    /// The stage created for `origin` in this copy (undefined when there is none).
    Stage stageOf(const Operation& origin) const;
    /// Its trace; nullptr when there is none.
    const StageTrace* traceOf(const Operation& origin) const;
};

/// The loops around a stage's realize (its attach path), outermost first; kept by `run`.
const Nest& attachLoops(const RuleRun& run, const StageTrace& trace);
/// The stage's own loops (its leaves), outermost first.
std::vector<Loop> ownLoops(const RuleRun& run, const Stage& stage);
/// `outer` then `inner`, where a loop of `inner` bound to the thread (tag) a loop of `outer` is
/// bound to is that same loop: one thread, one value (a GPU launches each thread once).
class JoinedNest {
public:
    JoinedNest(const Nest& outer, const std::vector<Loop>& inner);
    JoinedNest(const JoinedNest&) = delete; // its nest points into its own loops
    JoinedNest& operator=(const JoinedNest&) = delete;
    const Nest& loops() const { return m_nest; }

private:
    std::vector<Loop> m_own; ///< `inner`'s loops and the outer loops they join
    Nest m_nest;
};
/// How many times the innermost body of `loops` runs; nullopt when an extent is symbolic or
/// there are too many iterations to enumerate.
std::optional<int64_t> countIterations(const Nest& loops);
/// The largest value of `e` over the iterations of `loops`; `varies` tells whether it takes
/// several values. Nullopt when symbolic or too many iterations.
std::optional<int64_t> maxOver(const Nest& loops, const Expr& e, bool* varies);

/// InferBound under `rules` on a normalized copy of `sch`.
RuleRun runRules(const Schedule& sch, BoundRules rules);
/// Each buffer's allocation under the compact rules, appended to its allocations (after
/// tight's; `origins` are the buffers' stages, in the report's order). Where no read of any
/// buffer is strided or falls in disjoint boxes (`needs`), compact storage changes nothing and
/// the allocations are tight's; otherwise the program is lowered under compact to know which.
void addCompactAllocations(const Schedule& sch, const AllocReportOptions& options,
                           const std::vector<Operation>& origins,
                           const std::vector<std::optional<StageNeed>>& needs, AllocReport& report);
/// The buffer of `stage` under `run`: its region, size, largest allocation and iterations.
RuleAllocation allocationUnder(const RuleRun& run, const Stage& stage, const StageTrace& trace,
                               int valueIndex = 0);

/// What the cause finder knows of one buffer.
struct BufferFacts {
    Operation origin;
    const BufferReport* report;
    std::vector<const RuleRun*> runs; ///< tvm-0.5, tvm, tight (when available)
    const std::optional<StageNeed>* need;
    const Schedule* schedule; ///< the script's schedule, for trying fixes on copies
    const AllocReportOptions* options;
};

/// A schedule change to try for a buffer (AllocReportFixes.cpp): `apply` edits a copy of the
/// schedule (stages found by name), `text` says it as the script would.
struct FixTrial {
    std::string text;
    std::function<void(const Schedule&)> apply;
};

/// What a fix must do to be proposed.
enum class FixGoal {
    Smaller,              ///< allocate fewer elements (or remove the buffer)
    SmallerOrComputeLess, ///< that, or compute fewer elements
    Lowers,               ///< just lower (a fix of what the code does, not of its size)
};

/// What `trial` gives for the buffer of `facts` under the rules its waste is measured against:
/// `s[B].compute_inline(): B disappears`, `...: B allocates 16 instead of 128`, or an empty
/// string when the change fails or does not reach `goal`.
std::string tryFix(const BufferFacts& facts, const FixTrial& trial,
                   FixGoal goal = FixGoal::Smaller);

/// The stage of `sch` made from the script's operation `origin` (its own op before
/// normalization), never found by name: two stages may share one (`te.compute`'s default,
/// "compute"). Undefined when there is none.
Stage stageOfOrigin(const Schedule& sch, const Operation& origin);
/// The same for a fix to edit: throws UserError when there is none (the fix is not proposed).
Stage stageToFix(const Schedule& sch, const Operation& origin);

/// Replaces `factor` (or `nparts`) of the split `split` of the stage made from `origin` in
/// `sch` (a copy of the script's schedule) by `value`.
void resplit(const Schedule& sch, const Operation& origin, const SplitNode* split, int64_t value);

std::vector<AllocCause> findCauses(const BufferFacts& facts);

/// Sets `a`'s virtual threads and copies for a realize of `region` inside the loops `around`
/// (AllocReportThreads.cpp).
void addVirtualThreadCopies(const RuleRun& run, const Region& region, const Nest& around,
                            RuleAllocation* a);
/// The note for a buffer with one copy per virtual thread (not waste).
void virtualThreadCause(const BufferFacts& facts, std::vector<AllocCause>& out);

/// `T[2, 3]`: the element at row-major offset `cell` of a grid of `shape` whose first element
/// is `mins` (empty: all 0), as the heatmap and the loop nest name cells.
std::string elementName(const std::string& buffer, const std::vector<int64_t>& shape,
                        const std::vector<int64_t>& mins, int64_t cell);

/// The realized region's extents of the stage made from `origin` in `lowered` (its root
/// IterVars' ranges, or the tight rules' realize bounds) when they are constants.
std::optional<std::vector<int64_t>> realizedExtents(const LowerResult& lowered,
                                                    const Operation& origin);
/// Whether the tensor `arg` is output `valueIndex` of `stage` (its operation now, or the
/// script's before normalization replaced it, as rfactor's `B.repl` replaces `B`).
bool isOutputOf(const Tensor& arg, const Stage& stage, int valueIndex);
/// The buffer Var of output `valueIndex` of the stage made from `origin` in `lowered` (an
/// argument's or an allocation's); undefined when it has none (inlined, or made by a pass
/// after flattening).
Var bufferVarOf(const LowerResult& lowered, const Operation& origin, int valueIndex);
/// The interpreter's trace (of a run of `lowered`) of output `valueIndex` of the stage made from
/// `origin`: found by its buffer Var, an argument's or an allocation's, never by name (two
/// stages may share one, and rfactor's output stage computes `B.repl` into the argument `B`).
const BufferTrace* traceOfBuffer(const RunResult& run, const LowerResult& lowered,
                                 const Operation& origin, int valueIndex);
/// realizedExtents() when their product is the allocation's `size`; else the flat {size} (a
/// storage_align or double buffer pads the allocation).
std::vector<int64_t> realizedShape(const LowerResult& lowered, const Operation& origin,
                                   int64_t size);

/// Pseudo-random buffers for `args` (seeded by position, the same every run); nullopt when a
/// shape is symbolic or a type unsupported.
std::optional<std::vector<Buffer>> argumentBuffers(const std::vector<Tensor>& args);

/// The stores `program` makes, from its loops' and threads' constant extents; nullopt when an
/// extent is not constant. With `upperBounds`, the most it can make: an extent that is not
/// constant counts as its constant upper bound (nullopt when it has none).
std::optional<double> countStores(const Stmt& program, bool upperBounds = false);

/// The elements of a buffer of `shape` (a negative extent holds none), as a double: the
/// limits compare counts that can pass int64's range.
double elementCount(const std::vector<int64_t>& shape);

/// The elements of `args` in all; nullopt when a shape is symbolic.
std::optional<double> argumentElements(const std::vector<Tensor>& args);

/// `134.2 million`, `812345`: a large count as a message says it.
std::string roughCount(double n);

/// Runs the program in the reference interpreter (within the options' budget) and fills each
/// buffer's touched counts. Past the budget, a buffer whose counts the access sets give exactly
/// (analyzeStageTouched on `reference`, the tvm run; `origins` holds each buffer's stage) takes
/// those, and only the others are measured on a sample of the run.
void addTouchedCounts(const Schedule& sch, const AllocReportOptions& options,
                      const RuleRun& reference, const std::vector<Operation>& origins,
                      AllocReport& report);

} // namespace bs::alloc
