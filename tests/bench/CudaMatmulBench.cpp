// GPU benchmark (issue 6): C = A x B, 1024 x 1024 x 1024 float32, scheduled three ways and run
// on the GPU through the whole pipeline (te -> schedule -> lower -> CUDA C -> NVRTC -> driver
// API). The figures are device times of the kernel (CudaExecutor times each run with events),
// reported as GFLOP/s and as a ratio to the naive schedule measured in the same run.
//
//   bench_cuda_matmul --benchmark_counters_tabular=true
//
// Without a GPU every benchmark is skipped with the reason. Each schedule's result is checked
// against the naive schedule's before it is timed.

#include "codegen/CudaCodegen.h"
#include "ir/Op.h"
#include "lower/Lower.h"
#include "run/CudaExecutor.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <memory>

using namespace bs;

namespace {

constexpr int kN = 1024;

/// The matmul and its schedule; `schedule` applies one of the variants below.
struct Matmul {
    Tensor A = placeholder({kN, kN}, DataType::float32(), "A");
    Tensor B = placeholder({kN, kN}, DataType::float32(), "B");
    IterVar k = reduceAxis(Range(0, kN), "k");
    Tensor C = compute({kN, kN},
                       [this](const std::vector<Var>& v) {
                           return sum(A({v[0], k}) * B({k, v[1]}), k);
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    const ComputeOpNode* c() const { return C.op.as<ComputeOpNode>(); }
};

/// One thread per element of C, reading A and B from global memory: rows on blockIdx.y, 32
/// columns per block on threadIdx.x.
void naive(Matmul& m) {
    auto [jo, ji] = m.s[m.C].split(m.c()->axis[1], 32);
    m.s[m.C].bind(m.c()->axis[0], threadAxis("blockIdx.y"));
    m.s[m.C].bind(jo, threadAxis("blockIdx.x"));
    m.s[m.C].bind(ji, threadAxis("threadIdx.x"));
}

/// Stages A and B through shared memory in k-steps of `step`, with a local accumulator (TVM's GPU
/// matmul tutorial): blocks of `block` x `block` elements of C computed by 16 x 16 threads, each
/// thread `block/16` x `block/16` elements.
void sharedTiles(Matmul& m, int block, int step) {
    Schedule& s = m.s;
    Tensor as = s.cacheRead(m.A, "shared", {m.C.op});
    Tensor bs = s.cacheRead(m.B, "shared", {m.C.op});
    Tensor cl = s.cacheWrite(m.C, "local");
    TileResult t = s[m.C].tile(m.c()->axis[0], m.c()->axis[1], block, block);
    auto [ty, xi] = s[m.C].splitByNParts(t.xInner, 16);
    auto [tx, yi] = s[m.C].splitByNParts(t.yInner, 16);
    s[m.C].reorder({t.xOuter, t.yOuter, ty, tx, xi, yi});
    s[m.C].bind(t.xOuter, threadAxis("blockIdx.y"));
    s[m.C].bind(t.yOuter, threadAxis("blockIdx.x"));
    s[m.C].bind(ty, threadAxis("threadIdx.y"));
    s[m.C].bind(tx, threadAxis("threadIdx.x"));
    s[cl].computeAt(s[m.C], tx);
    const auto* local = cl.op.as<ComputeOpNode>();
    auto [ko, ki] = s[cl].split(local->reduceAxis[0], step);
    s[cl].reorder({ko, ki, local->axis[0], local->axis[1]});
    for (const Tensor& shared : {as, bs}) {
        s[shared].computeAt(s[cl], ko);
        const auto* op = shared.op.as<ComputeOpNode>();
        s[shared].bind(s[shared].splitByNParts(op->axis[0], 16).first, threadAxis("threadIdx.y"));
        s[shared].bind(s[shared].splitByNParts(op->axis[1], 16).first, threadAxis("threadIdx.x"));
    }
}

/// The inputs, the naive result every schedule is checked against, and the naive time.
struct Reference {
    Buffer a{"A", DataType::float32(), {kN, kN}};
    Buffer b{"B", DataType::float32(), {kN, kN}};
    Buffer expected{"C", DataType::float32(), {kN, kN}};
    bool ready = false;
    double naiveMs = 0;
};

Reference& reference() {
    static Reference r;
    return r;
}

/// `m` lowered, generated and loaded for the GPU.
struct GpuKernel {
    LoweredFunc func;
    std::unique_ptr<CudaExecutor> executor;
};

GpuKernel compileForGpu(const Matmul& m) {
    GpuKernel kernel{lower(m.s, {m.A, m.B, m.C}).func, nullptr};
    CudaModule module = buildCudaModule(kernel.func.final, "matmul", kernel.func.argBuffers);
    kernel.executor = std::make_unique<CudaExecutor>(module.program, module.source);
    return kernel;
}

void runSchedule(benchmark::State& state, void (*apply)(Matmul&), const char* name) {
    std::string reason;
    if (!CudaRuntime::isAvailable(&reason)) {
        state.SkipWithError(("no GPU: " + reason).c_str());
        return;
    }
    Reference& ref = reference();
    Matmul m;
    apply(m);
    GpuKernel kernel;
    try {
        kernel = compileForGpu(m);
    } catch (const std::exception& e) {
        state.SkipWithError((std::string(name) + ": " + e.what()).c_str());
        return;
    }
    if (!ref.ready) {
        ref.a.fillRandom(1);
        ref.b.fillRandom(2);
    }
    Buffer c("C", DataType::float32(), {kN, kN});
    VarMap<Buffer*> bound;
    bound[kernel.func.argBuffers.at(0)] = &ref.a;
    bound[kernel.func.argBuffers.at(1)] = &ref.b;
    bound[kernel.func.argBuffers.at(2)] = &c;
    CudaRunResult warm = kernel.executor->run(bound, {}, 3);
    if (!ref.ready) {
        ref.expected = c;
        ref.ready = true;
    } else {
        std::string mismatch;
        if (!Buffer::allClose(c, ref.expected, 1e-3, 1e-3, &mismatch)) {
            state.SkipWithError((std::string(name) + " differs from naive: " + mismatch).c_str());
            return;
        }
    }
    std::vector<double> all;
    for (auto _ : state) {
        CudaRunResult r = kernel.executor->run(bound, {}, 1);
        state.SetIterationTime(r.milliseconds.at(0) / 1000.0);
        all.push_back(r.milliseconds.at(0));
    }
    std::sort(all.begin(), all.end());
    double best = all.empty() ? warm.best() : all.front();
    if (std::string(name) == "naive")
        ref.naiveMs = best;
    state.counters["best_ms"] = best;
    state.counters["GFLOP/s"] = 2.0 * double(kN) * kN * kN / (best * 1e-3) / 1e9;
    if (ref.naiveMs > 0)
        state.counters["speedup_vs_naive"] = ref.naiveMs / best;
}

void BM_GpuMatmulNaive(benchmark::State& state) { runSchedule(state, naive, "naive"); }
void BM_GpuMatmulShared32(benchmark::State& state) {
    runSchedule(
        state, [](Matmul& m) { sharedTiles(m, 32, 16); }, "shared32");
}
void BM_GpuMatmulShared64(benchmark::State& state) {
    runSchedule(
        state, [](Matmul& m) { sharedTiles(m, 64, 16); }, "shared64");
}

} // namespace

// Naive first: it produces the reference result and the baseline time.
BENCHMARK(BM_GpuMatmulNaive)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_GpuMatmulShared32)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_GpuMatmulShared64)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);

BENCHMARK_MAIN();
