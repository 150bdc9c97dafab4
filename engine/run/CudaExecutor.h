/// \file
/// Runs a lowered GPU program on the GPU: the host code that SplitHostDevice leaves (loops,
/// lets, conditions and global allocations around the launches) is interpreted on the CPU, and
/// each `tvm_call_packed("f_kernel0", ...)` in it launches that kernel with the buffers and
/// scalars of the current host scope and the launch extents evaluated there.
#pragma once

#include "lower/SplitHostDevice.h"
#include "runtime/Buffer.h"
#include "runtime/CudaRuntime.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace bs {

/// The value of an integer expression of the host code (a loop bound, a launch extent, a scalar
/// argument) for the scalars bound so far: arith's evaluateInt (each value wrapped to its type,
/// an inner let shadowing an outer binding). Throws UserError naming a scalar without a value,
/// or the expression when it cannot be evaluated (a division by zero, a float).
int64_t hostValue(const Expr& e, const VarMap<int64_t>& scalars);

/// Host memory bound to a buffer argument: copied to the device before a run and back after.
struct CudaHostBuffer {
    void* data = nullptr;
    size_t bytes = 0;
};

/// What a run measured.
struct CudaRunResult {
    /// Device time of each timed run of the whole program (every launch in it), milliseconds.
    std::vector<double> milliseconds;
    /// The fastest and the median of `milliseconds`; 0 when there were no timed runs.
    double best() const;
    double median() const;
};

/// A GPU program compiled and loaded for the current device.
class CudaExecutor {
public:
    /// Compiles `source` (the CUDA C of `program`'s kernels, CudaModule::source) with NVRTC for
    /// the GPU and loads it. Throws UserError when there is no GPU or compilation fails.
    CudaExecutor(HostDeviceSplit program, const std::string& source);

    /// Copies every buffer in `buffers` (argument buffer Var -> host memory) to the device, runs
    /// the program once and copies the buffers back; then runs it `repeat` more times on the
    /// device copies, timing each run (the copies are not timed). `scalars` gives the integer
    /// arguments (symbolic shapes). Throws UserError when a buffer or scalar the program uses
    /// is not given, a launch extent is negative, or the GPU reports an error.
    CudaRunResult run(const VarMap<CudaHostBuffer>& buffers, const VarMap<int64_t>& scalars,
                      int repeat = 0);
    /// The same on the engine's Buffers; throws UserError when a Buffer's element type is not
    /// the one a kernel reads it as.
    CudaRunResult run(const VarMap<Buffer*>& buffers, const VarMap<int64_t>& scalars,
                      int repeat = 0);

    const HostDeviceSplit& program() const { return m_program; }
    const CudaBinary& binary() const { return m_module.binary(); }

private:
    HostDeviceSplit m_program;
    CudaLoadedModule m_module;
    std::unordered_map<std::string, cuda::CUfunction> m_functions;
};

} // namespace bs
