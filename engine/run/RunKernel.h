/// \file
/// Running a scheduled kernel and checking it (issue 6, items 1 and 3): what `boundscope run`
/// and the GUI's Run panel call. The lowered function is compiled for a target (the LLVM JIT on
/// the CPU, CUDA on the GPU, or the reference interpreter's GPU emulation), run `repeat` times
/// on random inputs, timed, and optionally checked against a reference:
///
/// - the reference interpreter running the same lowered IR when the work is small (at most
///   `RunRequest::interpreterCheckLimit` iterations of the compute bodies), except under the
///   `compact` rules, whose storage is what is checked;
/// - otherwise the unscheduled program (`create_schedule` of the same outputs, lowered with the
///   same rules, `tight` for `compact`) compiled by the same backend: the LLVM JIT for `Cpu` and
///   `Cuda` (a GPU cannot run a program with no thread bindings), the interpreter for `Emulate` or
///   when the engine was built without LLVM.
///
/// Inputs are random per element type (Buffer::fillRandom: floats in [-1, 1), small integers),
/// the same for the same seed; the outputs of the kernel and of the reference start from
/// different random values, so that an element the kernel never writes shows. Outputs are
/// compared with a tolerance per element type (`checkTolerance`, widened for long reductions):
/// float32 results may differ in rounding (reassociated reductions, fused multiply-adds),
/// integers must be equal.
///
/// Symbolic sizes (`te.var("n")` in a shape) get `kDefaultSymbolicSize` unless
/// `RunRequest::sizes` binds them by name.
///
/// FLOP and byte counts are documented at `countWork`.
#pragma once

#include "codegen/CudaCodegen.h"
#include "lower/Lower.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bs {

enum class RunTarget { Cpu, Cuda, Emulate };

/// `cpu`, `cuda`, `emulate`.
const char* runTargetName(RunTarget target);
std::optional<RunTarget> parseRunTarget(const std::string& name);

/// Whether this build has the LLVM JIT (the `Cpu` target and `printKernelLlvmIr`).
bool runHasLlvm();

/// The value a symbolic size takes when RunRequest::sizes does not give one.
inline constexpr int64_t kDefaultSymbolicSize = 256;

struct RunRequest {
    RunTarget target = RunTarget::Cpu;
    /// Timed runs, after one untimed warm-up run on compiled targets (the interpreter's runs
    /// all cost the same, so the emulation has none). The first run is the one checked.
    /// At least 1.
    int repeat = 10;
    /// Timed runs stop early once they took this long in total (at least one runs), so that a
    /// slow target (the emulation of a large kernel) does not run for minutes; RunReport::timesMs
    /// holds the runs made. The CUDA target always makes all `repeat` runs (each is fast).
    double timeBudgetMs = 10000;
    /// Called (on the running thread) after each run with the runs done and the runs asked
    /// for, the warm-up and the check's reference run not counted. A run stops with
    /// bs::Cancelled when the thread's cancellation flag is set (support/Cancellation.h):
    /// between runs, and inside the interpreter every 65536 loop iterations.
    std::function<void(int done, int total)> progress;
    /// Compare the outputs with a reference (see the file comment).
    bool check = true;
    /// Seed of the random inputs.
    uint64_t seed = 1;
    /// Values of symbolic size variables by name (`n` -> 1000); others get kDefaultSymbolicSize.
    std::map<std::string, int64_t> sizes;
    /// The largest work (iterations of compute bodies, see countWork) checked against the
    /// interpreter; larger programs are checked against the unscheduled program.
    int64_t interpreterCheckLimit = int64_t(1) << 22;
    /// The rules the unscheduled reference program is lowered with.
    LowerOptions lowerOptions;
};

/// What a run measured and found.
struct RunReport {
    RunTarget target = RunTarget::Cpu;
    /// Where it ran: the CPU LLVM compiled for (`skylake-avx512, 2 threads`), the GPU, or
    /// `interpreter (GPU emulation)`.
    std::string device;
    /// The reference interpreter ran the kernel (the emulate target where the rewrite for the
    /// CPU refused it, or a build without LLVM), not compiled code.
    bool interpreted = false;
    /// The values given to symbolic sizes, in the order of the function's scalar parameters.
    std::vector<std::pair<std::string, int64_t>> sizes;
    /// Time to compile the kernel (LLVM build + O3 + machine code, or NVRTC + load); 0 for
    /// the interpreter.
    double compileMs = 0;
    /// Each timed run, milliseconds.
    std::vector<double> timesMs;
    double bestMs = 0;
    double medianMs = 0;
    /// (slowest - fastest) / median of timesMs: how noisy the timing is (0 for one run).
    double spread = 0;
    /// Floating-point operations and bytes of one run (countWork), and their rates at bestMs.
    int64_t flops = 0;
    int64_t declaredFlops = 0;  ///< what the compute definitions ask for (countWork)
    bool flopsExecuted = false; ///< `flops` counts what the lowered program executes
    int64_t bytes = 0;
    double gflops = 0;
    double gbps = 0;

    bool checked = false;
    bool passed = false;
    /// `interpreter` or `unscheduled program` (empty when not checked).
    std::string reference;
    /// The check's finding: the largest absolute and relative error per output, and the first
    /// element out of tolerance, e.g. `C[17] = 3.5, expected 3`.
    std::string checkDetail;
};

/// What one run of a program costs. `flops` counts the float operations the lowered program
/// executes (+ - * / min max, math calls such as exp one each, vector operations once per
/// lane): each store's operations times the iterations of the loops, GPU threads and virtual
/// threads around it, so a stage computed at an inner loop counts once per time it is
/// recomputed, and only the part of a buffer that is computed counts. Guards on a loop or thread
/// variable (`threadIdx.x < 100`) count the iterations that pass; other guards (a split's
/// tail) count every iteration. Integer index arithmetic and loads are not counted.
/// `declaredFlops` counts the compute definitions instead (iterations = the product of each
/// ComputeOp's axis and reduce-axis extents, times its body's operations): what the program
/// asks for, whatever the schedule. `flops` falls back to it (and `flopsExecuted` is false)
/// when a loop's extent is only known at run time. `bytes` is the size of every argument buffer
/// (each input read once, each output written once): the least traffic the kernel can have.
struct WorkCount {
    int64_t iterations = 0; ///< of the compute definitions
    int64_t flops = 0;
    int64_t declaredFlops = 0;
    bool flopsExecuted = false;
    int64_t bytes = 0;
};

/// The work of `func` with its symbolic sizes bound to `sizes` (scalar parameter order).
WorkCount countWork(const LoweredFunc& func, const std::vector<int64_t>& sizes);

/// Relative and absolute tolerance of the check for an element type: float32 1e-4/1e-5,
/// float64 1e-9/1e-12, integers and bool exact.
std::pair<double, double> checkTolerance(DataType dtype);

/// Compiles, runs, times and checks `lowered` (as `lower()` returned it; `lowered.func.args` are
/// the kernel's arguments). Throws UserError with one clear message when it cannot: `Cpu` on a
/// build without LLVM, or for a schedule bound to GPU threads; `Cuda` without a CUDA driver or
/// GPU, or for a schedule with no GPU binding; a kernel that fails at run time; a size binding
/// that names no symbolic size or is not positive.
RunReport runKernel(const LowerResult& lowered, const RunRequest& request = {});

/// The LLVM IR of the lowered function's CPU kernel (`boundscope codegen --target llvm`).
/// Throws UserError on a build without LLVM or for a GPU schedule.
std::string printKernelLlvmIr(const LowerResult& lowered);

/// The CUDA C source of the lowered function's GPU kernels (`boundscope codegen --target cuda`).
/// Throws UserError for a schedule with no GPU binding.
std::string printKernelCudaSource(const LowerResult& lowered);

/// The GPU module of the lowered function (its host code and its kernels, named
/// `<func.name>_kernel0`, ..., with their CUDA source) after the checks of
/// printKernelCudaSource: what `tvm.build(..., "cuda")` compiles (OpenCL C with
/// `options.openCl`, for the "opencl" target).
CudaModule buildKernelCudaModule(const LowerResult& lowered,
                                 const CudaCodegenOptions& options = {});

/// True when the lowered function launches GPU kernels (a loop bound to blockIdx/threadIdx).
bool usesGpuThreads(const LoweredFunc& func);

} // namespace bs
