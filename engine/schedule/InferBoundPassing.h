/// \file
/// Message passing over a stage's IterVar relations (TVM's message_passing.cc): PassUpDomain
/// (consumer leaves -> roots, relations in reverse order) and PassDownDomain (roots -> leaves,
/// relations in order), each with the rule set's differences (notes sections 6 and 7).
#pragma once

#include "arith/Analyzer.h"
#include "arith/IntSet.h"
#include "schedule/BoundTrace.h"
#include "schedule/Schedule.h"

namespace bs {

/// Propagates `state` (IntSets of leaves) up to the roots of `stage`, with the split and fuse
/// rules of `rules` (`Tvm06`: a fuse falls back to its full parent ranges).
void passUpDomain(const Stage& stage, const IterVarMap<Range>& rmap, BoundRules rules,
                  IterVarMap<IntSet>* state);

/// Fills the ranges of every non-root IterVar of `stage` from its roots, and the ranges of the
/// thread IterVars its leaves are bound to. `allowMissing` skips relations whose inputs have no
/// range (rfactor and cache_write call it so, and never tighten splits then).
void passDownDomain(const Stage& stage, IterVarMap<Range>* rmap, Analyzer* analyzer,
                    BoundRules rules, bool allowMissing);

/// For each IterVar of `stage`, whether a leaf derived from it is bound to a thread
/// (TVM's PassUpThreadBinding).
IterVarMap<bool> dominatingThreads(const Stage& stage);

/// Whether `thread` is a virtual thread (`vthread`, `cthread`) that the region of `stage`
/// already holds: a root range in `rmap` uses its variable, because InferBound kept a
/// consumer's loop bound to it as a point (storage private to each virtual thread, such as a
/// "local" stage computed outside the consumer's vthread loop). A leaf of `stage` bound to
/// such a thread then adds nothing to the stage's indices: it stands at its min, both in the
/// loop nest (MakeLoopNest) and in what the stage asks of its producers (InferBound phase 1).
/// TVM takes the thread variable in both places and so counts the offset twice (its
/// test_local_stage_predicate, "local vs. vthread", stores B at `vthread + vthread`).
bool regionHoldsVirtualThread(const Stage& stage, const IterVarMap<Range>& rmap,
                              const IterVar& thread);

} // namespace bs
