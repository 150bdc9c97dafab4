/// \file
/// InjectPrefetch (TVM's tir.transform.InjectPrefetch, with the cache-line loop of its
/// StorageFlatten): each `prefetch_scope` attr that `s[C].prefetch(A, i, offset)` left in loop
/// `i` becomes a loop of `prefetch(address_of(A[...]), 0, 3, 1)` calls, one per cache line of the
/// part of A that iteration `i + offset` reads, before the loop's body.
#pragma once

#include "ir/Stmt.h"

namespace bs {

/// The region prefetched is TVM's: the loads of the tensor in the attr's body, with the loops
/// inside the body relaxed, the prefetch loop's variable at `i + offset`, and enclosing
/// vectorized loops relaxed. Lines are 64 bytes: trailing dimensions of constant size that fit
/// in a line together are fetched from their first element; the next dimension steps by the
/// elements left in a line; outer dimensions loop over their extents (TVM's StorageFlatten has
/// the same loops, but with its indices in reverse dimension order, which is only right in one
/// dimension). No prefetch where the body does not read the tensor (TVM warns and drops it), where
/// the tensor is computed inside the loop, or where the region is unbounded.
Stmt injectPrefetch(const Stmt& stmt);

} // namespace bs
