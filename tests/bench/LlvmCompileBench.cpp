/// \file
/// The LLVM JIT's compile time against the size of a kernel (issue 14, item 8; repro 13): one
/// loop whose body is a sum `A[i] + 1 + 1 + ... + 1` of N terms, compiled from flattened IR to
/// machine code. Past the optimization limit a kernel gets the O0 pipeline and back end with its
/// blocks cut into pieces (LlvmHost.h), so the time must grow linearly with N.
///
///   bench_llvm_compile --benchmark_counters_tabular=true
///
/// Counters: `us_per_term` (the best of the iterations over N) and `x_per_term_25k`, the time
/// per term over deep25000's measured earlier in the same run (linear: about 1).

#include "BenchSupport.h"

#include "codegen/llvm/LlvmJit.h"
#include "ir/Op.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <vector>

using namespace bs;

namespace {

CpuKernel deepSum(int terms) {
    Var a("A", DataType::handle()), i("i");
    Expr sum = LoadNode::make(DataType::float32(), a, i);
    for (int term = 0; term < terms; ++term)
        sum = sum + Expr(1.0f);
    Stmt body = ForNode::make(i, 0, 4, ForKind::Serial, StoreNode::make(a, sum, i));
    return CpuKernel{"deep", {a}, {}, body};
}

std::map<int, double>& perTermFigures() {
    static std::map<int, double> figures;
    return figures;
}

void compileDeepSum(benchmark::State& state, int terms) {
    LlvmJit jit(cpuKernelRuntime());
    CpuKernel kernel = deepSum(terms);
    std::vector<double> seconds;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        JitKernel compiled = jit.compile(kernel);
        seconds.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        state.SetIterationTime(seconds.back());
        benchmark::DoNotOptimize(compiled.name());
    }
    double perTermUs = *std::min_element(seconds.begin(), seconds.end()) / terms * 1e6;
    state.counters["terms"] = terms;
    state.counters["us_per_term"] = perTermUs;
    perTermFigures()[terms] = perTermUs;
    auto base = perTermFigures().find(25000);
    if (terms != 25000 && base != perTermFigures().end())
        state.counters["x_per_term_25k"] = perTermUs / base->second;
}

} // namespace

int main(int argc, char** argv) {
    // deep25000 first: the others report their time per term over its.
    for (int terms : {25000, 100000, 200000})
        benchmark::RegisterBenchmark(("LlvmCompile/deep" + std::to_string(terms)).c_str(),
                                     [terms](benchmark::State& st) { compileDeepSum(st, terms); })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond)
            ->Iterations(3);
    return bench::runRegisteredBenchmarks(argc, argv);
}
