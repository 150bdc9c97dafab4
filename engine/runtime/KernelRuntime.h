/// \file
/// The runtime generated CPU kernels call (ir/KernelAbi.h): a parallel loop on
/// runtime/ThreadPool with each chunk under the fault guard, 64-byte aligned heap buffers, and
/// packed calls run outside the guard. A JIT defines these symbols for every kernel it
/// compiles, so nothing needs to be exported from the executable:
///
///     LlvmJit jit(cpuKernelRuntime());
#pragma once

#include "ir/KernelAbi.h"

namespace bs {

/// The functions above, runGuarded (runtime/FaultGuard.h) and takePackedError
/// (runtime/PackedFunctions.h), for a JIT.
const KernelRuntime& cpuKernelRuntime();

} // namespace bs
