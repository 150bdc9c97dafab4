/// \file
/// The tight rules' loops (private to engine/schedule): the seed's split remainders (seed 002,
/// "PassDownDomain": an inner extent of `min(factor, extent - outer*factor)` for a split that
/// does not divide its parent), which PassDownDomain's remainder mode finds, and the IterVars
/// whose bound checks become unnecessary.
#pragma once

#include "arith/Analyzer.h"
#include "schedule/InferBound.h"
#include "schedule/MessagePassing.h"

namespace bs::tight {

/// After PassDownDomain of `stage` in its remainder mode (`loops`; its ranges final in
/// `result.bounds`): records in `result.loopExtents` the extent each leaf really runs where a
/// split remainder changes it, and in `result.provenInRange` every IterVar of `stage` that
/// provably stays in its range (roots: also inside their dom, which `rootsInsideDom` vouches
/// for). The remainders are kept only when they can be run in loop order: an inner loop whose
/// extent names an outer loop must be inside it.
void refineSplitRemainders(const Stage& stage, Analyzer& analyzer, const LoopExtents& loops,
                           const IterVarSet& rootsInsideDom, InferBoundResult& result);

} // namespace bs::tight
