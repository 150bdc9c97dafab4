/// \file
/// CUDA C code generation (TVM's CodeGenCUDA): device kernels, as SplitHostDevice cuts them out
/// of lowered flat IR, become CUDA C source in TVM's form, e.g. seed 002's Ex. 6:
///
///     extern "C" __global__ void test_kernel0( float* __restrict__ A,  float* __restrict__ C) {
///       __shared__ float B[200];
///       B[((int)threadIdx.x)] = (A[((((int)blockIdx.x) * 400) + ((int)threadIdx.x))]
///       * 3.140000e+00f);
///       ...
///
/// The source needs no header: NVRTC and `nvcc --ptx` compile it as it is. Nothing here needs
/// CUDA at build time; engine/runtime/CudaRuntime compiles and launches the source.
#pragma once

#include "lower/SplitHostDevice.h"

#include <string>
#include <vector>

namespace bs {

struct CudaCodegenOptions {
    /// Prints `__launch_bounds__(threads per block)` before the kernel's name when the block
    /// size is a constant, as later TVM versions do. Off by default, so that the seed's (TVM 0.6)
    /// kernels print exactly.
    bool launchBounds = false;
    /// Prints OpenCL C instead (tvm.build's "opencl" target): `__kernel void f_kernel0(__global
    /// float* restrict A, ...)`, `get_group_id(0)` / `get_local_id(0)`, `__local` memory,
    /// `barrier(CLK_LOCAL_MEM_FENCE)`, OpenCL's overloaded math functions, vectors lane by
    /// lane. Warp-level operations (a reduction across the lanes of a warp) are refused.
    bool openCl = false;
};

/// The GPU form of a lowered function: its host code and kernels, and their CUDA source.
struct CudaModule {
    /// The host code and the kernels, barriers inserted (threadSync).
    HostDeviceSplit program;
    /// Helper functions (only when a kernel needs one), then every kernel, separated by blank
    /// lines.
    std::string source;
};

/// The CUDA source of one kernel, preceded by the helper functions it uses (floor division of
/// possibly negative values), so that it compiles on its own. Throws UserError for what CUDA
/// cannot express: a global or non-constant allocation inside the kernel, an unsupported type
/// (float16), call or storage scope, a barrier under a guard for a smaller thread extent.
std::string generateCudaKernel(const DeviceKernel& kernel, const CudaCodegenOptions& options = {});

/// The source of all of `program`'s kernels (see CudaModule::source).
std::string generateCudaSource(const HostDeviceSplit& program,
                               const CudaCodegenOptions& options = {});

/// The whole GPU path from lowered, flattened IR: splitHostDevice, threadSync on each kernel,
/// a check that the host code reads and writes no buffer (everything the host does must be a
/// launch, a loop, a let or an allocation), and the source. `arguments` are the function's
/// buffer and scalar arguments in order (kernel parameters follow it). Throws UserError naming
/// the buffer when the host touches one: its stage's loops must be bound to GPU threads.
CudaModule buildCudaModule(const Stmt& body, const std::string& functionName,
                           const std::vector<Var>& arguments,
                           const CudaCodegenOptions& options = {});

} // namespace bs
