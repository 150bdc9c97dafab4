/// \file
/// The tight rules' loops (private to engine/schedule): the seed's split remainders (seed 002,
/// "PassDownDomain": an inner extent of `min(factor, extent - outer*factor)` for a split that
/// does not divide its parent) and the IterVars whose bound checks become unnecessary.
#pragma once

#include "arith/Analyzer.h"
#include "schedule/InferBound.h"

#include <unordered_set>

namespace bs::tight {

/// After PassDownDomain of `stage` (its ranges final in `result.bounds`): records in
/// `result.loopExtents` the extent each leaf really runs where a split remainder changes it,
/// and in `result.provenInRange` every IterVar of `stage` that provably stays in its range
/// (roots: also inside their dom, which `rootsInsideDom` vouches for). A split keeps its factor
/// (and TVM's bound check) when it is bound to a thread, when a vectorized or unrolled loop is
/// below it, or when its remainder could not be expressed in loop order (an inner loop outside
/// its outer loop, or a fuse whose inner row would not be uniform).
void refineSplitRemainders(const Stage& stage, Analyzer& analyzer, const IterVarSet& rootsInsideDom,
                           InferBoundResult& result);

} // namespace bs::tight
