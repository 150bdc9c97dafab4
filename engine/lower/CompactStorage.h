/// \file
/// Compact storage, the `compact` rule set's pass (issue 20; docs/RULES.md): after ScheduleOps
/// under the tight rules, a realized buffer whose consumers read a set no rectangle holds is
/// stored as exactly that set.
/// - A lattice: along an axis every read lies at `min + base + stride*k` (a strided read, a
///   read with a stride after compute_at). The axis gets one element per lattice point, indexed
///   `(x - min - base) / stride`, and the producer's loop over that axis runs the points only.
/// - Disjoint boxes: the reads fall in boxes no two of which overlap (two consumers reading two
///   corners). The buffer becomes one packed array of the boxes, one after the other, each
///   read and write indexed into its own box; the producer runs once per box.
/// Where the producer's loops cannot be rewritten that way (an axis split or fused, bound to a
/// thread, a bound that is not a constant offset from the realize), the buffer keeps tight's
/// rectangle and a step says why.
#pragma once

#include "ir/Stmt.h"
#include "schedule/BoundSteps.h"

#include <vector>

namespace bs {

/// One buffer compact storage changed.
struct Compaction {
    enum class Kind { Lattice, Boxes };
    Tensor tensor;
    Kind kind = Kind::Lattice;
    Region before; ///< tight's realize region
    Region after;  ///< the compact one (a lattice: per axis; boxes: one axis)
    /// Lattice: per axis, the stride (1 where the axis is unchanged) and the offset of the first
    /// point from the realize's min.
    std::vector<int64_t> strides, offsets;
    /// Boxes: each box's [min, max] per axis, from the realize's min, in storage order.
    std::vector<std::vector<std::pair<int64_t, int64_t>>> boxes;
    /// How an element `T(x, ...)` of the region is found in the compact buffer, as the steps
    /// show it: `B(x) -> B'((x - threadIdx.x)/32)`.
    std::string indexMap;
    int step = -1; ///< the compaction's step (StepPhase::Compact); -1 without steps
};

struct CompactResult {
    Stmt body;
    std::vector<Compaction> compactions;
};

/// Compacts every realize in `afterScheduleOps` that qualifies; `args` (the function's
/// arguments) are never compacted, they are the caller's buffers. Adds a StepPhase::Compact
/// step for each buffer compacted and each one whose reads are a lattice or disjoint boxes but
/// which is kept (with the reason) when `steps` is given.
CompactResult compactStorage(const Stmt& afterScheduleOps, const std::vector<Tensor>& args,
                             BoundSteps* steps = nullptr);

} // namespace bs
