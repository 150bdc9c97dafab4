/// \file
/// GPU kernels rewritten to run on the CPU at compiled speed (issue 19, item 4): the device code
/// of a lowered GPU function (LoweredFunc::device) becomes one CPU statement that the LLVM code
/// generator compiles, following MCUDA (Stratton, Stone and Hwu, 2008) and POCL's work-group
/// functions:
/// - each kernel's blocks become one parallel loop: the CPU's threads take blocks, as a GPU's
///   multiprocessors do;
/// - inside a block, the threads become loops over threadIdx.z, y and x around each stretch of
///   code between two barriers (loop fission at the barriers). A loop, condition or let that
///   holds a barrier stays outside the thread loops, so it must be the same for every thread of
///   the block, as CUDA requires of a barrier's control flow;
/// - shared memory is allocated once per block. A local buffer that lives across a barrier gets
///   one copy per thread (warp memory one per group of threadIdx.x lanes, as TVM's
///   LowerWarpMemory groups them), and a let whose value differs per thread
///   and whose body holds a barrier becomes a per-thread array: both are indexed by the linear
///   thread index `threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)`;
/// - a warp shuffle is a meeting point, like a barrier: every thread first writes the value it
///   offers to an exchange buffer, then every thread reads its source lane's slot, as lanes in
///   lock step do (the reference interpreter's rule, InterpreterGpu.cpp, lane for lane);
/// - a `thread_extent` smaller than the launch's guards its body, as the CUDA code does.
/// What the rewrite cannot express (a barrier under a condition that differs between threads, a
/// grid-wide barrier, a global or variable-size shared allocation inside a kernel) is refused
/// with the reason; the GPU emulation then runs the reference interpreter instead.
#pragma once

#include "ir/Stmt.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs {

struct GpuOnCpu {
    /// The function body for the CPU: the host code with each launch replaced by its kernel's
    /// block loop. Undefined when refused.
    Stmt body;
    /// Why the program cannot run this way, naming the kernel, e.g. `kernel 'f_kernel0': a
    /// barrier under a condition that differs between the threads of a block (threadIdx.x < 5)`.
    std::string refusal;
    /// Kernels rewritten, and how many barriers and shuffles became fission points.
    int kernels = 0;
    int barriers = 0;
    int shuffles = 0;
};

struct GpuOnCpuOptions {
    /// Unrolled loops longer than this and vectorized loops wider than `maxVectorLanes` become
    /// serial loops (a GPU compiler and the CPU one take different sizes).
    int64_t maxUnroll = 4096;
    int64_t maxVectorLanes = 4096;
};

/// Rewrites `device` (a lowered GPU function's device code, flattened, barriers inserted)
/// whose buffer and scalar arguments are `arguments` into one CPU statement, or says why not.
/// A statement with no kernel is returned as it is.
GpuOnCpu lowerGpuForCpu(const Stmt& device, const std::string& functionName,
                        const std::vector<Var>& arguments, const GpuOnCpuOptions& options = {});

} // namespace bs
