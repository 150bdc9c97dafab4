/// \file
/// The allocation report (DESIGN.md, "InferBound, faithful first"): for every realized buffer
/// of a schedule, the elements allocated under each rule set (`tvm-0.5`, `tvm`, `tight`), what
/// one iteration of the loops around it really needs, the elements computed, and the cause of
/// every difference with the schedule change that removes it where one exists:
/// - fuse/split imprecision of the interval rules (tight removes it), TVM 0.6's fuse fallback;
/// - a fused segment that wraps a row (its bounding box is whole rows);
/// - the interval hull of a strided or non-contiguous read (no rectangle can fix it);
/// - the dimension-wise union of disjoint consumer requests (no rectangle can fix it);
/// - relaxation by thread binding or storage scope (threads share the buffer);
/// - a split remainder (computed, not allocated);
/// - iterations that need overlapping regions (a stencil's halo, the attach path's unused
///   loops, a block's copy of a tile) and so compute the same elements again;
/// - one copy per virtual thread of a buffer private to them (not waste: sizes and needs are per
///   thread, the touched counts span every copy).
/// `boundscope alloc FILE.py [--json]` prints it; the app shows it.
#pragma once

#include "schedule/BoundTrace.h"
#include "schedule/Schedule.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bs {

struct Program;

enum class WasteCause {
    FuseFallback,         ///< tvm-0.5: a fused interval widens to the full fused ranges
    IntervalImprecision,  ///< the interval rules over-approximate a fuse or split; tight is exact
    FusedSegmentWrapsRow, ///< a segment of a fused loop spans two rows: its box is whole rows
    StridedRead,          ///< the interval hull of a strided or non-contiguous read
    DisjointRequests,     ///< the dimension-wise union of different consumers' requests
    ThreadRelaxation,     ///< threads share the buffer (thread binding or storage scope)
    SplitRemainder,       ///< a split that does not divide computes past the end
    Recompute,            ///< iterations that need overlapping regions compute them again
    NotQuasiAffine,       ///< a read the tight rules cannot reason about exactly
    VirtualThreadCopies,  ///< one copy per virtual thread the buffer is private to (not waste)
    /// a stage's own loop bound to a thread that does not index its storage (threadIdx in a
    /// local buffer): the thread index vanishes and every thread computes the same elements
    ThreadIndexVanishes,
    /// storage_align pads a dimension's stride: elements between rows no one writes
    StorageAlignPadding,
    /// double_buffer: two halves, the next iteration's filled while this one's is read
    DoubleBuffer,
};
/// `fuse-fallback`, `interval-imprecision`, `fused-segment-wraps-row`, `strided-read`,
/// `disjoint-requests`, `thread-relaxation`, `split-remainder`, `recompute`,
/// `not-quasi-affine`, `vthread-copies`, `thread-index-vanishes`, `storage-align`,
/// `double-buffer`.
const char* wasteCauseName(WasteCause cause);

/// One cause of a difference between allocated, needed and computed elements.
struct AllocCause {
    WasteCause kind;
    std::string summary; ///< e.g. "the fused segment wraps a row"
    std::string detail;  ///< the stages, loops and numbers involved
    /// A schedule change that reduces it, tried on a copy of the schedule, with what it gives
    /// (`s[B].compute_inline(): B disappears`); "" where no change was found that helps.
    std::string hint;
    std::vector<BoundRules> rules; ///< the rule sets whose numbers it affects
};

/// A buffer under one rule set.
struct RuleAllocation {
    BoundRules rules = BoundRules::Tvm;
    std::string region; ///< the realize region, `[min, extent]` per axis
    std::string size;   ///< the product of its extents, as an expression
    /// With storage_align: the padded size (`size` is then the padded strides' product) and
    /// the elements the padding adds, per copy (nullopt: symbolic).
    bool padded = false;
    std::optional<int64_t> padding;
    std::optional<int64_t> allocated; ///< elements, maximised over the attach iterations
    bool varies = false;              ///< the size changes from one attach iteration to the next
    /// Elements computed: iterations of its loop nest over the whole run (under tvm-0.5 and
    /// tvm, iterations a bound check skips included).
    std::optional<int64_t> computed;
    /// The virtual threads (`vthread`, `cthread`) the buffer is private to: its region holds
    /// their variables and they run inside its realize, so lowering gives each its own copy of
    /// the region (`allocate B[copies * size]`). Their names, and the number of copies (1: none;
    /// nullopt: an extent is symbolic). `allocated` is the size of one copy.
    std::vector<std::string> virtualThreads;
    std::optional<int64_t> copies = 1;
    /// 2 for a double buffer (double_buffer() of a stage allocated inside a loop), else 1.
    int halves = 1;

    /// The elements lowering allocates: `allocated` times `copies` times `halves`.
    std::optional<int64_t> total() const;
    /// `x3` after a per-thread count when there are 3 copies (`x?` when unknown); "" for one.
    std::string copiesSuffix() const;
    /// The allocation as a table shows it: the element count (`*` when it varies by
    /// iteration), or the size expression when it is symbolic (`(f*8)`), then copiesSuffix.
    std::string text() const;
};

struct BufferReport {
    /// The buffer's name as lowering allocates it (`T`, or `T.v0`, `T.v1` for the outputs of a
    /// multi-output stage) and the stage that computes it.
    std::string name;
    std::string stage;
    int valueIndex = 0;
    std::string scope; ///< given, or inferred from the attach path
    bool scopeInferred = false;
    bool isOutput = false;
    std::vector<RuleAllocation> allocations; ///< tvm-0.5, tvm, then tight where ISL is built in
    /// What one iteration of the loops around the buffer reads of it (the union of its
    /// consumers' reads, threads shared as its scope shares them); the maximum over iterations.
    /// Per virtual thread where the buffer has one copy per virtual thread.
    std::optional<int64_t> needed;
    /// The same for one thread (every thread loop a single point).
    std::optional<int64_t> perThread;
    /// What its consumers read over the whole run, each element once (an output: its shape).
    std::optional<int64_t> distinct;
    /// A count above (needed, per thread, over the run) is unknown because counting it exactly
    /// took ISL past its work limit, not because it is symbolic or not quasi-affine.
    bool countGivenUp = false;
    /// Really touched elements, from the reference interpreter (tvm rules): the most distinct
    /// elements touched in one entry of the allocation (one iteration of the loops around it),
    /// and the distinct offsets of the allocation touched over the whole run (every virtual
    /// thread's copy: compare with RuleAllocation::total).
    std::optional<int64_t> touchedPeak;
    std::optional<int64_t> touchedTotal;
    /// The two above come from a sample of the run (AllocReport::touchedSampleFactor): the
    /// entries of the allocation that ran, each whole.
    bool touchedSampled = false;
    /// The two above were counted exactly from the access sets (the buffer's writes and its
    /// consumers' reads, tvm rules), not run: the program computes more than the interpreter's
    /// budget.
    bool touchedCounted = false;
    /// The stores the interpreter executed on it (tvm rules): the elements really computed,
    /// iterations a bound check skips excluded (a reduction counts its init and each update).
    std::optional<int64_t> computedRun;
    std::vector<AllocCause> causes;
    /// The rule set whose allocation the waste is measured against (the one selected).
    BoundRules wasteRules = BoundRules::Tvm;

    const RuleAllocation* allocation(BoundRules rules) const;
    /// Percentage of the `wasteRules` allocation not needed (both per virtual thread where it
    /// has copies); nullopt when either is unknown.
    std::optional<double> wastePercent() const;
    /// Its causes' names, each once (a buffer may have several of a kind), in order, joined by
    /// ", "; "" when it has none.
    std::string causeNames() const;
};

struct AllocReport {
    std::vector<BufferReport> buffers;       ///< in schedule order, producers first
    bool tightAvailable = false;             ///< false in builds without ISL
    BoundRules wasteRules = BoundRules::Tvm; ///< what waste % is measured against
    /// Past twice AllocReportOptions::interpreterBudget, the touched counts come from a run of
    /// about 1 in this many of the program's iterations (its outer loops thinned; the elements
    /// its loop nests compute over the stores the sample makes); 0 when the whole program ran,
    /// or did not run.
    double touchedSampleFactor = 0;
    /// Why the interpreter run for the touched counts stopped (`out-of-bounds read of B.v1[256]`:
    /// the tvm rules under-allocate), or "" when it ran, or was not tried.
    std::string touchedFailure;

    const BufferReport* find(const std::string& name) const;
    /// An aligned table (buffer, scope, tvm-0.5, tvm, tight, needed, touched, computed, waste %,
    /// causes) with a legend, then each buffer's numbers in full and its causes with hints.
    std::string toText() const;
    std::string toJson(int indent = 2) const;
};

struct AllocReportOptions {
    /// The lowered function's arguments for the interpreter run; empty: the schedule's
    /// placeholders, then its outputs (analysis/Program.h).
    std::vector<Tensor> args;
    /// The touched counts come from running the program (lowered under the tvm rules) in the
    /// reference interpreter on pseudo-random inputs, when every shape is constant (0: never).
    /// Past twice this many elements computed by the buffers' loop nests in all, the touched
    /// counts are counted exactly from the access sets where they can be (BufferReport::
    /// touchedCounted); for the other buffers the outer loops run a sample of their iterations,
    /// and only buffers allocated inside them are measured; a program whose sample would still
    /// make more than twice this many stores is not run.
    int64_t interpreterBudget = 4000000;
    /// The interpreter holds every element of the program's arguments, even for a sample: past
    /// this many in all (256 MB of float32) it does not run, and the buffers the access sets
    /// cannot count have no touched counts. 0: no limit.
    int64_t maxArgumentElements = 64'000'000;
    /// The rules selected: waste is measured against their allocation, and fixes are tried
    /// under them (tight falls back to tvm without ISL).
    BoundRules rules = BoundRules::Tvm;
    /// Writes the hints' code in the script's names (Program::inSourceNames); null: the
    /// engine's (`s[B.local]`).
    std::function<std::string(const std::string&)> inSourceNames;
};

/// The options for the report of `program` under `rules`: its arguments, its hints in its
/// source's names.
AllocReportOptions allocReportOptions(const Program& program, BoundRules rules);

/// The report for `sch` (normalized copies are made for each rule set). Throws UserError for
/// schedules InferBound rejects; a program the interpreter cannot run just has no touched
/// counts.
AllocReport allocReport(const Schedule& sch, const AllocReportOptions& options = {});

} // namespace bs
