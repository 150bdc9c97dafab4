/// \file
/// Pieces of engine/run shared by its files: binding symbolic sizes, the argument buffers, the
/// executors of each backend, and the comparison of outputs.
#pragma once

#include "run/RunKernel.h"

#include "runtime/Buffer.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bs::run_detail {

/// The value of each of `func.scalarParams` (RunRequest::sizes or kDefaultSymbolicSize).
/// Throws UserError for a binding that names no symbolic size or is not positive.
std::vector<int64_t> bindSizes(const LoweredFunc& func,
                               const std::map<std::string, int64_t>& sizes);

/// The value of `e` (an extent or a shape) with the symbolic sizes bound; throws UserError when
/// it is not a constant then.
int64_t evaluateSize(const Expr& e, const LoweredFunc& func, const std::vector<int64_t>& sizes);

/// One Buffer per argument of `func`, shaped with the sizes bound, filled with random values
/// from `seed` (outputs too, so that an element the kernel never writes shows in the check).
std::vector<Buffer> makeArgumentBuffers(const LoweredFunc& func, const std::vector<int64_t>& sizes,
                                        uint64_t seed);

/// The kernel's arguments in order, as the code generators take them: buffers, then sizes.
std::vector<Var> kernelArguments(const LoweredFunc& func);

/// A lowered function compiled for one backend.
class Executor {
public:
    virtual ~Executor() = default;
    /// Runs the function once on `args` (its results stay there), then `repeat` more times,
    /// timed, stopping early once they took `budgetMs` (RunRequest::timeBudgetMs); returns the
    /// time of each timed run in milliseconds.
    virtual std::vector<double> run(std::vector<Buffer>& args, int repeat, double budgetMs) = 0;

    double compileMs = 0;
    std::string device;
    /// The reference interpreter runs it (not compiled code).
    bool interpreted = false;
    /// RunRequest::progress, for the executors that time their runs one by one.
    std::function<void(int done, int total)> progress;
};

/// The LLVM JIT (throws UserError on a build without LLVM).
std::unique_ptr<Executor> makeLlvmExecutor(const LoweredFunc& func,
                                           const std::vector<int64_t>& sizes);
/// CUDA through run/CudaExecutor (throws UserError without a driver or GPU).
std::unique_ptr<Executor> makeCudaExecutor(const LoweredFunc& func,
                                           const std::vector<int64_t>& sizes);
/// The reference interpreter, GPU kernels emulated (lower() put their barriers in).
std::unique_ptr<Executor> makeInterpreterExecutor(const LoweredFunc& func,
                                                  const std::vector<int64_t>& sizes);
/// The `emulate` target: a GPU program rewritten for the CPU (lower/GpuOnCpu.h) and compiled
/// by the LLVM JIT; the interpreter where the rewrite or the compiler refuses it (its `device`
/// then says why), for a program with no GPU threads, and on a build without LLVM.
std::unique_ptr<Executor> makeEmulationExecutor(const LoweredFunc& func,
                                                const std::vector<int64_t>& sizes);

/// Compares the outputs (the arguments computed by an operation) of `actual` with `expected`
/// using checkTolerance, float tolerances widened by sqrt(`reductionLength`) for the rounding
/// of long sums; `detail` gets one line per output (largest absolute and relative error) and
/// the first mismatch. Returns whether all are within tolerance.
bool compareOutputs(const LoweredFunc& func, const std::vector<Buffer>& actual,
                    const std::vector<Buffer>& expected, int64_t reductionLength,
                    std::string* detail);

/// The longest reduction (product of reduce-axis extents) of the function's computations.
int64_t longestReduction(const LoweredFunc& func, const std::vector<int64_t>& sizes);

} // namespace bs::run_detail
