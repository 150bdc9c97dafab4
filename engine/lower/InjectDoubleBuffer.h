/// \file
/// TVM's InjectDoubleBuffer (src/tir/transforms/inject_double_buffer.cc) on the flat IR: a
/// buffer marked `double_buffer_scope` (a stage's `double_buffer()`) and allocated inside a loop
/// gets two halves, allocated before the loop. Iteration 0's producer runs before the loop;
/// inside it, iteration i's consumers read half i % 2 while the producer fills half (i + 1) % 2
/// for iteration i + 1 (guarded by i + 1 < extent), so loading the next tile overlaps computing
/// on this one.
#pragma once

#include "ir/Stmt.h"

namespace bs {

/// Doubles every double-buffered allocation of `stmt` as above; the rest is unchanged. A
/// double_buffer_scope that is not inside a loop, or whose buffer is used as a value (passed
/// to a call), is left as it is (its attr removed), as TVM skips it. Throws UserError when a
/// double-buffered buffer is allocated with more than one extent.
Stmt injectDoubleBuffer(const Stmt& stmt);

} // namespace bs
