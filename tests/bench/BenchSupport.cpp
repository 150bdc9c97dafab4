/// \file
/// The shared helpers of the CPU benchmarks (BenchSupport.h).

#include "BenchSupport.h"

#include <algorithm>
#include <chrono>
#include <map>

namespace bs::bench {

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::map<std::string, double>& figures() {
    static std::map<std::string, double> values;
    return values;
}

} // namespace

CompiledSchedule compileSchedule(LlvmJit& jit, const Schedule& sch, const std::vector<Tensor>& args,
                                 const std::string& name, BoundRules rules) {
    Clock::time_point start = Clock::now();
    LowerOptions options;
    options.rules = rules;
    LoweredFunc func = lower(sch, args, options).func;
    double lowerMs = millisecondsSince(start);
    JitKernel kernel = jit.compile(cpuKernelOf(func, name));
    JitTimings timings = kernel.timings();
    return CompiledSchedule{std::move(func), std::move(kernel), lowerMs, timings};
}

void timeCompilation(benchmark::State& state, LlvmJit& jit, const Schedule& sch,
                     const std::vector<Tensor>& args, const std::string& name, BoundRules rules) {
    std::optional<CompiledSchedule> last;
    for (auto _ : state)
        last.emplace(compileSchedule(jit, sch, args, name, rules));
    if (last)
        reportCompileCost(state, *last);
}

RunTimes timeRuns(benchmark::State& state, const std::function<void()>& body) {
    std::vector<double> seconds;
    for (auto _ : state) {
        Clock::time_point start = Clock::now();
        body();
        double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        state.SetIterationTime(elapsed);
        seconds.push_back(elapsed);
    }
    if (seconds.empty())
        return {};
    std::sort(seconds.begin(), seconds.end());
    return RunTimes{seconds.front(), seconds[seconds.size() / 2]};
}

void recordFigure(const std::string& name, double value) { figures()[name] = value; }

std::optional<double> figure(const std::string& name) {
    auto it = figures().find(name);
    if (it == figures().end())
        return std::nullopt;
    return it->second;
}

void reportCompileCost(benchmark::State& state, const CompiledSchedule& compiled) {
    state.counters["lower_ms"] = compiled.lowerMs;
    state.counters["jit_ms"] = compiled.jit.totalSeconds() * 1e3;
    state.counters["lower+jit_ms"] = compiled.compileMs();
    state.counters["compile_under_1s"] = compiled.compileMs() <= 1000.0 ? 1 : 0;
}

bool checkClose(benchmark::State& state, const Buffer& actual, const Buffer& expected,
                const std::string& what) {
    // float32 sums of 1024 products of values in [-1, 1) differ by reassociation (vector lanes,
    // fused multiply-adds, BLAS's blocking): a few ulps of the magnitude, far below 1e-3.
    std::string mismatch;
    if (Buffer::allClose(actual, expected, 1e-3, 1e-3, &mismatch))
        return true;
    state.SkipWithError((what + ": " + mismatch).c_str());
    return false;
}

void registerVariant(const std::string& group, const std::string& name, int iterations,
                     std::function<void(benchmark::State&)> run,
                     std::function<void(benchmark::State&)> compile) {
    benchmark::RegisterBenchmark((group + "/" + name).c_str(), std::move(run))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(iterations);
    benchmark::RegisterBenchmark((group + "Compile/" + name).c_str(), std::move(compile))
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
}

int runRegisteredBenchmarks(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // namespace bs::bench
