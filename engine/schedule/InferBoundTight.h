/// \file
/// The `tight` rule set (DESIGN.md "InferBound, faithful first"; ours, not TVM's):
/// - every realize is the smallest static rectangle its stage needs: for a stage attached inside
///   loops, the maximum over the iterations of those loops of what one iteration reads, found
///   by exact integer reasoning with ISL. Each read of the stage is a quasi-affine map over its
///   consumer's iteration domain, parametric in the loops around the realize; its per-dimension
///   min and max are piecewise quasi-affine functions of those loops. The loops compute that
///   exact per-iteration box; the realize keeps the per-iteration min and the maximum extent.
///   An axis whose reads are not quasi-affine keeps the interval result (recorded as inexact).
/// - the seed's proposal for splits (seed 002, "PassDownDomain"): a split that does not divide
///   its parent and is not bound to a thread runs an inner extent of
///   `min(factor, extent - outer*factor)`, so the last iteration computes only its remainder
///   and no bound check is needed.
/// What no rectangle can fix (disjoint reads, strided reads) is left to the allocation report.
#pragma once

#include "arith/Analyzer.h"
#include "schedule/InferBound.h"
#include "schedule/MessagePassing.h"

#include <functional>
#include <memory>
#include <optional>

namespace bs {

/// True when this build has ISL (libisl-dev), which the tight rules and exact counts need.
bool hasIsl();

/// InferRootBound's phases 1-4 for the stage being refined, run once more with each consumer loop
/// in `loopExtents` at that extent (a split remainder) instead of its range's: the ranges of the
/// stage's data axes that TVM's interval arithmetic gives when it knows the remainders. Nullopt
/// when a remainder names a loop the phases relax (intervals cannot correlate the two).
using RootBoundReplay =
    std::function<std::optional<std::vector<Range>>(const IterVarMap<Expr>& loopExtents)>;

/// The tight rules' steps in one InferBound run. inferBound() runs TVM's phases on every stage
/// (outputs first) and calls refineRootBounds() after InferRootBound and refineLoops() after
/// PassDownDomain.
class TightRules {
public:
    /// Throws UserError "the tight and compact rule sets need ISL, which this build lacks" without
    /// ISL.
    explicit TightRules(const Schedule& sch);
    ~TightRules();
    TightRules(const TightRules&) = delete;
    TightRules& operator=(const TightRules&) = delete;

    /// After InferRootBound of `stage` (its consumers are final in `result`): sets the range of
    /// each data axis to what one iteration of the attach loops needs, exactly, and records the
    /// static realize region in `result.realizeBounds` where it differs; notes it in the trace.
    /// Where a consumer loop runs a split remainder, `replay` gives TVM's form of the ranges
    /// with the remainders known, which is kept where it is exact (the listings read as TVM's).
    void refineRootBounds(const Stage& stage, StageTrace& trace, const RootBoundReplay& replay,
                          InferBoundResult& result);
    /// After PassDownDomain of `stage` in its remainder mode (`loops`): the split remainders
    /// (`result.loopExtents`) and the IterVars that need no bound check
    /// (`result.provenInRange`).
    void refineLoops(const Stage& stage, Analyzer& analyzer, const LoopExtents& loops,
                     InferBoundResult& result);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Exact counts of what one stage's consumers read of it, per iteration of the loops around its
/// realize (the maximum over those iterations), from a finished tight run. Counts are absent
/// when a read is not quasi-affine or there are too many iterations to enumerate.
struct StageNeed {
    /// One read of the stage in one consumer's body.
    struct Access {
        Operation consumer;
        int index = 0;                ///< the n-th distinct read in that consumer
        std::vector<Expr> indices;    ///< the read's index per axis
        std::optional<int64_t> count; ///< elements it reads in one iteration
        std::optional<int64_t> hull;  ///< elements of its bounding box
        /// Its bounding box in one iteration, per axis `lo:hi` (Python's slices) when constant,
        /// else `min..max` where ISL gives single expressions.
        std::string region;
    };
    std::vector<Access> accesses;
    /// Elements read in one iteration (the union of every read), threads relaxed as the
    /// storage scope shares them.
    std::optional<int64_t> needed;
    /// The same with every thread loop a single point: what one thread reads.
    std::optional<int64_t> perThread;
    /// Elements of the bounding box of the union in one iteration.
    std::optional<int64_t> hull;
    /// Elements read over the whole run: the union over every iteration, where what several
    /// iterations read counts once (more computed than this is recomputation).
    std::optional<int64_t> distinct;
    bool exact = false; ///< every read is quasi-affine
    /// A count above is missing because counting it exactly passed ISL's work limit.
    bool gaveUp = false;
};

/// The StageNeed of `op` in `normalized`, from `tight` (inferBound under the tight rules);
/// nullopt for outputs, placeholders, inlined stages, or without ISL.
std::optional<StageNeed> analyzeStageNeed(const Schedule& normalized, const InferBoundResult& tight,
                                          const Operation& op);
/// The results of analyzeStageNeed by the exact text of the ISL model they were counted from
/// (its sets, parameter domain and the variables its parameters stand for), for one caller
/// analysing many stages: stages whose models read the same (a nest of like stages) are counted
/// once (issue 19: a 1,000-stage nest's report counted the same sets 1,000 times).
class StageNeedCache {
public:
    StageNeedCache();
    ~StageNeedCache();
    StageNeedCache(const StageNeedCache&) = delete;
    StageNeedCache& operator=(const StageNeedCache&) = delete;

    /// The distinct models counted so far.
    size_t entries() const;

    struct Impl;
    Impl& impl() { return *m_impl; }

private:
    std::unique_ptr<Impl> m_impl;
};

/// The same with `normalized`'s thread bindings (createBindMap) given, as a caller analysing
/// every stage has them (building them for each stage is linear in the program), and a cache
/// (may be null).
std::optional<StageNeed> analyzeStageNeed(const Schedule& normalized, const InferBoundResult& tight,
                                          const Operation& op, const IterVarMap<IterVar>& bindMap,
                                          StageNeedCache* cache = nullptr);

/// What a stage's buffer really touches, counted exactly from its access sets: its own loop
/// nest's writes (every leaf over its range, the bound checks keeping each root inside its
/// domain) and its consumers' reads, under the rules `result` ran (the allocation report
/// counts this under tvm where the program is too large to run in the interpreter).
struct StageTouched {
    int64_t peak = 0;  ///< the most elements touched in one iteration of the loops around it
    int64_t total = 0; ///< distinct offsets of its allocation (its realize box) over the run
};
/// nullopt where the count is not exact or would take too long: without ISL; for a stage that
/// is not a single-output compute (or is inlined), has a store predicate, double buffering or a
/// loop nest (its own or a consumer's) that is not quasi-affine or is tensorized (a packed
/// call touches the whole strided span it is given); where a loop around it or in it is bound
/// to a thread (whose sharing of the allocation the sets do not model); where a realize extent
/// is not constant; past ISL's budget.
std::optional<StageTouched> analyzeStageTouched(const Schedule& normalized,
                                                const InferBoundResult& result, const Operation& op,
                                                const IterVarMap<IterVar>& bindMap);

} // namespace bs
