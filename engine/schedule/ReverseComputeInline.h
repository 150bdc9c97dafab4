/// \file
/// reverse_compute_inline (seed 004; issue 8, item 4): folds a consumer stage into its only
/// producer. The producer's stage (its loops, splits, attachment and scope) then computes the
/// consumer's expression and writes the consumer's tensor; the producer's tensor disappears.
///
/// As in TVM's ReverseComputeInliner, the consumer must read the producer through one list of
/// indices that is a bijective affine map of its axes (arith/IterMap.h), and the producer must
/// compute exactly the region the consumer reads. Unlike TIR, a tensor-expression stage stores
/// at its own axes: when the map is a permutation (identity or transpose-like) the new
/// operation lists the producer's axes in the consumer's order, so its output has the
/// consumer's layout while the loops keep the producer's order; any other bijection (a
/// reshape) keeps the producer's layout, its readers read it through the map, and is refused
/// for an output of the schedule.
///
/// Every refusal is a UserError `reverse_compute_inline of stage 'C': <reason>`, one reason per
/// failure case of the seed: no producer read, more than one producer, inconsistent read
/// indices, indices not bijective affine, a producer that is not a plain computation (a
/// reduction is refused with a hint to use compute_at), a consumer region the producer does not
/// cover, and predicates (a consumer split that does not divide, a producer region larger than
/// the consumer's). The schedule is unchanged after a refusal.
#pragma once

#include "schedule/Schedule.h"

namespace bs {

/// Applies reverse_compute_inline to `consumer`, a stage of `sch`. Throws UserError.
void reverseComputeInline(const Schedule& sch, const Stage& consumer);

} // namespace bs
