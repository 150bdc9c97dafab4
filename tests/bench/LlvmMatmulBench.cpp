/// \file
/// Matmul on the CPU (issue 6, item 4): C = A x B, 1024 x 1024 x 1024 float32, scheduled four
/// ways, each lowered and compiled by the LLVM backend through the whole pipeline, against
/// OpenBLAS's sgemm on the same threads (the thread pool's size):
///
///   openblas        cblas_sgemm, the baseline (when built with libopenblas-dev), on as many
///                   threads as the thread pool; its label names the kernel OpenBLAS chose;
///   naive           the default schedule: i, j, then the reduction innermost;
///   tiled           32 x 32 tiles, k split by 4, loops permuted (xo, yo, ko, xi, ki, yi), the
///                   tile's columns vectorized, the tile rows parallel: TVM's CPU GEMM
///                   tutorial up to "parallel" without packing or a write cache;
///   gemm_tutorial   resources/examples/matmul_gemm_tutorial.py: B packed into 32-wide panels,
///                   C accumulated in a cache_write block at the tile loop, k split by 4 and
///                   unrolled, the panel width vectorized, the tile rows parallel;
///   register_tiled  the tutorial's packing and write cache, with the block's rows split by
///                   kRows and unrolled inside the whole reduction, so its kRows x 32
///                   accumulators stay in vector registers (the micro-kernel form of BLAS).
///
///   bench_llvm_matmul --benchmark_counters_tabular=true
///
/// Each schedule's result is checked against the first result (OpenBLAS's, or the naive
/// schedule's without OpenBLAS) before it is timed. Counters: GFLOP/s at the best run, the
/// ratios `x_openblas` (best runs), `x_openblas_median` (median runs) and `x_naive` to the
/// baselines measured earlier in the same run, and the cost of lowering and JIT compiling.
/// OpenBLAS 0.3.21 picks its AVX2 (Haswell) kernel on AMD CPUs it does not know; run with
/// OPENBLAS_CORETYPE=SkylakeX for its AVX-512 kernel (BENCHMARKS.md gives both).

#include "BenchSupport.h"

#include "ir/Op.h"
#include "runtime/ThreadPool.h"
#include "te/Compute.h"
#include "te/Operation.h"
#include "te/Reduce.h"

#ifdef BOUNDSCOPE_BENCH_OPENBLAS
#include <cblas.h>
#endif

using namespace bs;
using namespace bs::bench;

namespace {

constexpr int kN = 1024;
constexpr int kBlock = 32; ///< the tutorial's bn
constexpr int kKSplit = 4; ///< the tutorial's kfactor
constexpr int kRows = 8;   ///< register_tiled: rows of C kept in registers
constexpr double kFlops = 2.0 * kN * kN * kN;

/// A schedule and its arguments (always A, B, C).
struct Variant {
    Schedule s;
    std::vector<Tensor> args;
};

Tensor input(const char* name) { return placeholder({kN, kN}, DataType::float32(), name); }

const ComputeOpNode* computeOf(const Tensor& t) { return t.op.as<ComputeOpNode>(); }

/// C[x, y] = sum_k A[x, k] * B[k, y], default schedule.
Variant naive() {
    Tensor a = input("A"), b = input("B");
    IterVar k = reduceAxis(Range(0, kN), "k");
    Tensor c = compute(
        {kN, kN},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k}) * b({k, v[1]}), k);
        },
        "C");
    return Variant{createSchedule(c.op), {a, b, c}};
}

Variant tiled() {
    Variant v = naive();
    const Tensor& c = v.args[2];
    Stage sc = v.s[c];
    TileResult t = sc.tile(computeOf(c)->axis[0], computeOf(c)->axis[1], kBlock, kBlock);
    auto [ko, ki] = sc.split(computeOf(c)->reduceAxis[0], kKSplit);
    sc.reorder({t.xOuter, t.yOuter, ko, t.xInner, ki, t.yInner});
    sc.vectorize(t.yInner);
    sc.parallel(t.xOuter);
    return v;
}

/// The tutorial's definition: B packed into panels packedB[y / bn, k, y % bn], the write cache
/// CC at C's tile loop, and B's packing vectorized and parallel. Returns CC's stage.
struct Packed {
    Variant v;
    Tensor cc;
};

Packed packedWithWriteCache() {
    Tensor a = input("A"), b = input("B");
    Tensor packed = compute(
        {kN / kBlock, kN, kBlock},
        [&](const std::vector<Var>& v) {
            return b({v[1], v[0] * kBlock + v[2]});
        },
        "packedB");
    IterVar k = reduceAxis(Range(0, kN), "k");
    Tensor c = compute(
        {kN, kN},
        [&](const std::vector<Var>& v) {
            Expr panel = floordiv(v[1], kBlock), lane = floormod(v[1], kBlock);
            return sum(a({v[0], k}) * packed({panel, k, lane}), k);
        },
        "C");
    Schedule s = createSchedule(c.op);
    Tensor cc = s.cacheWrite(c, "global");
    TileResult t = s[c].tile(computeOf(c)->axis[0], computeOf(c)->axis[1], kBlock, kBlock);
    s[cc].computeAt(s[c], t.yOuter);
    s[c].parallel(t.xOuter);
    const ComputeOpNode* p = computeOf(packed);
    s[packed].vectorize(p->axis[2]);
    s[packed].parallel(p->axis[0]);
    return Packed{Variant{s, {a, b, c}}, cc};
}

Variant gemmTutorial() {
    Packed p = packedWithWriteCache();
    Stage scc = p.v.s[p.cc];
    const ComputeOpNode* cc = computeOf(p.cc);
    auto [ko, ki] = scc.split(cc->reduceAxis[0], kKSplit);
    scc.reorder({ko, cc->axis[0], ki, cc->axis[1]});
    scc.unroll(ki);
    scc.vectorize(cc->axis[1]);
    return p.v;
}

/// For each group of kRows rows of the block: for k: kRows unrolled rows x 32 vector lanes.
/// The accumulators' addresses do not depend on k, so LLVM keeps them in registers across the
/// whole reduction (two 16-lane AVX-512 registers per row).
Variant registerTiled() {
    Packed p = packedWithWriteCache();
    Stage scc = p.v.s[p.cc];
    const ComputeOpNode* cc = computeOf(p.cc);
    auto [xo, xi] = scc.split(cc->axis[0], kRows);
    scc.reorder({xo, cc->reduceAxis[0], xi, cc->axis[1]});
    scc.unroll(xi);
    scc.vectorize(cc->axis[1]);
    return p.v;
}

/// The inputs every variant reads and the first result, which the others must reproduce.
struct Shared {
    LlvmJit jit{cpuKernelRuntime()};
    Buffer a{"A", DataType::float32(), {kN, kN}};
    Buffer b{"B", DataType::float32(), {kN, kN}};
    std::optional<Buffer> reference;
    Shared() {
        a.fillRandom(1);
        b.fillRandom(2);
    }
};

Shared& shared() {
    static Shared instance;
    return instance;
}

/// Reports GFLOP/s and the ratios to the baselines recorded before; records this one's figure
/// as `<name>_gflops`.
void reportRate(benchmark::State& state, const std::string& name, const RunTimes& times) {
    double gflops = kFlops / times.best / 1e9;
    double medianGflops = kFlops / times.median / 1e9;
    state.counters["best_ms"] = times.best * 1e3;
    state.counters["median_ms"] = times.median * 1e3;
    state.counters["GFLOP/s"] = gflops;
    // On a machine shared with other work the best run is the least disturbed one; the ratio
    // of medians shows how much the comparison depends on that.
    if (auto blas = figure("openblas_gflops"))
        state.counters["x_openblas"] = gflops / *blas;
    if (auto blasMedian = figure("openblas_median_gflops"))
        state.counters["x_openblas_median"] = medianGflops / *blasMedian;
    if (auto naiveRate = figure("naive_gflops"))
        state.counters["x_naive"] = gflops / *naiveRate;
    recordFigure(name + "_gflops", gflops);
    recordFigure(name + "_median_gflops", medianGflops);
}

/// Keeps `c` as the reference when there is none yet; otherwise checks it against it.
bool checkOrKeep(benchmark::State& state, const Buffer& c, const std::string& name) {
    Shared& sh = shared();
    if (!sh.reference) {
        sh.reference = c;
        return true;
    }
    return checkClose(state, c, *sh.reference, name + " differs from the reference");
}

void runVariant(benchmark::State& state, const std::string& name, Variant (*make)()) {
    Shared& sh = shared();
    Variant v = make();
    CompiledSchedule compiled = compileSchedule(sh.jit, v.s, v.args, "matmul_" + name);
    Buffer c("C", DataType::float32(), {kN, kN});
    std::vector<void*> args = {sh.a.data(), sh.b.data(), c.data()};
    compiled.kernel.run(args);
    if (!checkOrKeep(state, c, name))
        return;
    RunTimes times = timeRuns(state, [&] { compiled.kernel.run(args); });
    reportRate(state, name, times);
    reportCompileCost(state, compiled);
}

#ifdef BOUNDSCOPE_BENCH_OPENBLAS
void runOpenBlas(benchmark::State& state) {
    Shared& sh = shared();
    openblas_set_num_threads(int(ThreadPool::global().threadCount()));
    Buffer c("C", DataType::float32(), {kN, kN});
    auto sgemm = [&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kN, kN, kN, 1.0f,
                    static_cast<const float*>(sh.a.data()), kN,
                    static_cast<const float*>(sh.b.data()), kN, 0.0f, static_cast<float*>(c.data()),
                    kN);
    };
    sgemm();
    checkOrKeep(state, c, "openblas");
    RunTimes times = timeRuns(state, sgemm);
    reportRate(state, "openblas", times);
    state.counters["threads"] = ThreadPool::global().threadCount();
    // The kernel OpenBLAS picked for this CPU (0.3.21 picks Haswell, AVX2, on AMD Zen 4;
    // OPENBLAS_CORETYPE=SkylakeX selects its AVX-512 kernels).
    state.SetLabel(std::string("kernel ") + openblas_get_corename());
}
#endif

/// Lowering and JIT compilation alone, repeated: the cost of every edit of the schedule.
void compileOnly(benchmark::State& state, Variant (*make)()) {
    Variant v = make();
    timeCompilation(state, shared().jit, v.s, v.args, "matmul_compile");
}

struct Entry {
    const char* name;
    Variant (*make)();
    int iterations;
};

const Entry kVariants[] = {{"naive", naive, 1},
                           {"tiled", tiled, 10},
                           {"gemm_tutorial", gemmTutorial, 10},
                           {"register_tiled", registerTiled, 20}};

} // namespace

int main(int argc, char** argv) {
    // Baselines first: OpenBLAS, then naive; the others report their ratios to both.
#ifdef BOUNDSCOPE_BENCH_OPENBLAS
    benchmark::RegisterBenchmark("Matmul1024/openblas", runOpenBlas)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(20);
#endif
    for (const Entry& e : kVariants)
        registerVariant(
            "Matmul1024", e.name, e.iterations,
            [e](benchmark::State& st) { runVariant(st, e.name, e.make); },
            [e](benchmark::State& st) { compileOnly(st, e.make); });
    return runRegisteredBenchmarks(argc, argv);
}
