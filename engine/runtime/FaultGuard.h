/// \file
/// Faults in generated code become a kernel status (the JIT calls kernels through runGuarded,
/// which KernelRuntime hands it: runtime/KernelRuntime.h). A script
/// whose index reads far outside a tensor (`A[i * 100000000]`) makes the JIT-compiled kernel
/// touch unmapped memory, and an integer division by a value that is zero at run time traps;
/// without this the signal would kill the CLI, the app or the Python process that ran it.
/// While `runGuarded` runs generated code on a thread, a SIGSEGV, SIGBUS or SIGFPE raised on
/// that thread jumps back out of the generated frames and the call returns kMemoryFaultStatus
/// or kArithmeticFaultStatus. Faults anywhere else go to the handler that was installed before
/// (or the default action), so crashes of Boundscope itself stay crashes.
///
/// Only generated code may run inside the guard: the jump skips the frames it leaves, so no C++
/// frame with destructors or held locks may be between the guard and the faulting instruction
/// (bs_llvm_parallel_for guards each chunk it runs for that reason).
#pragma once

#include "ir/KernelAbi.h"

#include <cstdint>

namespace bs {

/// Runs `body(context)` with memory faults on this thread turned into kMemoryFaultStatus;
/// otherwise returns what `body` returned. Guards nest (the innermost catches).
int32_t runGuarded(int32_t (*body)(void* context), void* context);

/// Runs `body(context)` outside any guard of this thread: for what generated code calls that is
/// not generated (a packed function: Python, OpenBLAS), whose faults are real crashes and must
/// not be jumped out of.
int32_t runUnguarded(int32_t (*body)(void* context), void* context);

} // namespace bs
