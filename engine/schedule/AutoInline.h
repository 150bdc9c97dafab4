/// \file
/// TVM's `te.schedule.AutoInlineElemWise`, `AutoInlineBroadcast` and `AutoInlineInjective`
/// (src/te/schedule/auto_inline_elem_wise.cc): mark for compute_inline every stage that is not an
/// output, has not been scheduled yet and computes, respectively, an element-wise function of its
/// inputs (not a reduction), anything without a reduction (TVM's broadcast test is that too), or
/// anything without a reduction. Computes of several outputs are left alone.
#pragma once

#include "schedule/Schedule.h"

namespace bs {

/// True when a primitive changed where or how the stage loops: a split, fuse or other relation,
/// a reorder, or an attachment other than the root (TVM's Stage::is_scheduled).
bool isScheduled(const Stage& stage);

/// True when every tensor `op` reads is read at exactly its own axes, in order (`B[i, j] =
/// f(A[i, j], C[i, j])`): TVM's ElemWiseDetector.
bool isElemWise(const Operation& op);

void autoInlineElemWise(const Schedule& sch);
void autoInlineBroadcast(const Schedule& sch);
void autoInlineInjective(const Schedule& sch);

} // namespace bs
