/// \file
/// Random valid schedules for the differential test (issue 4, item 5). A schedule is built from
/// a seed: structural choices first (cache_read of inputs, cache_write or rfactor of the
/// output, compute_inline of elementwise stages), then stage by stage from the output: GPU
/// binding of root stages (blockIdx/threadIdx, in one of two layouts) when the case is a GPU
/// one, random split (factors that need not divide, or nparts), fuse and reorder of unbound
/// leaves, vectorize/unroll/parallel annotations (and vthread bindings in GPU cases), and
/// compute_at of each single-consumer producer at a random leaf of its consumer (shared scope
/// with cooperative thread binding under a block loop, local under a thread loop). Every
/// primitive applied is recorded as a Python line.
#pragma once

#include "DiffPrograms.h"

#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace bs::test {

struct RandomScheduleCase {
    Schedule schedule;
    bool gpu = false;
    /// The schedule as Python lines that follow the program's `create_schedule`.
    std::vector<std::string> lines;

    /// The program and its schedule, ready to be replayed.
    std::string python(const DiffProgram& program) const;
};

/// `a, b, c`: a Python argument list.
std::string joinPython(const std::vector<std::string>& parts);

struct RandomScheduleOptions {
    /// The probability of a GPU case (thread bindings, shared and local stages).
    double gpu = 0.3;
    /// The probability that a GPU root stage splits virtual threads off its threads.
    double virtualThreads = 0.3;
    /// The probability that a GPU root reduction reduces across threads: its data axes on
    /// blockIdx.x and a part of a reduce axis on threadIdx.x (tvm_thread_allreduce).
    double crossThread = 0.3;
};

class RandomScheduler {
public:
    RandomScheduler(const DiffProgram& program, uint64_t seed, RandomScheduleOptions options = {});

    RandomScheduleCase make();

private:
    void structural();
    void cacheReadInput(const Tensor& input);
    void rfactorOutput();
    void scheduleStage(const Stage& stage);
    void bindGpu(const Stage& stage);
    void bindCrossThread(const Stage& stage);
    void transformLoops(const Stage& stage);
    void fuseWithNext(const Stage& stage, const IterVar& iv);
    void reorderLeaves(const Stage& stage, std::vector<IterVar> leaves);
    void annotate(const Stage& stage);
    void attachProducers(const Stage& consumer);
    void placeAttached(const Stage& producer, const Stage& consumer, const IterVar& leaf);
    void bindCooperatively(const Stage& stage);
    /// A "local" producer attached outside a consumer loop bound to a virtual thread holds one
    /// region per virtual thread (InferBound keeps the thread as a point), so it binds the same
    /// thread, on the inner part of a split of the axis whose region is that point (TVM's
    /// test_local_stage_predicate). Binds a consumer leaf inside the attach point to a new
    /// vthread when none is bound there.
    void shareVirtualThread(const Stage& producer, const Stage& consumer, int pos);
    /// An unbound data-parallel leaf of several iterations whose value goes unscaled into a
    /// root axis.
    bool isPointCandidate(const Stage& stage, const IterVar& leaf,
                          const IterVarMap<Range>& bounds) const;
    /// InferBound of the schedule as it stands; nullopt when it throws.
    std::optional<IterVarMap<Range>> currentBounds() const;
    void bindThreadOfPointAxis(const Stage& producer, const IterVar& thread,
                               const std::string& threadName);
    /// Fuses `axes` (when more than one), recording it; returns the fused loop.
    IterVar fuseAll(const Stage& stage, const std::vector<IterVar>& axes);
    /// Fuses `axes` (when more than one) and splits the result by `factor`, recording both.
    std::pair<IterVar, IterVar> fuseAndSplit(const Stage& stage, const std::vector<IterVar>& axes,
                                             int factor);

    /// Stages reading `stage`, with inlined readers replaced by their own readers.
    std::vector<Stage> consumersOf(const Stage& stage) const;
    std::vector<IterVar> unboundLeaves(const Stage& stage) const;
    bool isBound(const Stage& stage, const IterVar& iv) const;

    /// Runs `primitive`, which returns its Python line; records the line unless the primitive
    /// threw UserError (primitives check before they change anything).
    template <typename F> bool apply(F&& primitive) {
        try {
            m_case.lines.push_back(primitive());
            return true;
        } catch (const UserError&) {
            return false;
        }
    }
    /// The GPU nesting at leaf `pos` of `stage` (-1: around its loops): 0 host, 1 inside a
    /// block loop, 2 inside a thread loop.
    int gpuLevel(const Stage& stage, int pos) const;
    std::string stageName(const Stage& stage) const;
    std::string ivName(const Stage& stage, const IterVar& iv);
    std::string newName(const IterVar& iv);
    std::string bindLine(const Stage& stage, const IterVar& iv, const std::string& tag);
    int pick(int n) { return int(std::uniform_int_distribution<int>(0, n - 1)(m_rng)); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(m_rng) < p; }

    const DiffProgram& m_program;
    RandomScheduleOptions m_options;
    std::mt19937_64 m_rng;
    RandomScheduleCase m_case;
    std::unordered_map<const Node*, std::string> m_ivNames;
    std::unordered_map<const Node*, std::string> m_tensorNames; ///< by operation
    std::unordered_map<const StageNode*, int> m_attachLevel;    ///< gpuLevel at the attach point
    int m_nextName = 0;
};

} // namespace bs::test
