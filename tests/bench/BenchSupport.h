/// \file
/// What the CPU benchmarks share (issue 6, item 4): compiling a schedule through the whole
/// pipeline (te -> schedule -> lower -> LLVM IR -> O3 -> ORC JIT) while timing lowering and
/// JIT compilation apart, timing a kernel with the best and median of its runs, checking
/// results, and figures kept by name so a benchmark can report its ratio to a
/// baseline measured earlier in the same run (Google Benchmark runs them in registration order).
#pragma once

#include "codegen/llvm/LlvmJit.h"
#include "lower/Lower.h"
#include "runtime/Buffer.h"
#include "runtime/KernelRuntime.h"

#include <benchmark/benchmark.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bs::bench {

/// A schedule compiled for the CPU, with what it cost.
struct CompiledSchedule {
    LoweredFunc func;
    JitKernel kernel;
    double lowerMs = 0; ///< bs::lower (normalize, InferBound, ScheduleOps, passes)
    JitTimings jit;     ///< LLVM IR build, O3, machine code
    double compileMs() const { return lowerMs + jit.totalSeconds() * 1e3; }
};

/// Lowers `sch` with `args` under `rules` and JIT-compiles the result as `name`.
CompiledSchedule compileSchedule(LlvmJit& jit, const Schedule& sch, const std::vector<Tensor>& args,
                                 const std::string& name, BoundRules rules = BoundRules::Tvm);

/// Lowers and JIT-compiles `sch` once per iteration of `state` and reports the last one's cost
/// (reportCompileCost): the body of every `...Compile/NAME` benchmark.
void timeCompilation(benchmark::State& state, LlvmJit& jit, const Schedule& sch,
                     const std::vector<Tensor>& args, const std::string& name,
                     BoundRules rules = BoundRules::Tvm);

/// Best and median seconds of the timed runs of one benchmark.
struct RunTimes {
    double best = 0;
    double median = 0;
};

/// Runs `body` once per iteration of `state`, timing each run (manual time, so the report's
/// time is the kernel's alone).
RunTimes timeRuns(benchmark::State& state, const std::function<void()>& body);

/// Figures recorded by earlier benchmarks of this run, by name (`openblas_gflops`, ...).
void recordFigure(const std::string& name, double value);
std::optional<double> figure(const std::string& name);

/// Adds `lower_ms`, `jit_ms` and `lower+jit_ms` and, against issue 6's target that no example
/// takes more than 1 s to lower and compile, `compile_under_1s` (1 or 0).
void reportCompileCost(benchmark::State& state, const CompiledSchedule& compiled);

/// Fails the benchmark (SkipWithError) and returns false when `actual` differs from
/// `expected` beyond float32 rounding; `what` names the comparison.
bool checkClose(benchmark::State& state, const Buffer& actual, const Buffer& expected,
                const std::string& what);

/// Registers `GROUP/NAME`, which times the kernel over `iterations` runs (manual time), and
/// `GROUPCompile/NAME`, which measures lowering and JIT compilation over 3.
void registerVariant(const std::string& group, const std::string& name, int iterations,
                     std::function<void(benchmark::State&)> run,
                     std::function<void(benchmark::State&)> compile);

/// Google Benchmark's main after the registrations: runs what the command line selects.
int runRegisteredBenchmarks(int argc, char** argv);

} // namespace bs::bench
