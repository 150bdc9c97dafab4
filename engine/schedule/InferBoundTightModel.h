/// \file
/// The exact model of what a producer's consumers read of it (private to engine/schedule, built
/// only with ISL): for each read of one of the producer's tensors, the set of elements it touches
/// during one iteration of the loops around the producer's realize, as an ISL set over the
/// consumer's iteration domain (leaves, the relations between its IterVars, the bound checks),
/// parametric in those loops. InferBound's phase-1 decisions (the trace) say which consumer
/// loops are single points and which are relaxed, so the model relaxes exactly what TVM relaxes.
#pragma once

#ifdef BOUNDSCOPE_WITH_ISL

#include "schedule/InferBound.h"
#include "schedule/InferBoundTightIsl.h"

#include <unordered_map>
#include <unordered_set>

namespace bs::tight {

/// Which consumer loops are relaxed.
enum class RelaxMode {
    AsTraced,  ///< as InferBound decided (position, thread binding, storage scope)
    PerThread, ///< thread-bound loops are single points: what one thread reads
};

/// Whether a loop is bound to a thread (itself or through the schedule's bindings): the loops
/// RelaxMode::PerThread makes single points.
bool isThreadBound(const IterVar& iv, const IterVarMap<IterVar>& bindMap);

/// One read of the producer by one consumer.
struct AccessSet {
    Operation consumer;
    int index = 0; ///< the n-th read of the producer in the consumer's body; -1: own writes
    std::vector<Expr> indices;
    std::string text; ///< `{ [a0, ...] : ... }` without the parameter header
};

struct NeedModel {
    ParamSpace params;
    std::vector<AccessSet> accesses;
    std::vector<bool> axisExact;   ///< every read's index on this axis is quasi-affine
    std::string domainConstraints; ///< the attach loops' ranges, over the parameters
    bool domainExact = true;       ///< no range of an attach loop had to be dropped

    /// The parameter domain as an ISL set.
    isl::set paramDomain(isl::ctx ctx) const;
    /// The union of the reads, restricted to the parameter domain.
    isl::set unionSet(isl::ctx ctx) const;
    /// One read, restricted to the parameter domain (`domain`: paramDomain(ctx), when the
    /// caller has it).
    isl::set accessSet(isl::ctx ctx, size_t i) const;
    isl::set accessSet(isl::ctx ctx, size_t i, const isl::set& domain) const;
};

/// Where each leaf loop of a schedule sits, so that a loop's place on an attach path is found
/// without reading the path: a nest of N attached stages has paths N loops long, and their
/// models name the outermost loop (issue 19).
class LoopIndex {
public:
    /// From the stages' attach paths in `trace` (a whole InferBound run of `sch`).
    LoopIndex(const Schedule& sch, const BoundTrace& trace, const IterVarMap<IterVar>& bindMap);

    enum class Place {
        On,      ///< a loop of the path, at the position given
        Off,     ///< no stage's loop nor a thread: a symbolic size
        Unknown, ///< to be found by reading the path (a thread, or a loop not placed as a leaf)
    };
    /// Where `v` is on `path` (innermost first); `at` is set for Place::On.
    Place find(const AttachPath& path, const Var& v, size_t& at) const;

private:
    /// A leaf of a stage attached along compute_at's rule (seed 000, "Attach Paths"): on a path
    /// through its stage, it sits just inside that stage's own path, at its leaf position from
    /// the outermost.
    struct Leaf {
        IterVar iv;
        size_t stagePathSize = 0;
        size_t index = 0;
    };
    std::unordered_map<const VarNode*, Leaf> m_leaves;
    std::unordered_set<const VarNode*> m_otherLoops; ///< every other IterVar and thread
};

/// What the model is built from: a (partial) InferBound run in which the consumers of the
/// producer are final; `loops`, when given, for a whole run.
struct ModelInputs {
    const Schedule& sch;
    const IterVarMap<Range>& rmap;
    const IterVarMap<Expr>& loopExtents;
    const IterVarMap<IterVar>& bindMap;
    const LoopIndex* loops = nullptr;
};

/// What buildNeedModel encodes besides the consumers' reads.
struct ModelOptions {
    RelaxMode mode = RelaxMode::AsTraced;
    /// Expressions the caller will convert with the model's parameters: the attach-path loops
    /// they name become parameters too (a loop named only afterwards would be a free one).
    std::vector<Expr> alsoNamed;
    /// Also what the stage's own loop nest writes in one iteration of the loops around its
    /// realize (every leaf over its range, every root inside its dom as the bound checks keep
    /// it; a reduction's init, which has no such check, writes its whole realize box), as the
    /// last access, whose consumer is the stage itself and whose index is -1. An output (no
    /// consumers) then has a model too.
    bool ownWrites = false;
};

/// The model of `stage` (a compute stage that is not inlined, nor an output unless its own
/// writes are asked for) from its trace; nullopt when a loop nest is not quasi-affine (the
/// interval result then stands). Its parameters are the attach-path loops its sets (and
/// `alsoNamed`) name.
std::optional<NeedModel> buildNeedModel(const ModelInputs& in, const Stage& stage,
                                        const StageTrace& trace, const ModelOptions& options = {});

} // namespace bs::tight

#endif // BOUNDSCOPE_WITH_ISL
