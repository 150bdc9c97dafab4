/// \file
/// The loop annotations a schedule puts on loops (`unroll`, `vectorize`, `parallel`), applied
/// to the flat IR as TVM 0.6's UnrollLoop and VectorizeLoop passes apply them. Parallel loops
/// are left as ForKind::Parallel for the code generators.
#pragma once

#include "ir/Stmt.h"

namespace bs {

/// Replaces each ForKind::Unrolled loop by copies of its body, one per iteration, with the loop
/// variable substituted by `min + k` (TVM's explicit unroll; auto-unroll is out of scope).
/// Inner loops are unrolled first. A loop of extent 0 becomes the no-op `Evaluate(0)`.
/// Throws UserError when the extent is not a constant, as TVM refuses to unroll it.
Stmt unrollLoops(const Stmt& stmt);

/// Replaces each ForKind::Vectorized loop `(v, min, n)` by its body computed on n lanes: `v`
/// becomes `ramp(min, 1, n)`, lane-invariant values are broadcast where they meet vectors,
/// loads and stores with lane-dependent indices become vector loads and stores, and
/// `base + ramp` / `ramp * scalar` fold into ramps (`i*64 + ramp(0, 1, 4)` is
/// `ramp(i*64, 1, 4)`). Inner loops with lane-invariant extents stay loops over vector bodies.
/// A statement that cannot be vectorized (an if or a loop extent that depends on the lane, a
/// store of lane-dependent values to one address, an impure call or tensor read on
/// lane-dependent arguments, an allocation) becomes a serial loop over a fresh variable `v.s`,
/// as TVM's Scalarize does; the rest of the body stays vectorized. Extent 1 substitutes `min`.
/// Throws UserError when the extent is not a constant.
Stmt vectorizeLoops(const Stmt& stmt);

} // namespace bs
