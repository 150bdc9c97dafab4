/// \file
/// Compact storage on the CPU (issue 20): a strided cache, the CPU form of the GPU
/// example. Each output reads four elements of B, 32 apart:
///
///     B[x]    = A[x] * 2 + 1                                   (kRows * 128)
///     C[o, t] = B[o*128 + t] + B[o*128 + t + 32] + ... + B[o*128 + t + 96]   (kRows x 32)
///
/// scheduled three ways, each lowered and compiled by the LLVM backend:
///
///   root      B computed whole first (tvm rules), then C;
///   tight     B computed at C's loop t under the tight rules: a rectangle of 97 elements
///             per iteration, all computed, 4 read;
///   compact   the same schedule under the compact rules: 4 elements per iteration, the
///             producer runs those 4 only.
///
///   bench_llvm_compact --benchmark_counters_tabular=true
///
/// Each result is checked against root's; counters: the ratio `x_tight` (tight's best time
/// over this one's, measured earlier in the same run) and `x_root`, and the elements of B each
/// schedule allocates.

#include "BenchSupport.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "schedule/InferBoundTight.h"
#include "te/Compute.h"
#include "te/Operation.h"
#include "te/Reduce.h"

using namespace bs;
using namespace bs::bench;

namespace {

constexpr int kRows = 65536;

struct Strided {
    Tensor A = placeholder({kRows * 128}, DataType::float32(), "A");
    Tensor B = compute(
        {kRows * 128}, [this](const std::vector<Var>& v) { return A({v[0]}) * 2.0f + 1.0f; }, "B");
    Tensor C = compute({kRows, 32},
                       [this](const std::vector<Var>& v) {
                           Expr base = v[0] * 128 + v[1];
                           return B({base}) + B({base + 32}) + B({base + 64}) + B({base + 96});
                       },
                       "C", "", {"o", "t"});
    Schedule s = createSchedule(C.op);
    std::vector<Tensor> args() const { return {A, C}; }
};

void root(Strided&) {}

void cacheAtT(Strided& p) { p.s[p.B].computeAt(p.s[p.C], p.C.op.as<ComputeOpNode>()->axis[1]); }

/// The elements of B the lowered program allocates.
int64_t allocatedB(const LoweredFunc& f) {
    int64_t size = -1;
    postOrderVisit(f.final, [&](const NodeRef& node) {
        if (const auto* alloc = node.as<AllocateNode>(); alloc && alloc->bufferVar.name() == "B")
            size = alloc->constantSize();
    });
    return size;
}

struct Shared {
    LlvmJit jit{cpuKernelRuntime()};
    Buffer a{"A", DataType::float32(), {kRows * 128}};
    std::optional<Buffer> reference;
    Shared() { a.fillRandom(5); }
};

Shared& shared() {
    static Shared instance;
    return instance;
}

void runVariant(benchmark::State& state, const std::string& name, void (*apply)(Strided&),
                BoundRules rules) {
    if (rules != BoundRules::Tvm && !hasIsl()) {
        state.SkipWithError("the tight and compact rules need ISL, which this build lacks");
        return;
    }
    Shared& sh = shared();
    Strided p;
    apply(p);
    CompiledSchedule compiled = compileSchedule(sh.jit, p.s, p.args(), "strided_" + name, rules);
    Buffer out("C", DataType::float32(), {kRows, 32});
    std::vector<void*> args = {sh.a.data(), out.data()};
    compiled.kernel.run(args);
    if (!sh.reference)
        sh.reference = out;
    else if (!checkClose(state, out, *sh.reference, name + " differs from root"))
        return;
    RunTimes times = timeRuns(state, [&] { compiled.kernel.run(args); });
    state.counters["best_ms"] = times.best * 1e3;
    state.counters["median_ms"] = times.median * 1e3;
    state.counters["B_elements"] = double(allocatedB(compiled.func));
    if (auto rootMs = figure("root_ms"))
        state.counters["x_root"] = *rootMs / (times.best * 1e3);
    if (auto tightMs = figure("tight_ms"))
        state.counters["x_tight"] = *tightMs / (times.best * 1e3);
    recordFigure(name + "_ms", times.best * 1e3);
    reportCompileCost(state, compiled);
}

void compileOnly(benchmark::State& state, void (*apply)(Strided&), BoundRules rules) {
    if (rules != BoundRules::Tvm && !hasIsl()) {
        state.SkipWithError("the tight and compact rules need ISL, which this build lacks");
        return;
    }
    Strided p;
    apply(p);
    timeCompilation(state, shared().jit, p.s, p.args(), "strided_compile", rules);
}

struct Entry {
    const char* name;
    void (*apply)(Strided&);
    BoundRules rules;
};

const Entry kVariants[] = {{"root", root, BoundRules::Tvm},
                           {"tight", cacheAtT, BoundRules::Tight},
                           {"compact", cacheAtT, BoundRules::Compact}};

} // namespace

int main(int argc, char** argv) {
    // root first, then tight: the others report their speed-up over them.
    for (const Entry& e : kVariants)
        registerVariant(
            "StridedCache", e.name, 20,
            [e](benchmark::State& st) { runVariant(st, e.name, e.apply, e.rules); },
            [e](benchmark::State& st) { compileOnly(st, e.apply, e.rules); });
    return runRegisteredBenchmarks(argc, argv);
}
