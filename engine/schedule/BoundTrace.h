/// \file
/// The record of one InferBound run: for each stage in visit order (outputs first), its attach
/// path and storage scope, and for each consumer the phase-1 leaf sets (with the case applied and
/// why), the relax set, the phase-2 root sets and the phase-3 requests per output tensor axis;
/// then the phase-4 union and the final ranges (seed 000, "InferRootBound"). The GUI's InferBound
/// inspector and `boundscope trace --json` show exactly this.
#pragma once

#include "arith/IntSet.h"
#include "ir/Expr.h"
#include "schedule/AttachPath.h"
#include "schedule/BoundRules.h"

#include <optional>
#include <string>
#include <vector>

namespace bs {

/// Phase 1's three cases for a consumer leaf (seed 000, "Phase 1").
enum class LeafCase {
    ExtentOne, ///< case 1: the leaf's range has extent 1, a single point at its min
    NoRelax,   ///< case 2: a single point, the leaf variable (or its bound thread) itself
    Relax,     ///< case 3: the leaf's whole range
    /// Bound to a virtual thread that the stage's own region already holds
    /// (regionHoldsVirtualThread): a single point at its min, as the loop nest computes it
    ThreadInRegion,
};
const char* leafCaseName(LeafCase c);

struct LeafSetEntry {
    IterVar iv;
    Range range; ///< the consumer leaf's range from rmap
    IntSet set;  ///< its phase-1 IntSet
    LeafCase leafCase;
    std::string reason; ///< why relaxation was or was not needed
};

/// A consumer attach-path loop that is relaxed (min and max ends relaxed separately).
struct RelaxEntry {
    IterVar iv;
    Var var; ///< the loop variable, or the thread variable the loop is bound to
    IntSet set;
    std::string reason;
};

struct RootSetEntry {
    IterVar iv;
    std::optional<IntSet> upState; ///< phase 2's set, if PassUpDomain reached this root
    Range covered;                 ///< upState covered (or the root's dom)
    IntSet domain;                 ///< after the relax set: what phase 3 evaluates indices over
};

/// One read of one of the producer's output tensors by the consumer, for one axis.
struct RequestEntry {
    Tensor tensor;
    int axis = 0;
    Expr index;       ///< the consumer's index expression for this axis
    IntSet evaluated; ///< the index evaluated over the root domains
    IntSet request;   ///< after clamping to the tensor's shape
    bool clamped = false;
};

struct ConsumerTrace {
    Operation consumer;
    AttachPath consumerAttachPath;
    std::vector<LeafSetEntry> leafSets; ///< innermost leaf first, as phase 1 visits them
    std::vector<RelaxEntry> relaxSet;
    std::vector<RootSetEntry> rootSets;
    std::vector<RequestEntry> requests;
};

/// How a root IterVar's range was set.
struct RootBound {
    IterVar iv;
    int outputAxis = -1;            ///< data axis index, -1 for reduce axes
    std::optional<IntSet> unionSet; ///< phase 4's union of the requests for this axis
    Range range;
    std::string source; ///< "union of requests", "dom", ...
};

struct StageTrace {
    enum class Kind { Output, Placeholder, InlinedAlready, Computed };
    Operation op;
    Kind kind = Kind::Computed;
    int visitIndex = 0;
    AttachPath attachPath; ///< innermost first
    std::string scope;
    bool scopeInferred = false;
    std::vector<ConsumerTrace> consumers;
    std::vector<RootBound> rootBounds;
    /// Every IterVar of the stage with its final range, in all_iter_vars order.
    std::vector<std::pair<IterVar, Range>> ranges;
};
const char* stageKindName(StageTrace::Kind kind);

struct BoundTrace {
    BoundRules rules = BoundRules::Tvm;
    std::vector<StageTrace> stages; ///< in visit order: outputs first, inputs last

    /// The stage trace of `op`, or nullptr.
    const StageTrace* find(const Operation& op) const;
    /// The trace as JSON (stable keys; expressions printed in TVM's text form).
    std::string toJson(int indent = 2) const;
};

} // namespace bs
