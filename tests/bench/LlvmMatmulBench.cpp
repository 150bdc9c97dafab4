// Naive against blocked matmul (256 x 256 x 256, float32) compiled by the LLVM backend from
// hand-made flattened IR, measured in the same run so the ratio is meaningful:
//   BM_MatmulNaive      the three loops of the definition, reduction innermost;
//   BM_MatmulBlocked    TVM's CPU matmul tutorial schedule: 32x32 tiles, the reduction split
//                       by 4 and unrolled, the tile's inner axis vectorized, the tile rows
//                       parallel;
//   BM_MatmulBlockedOverNaive  both alternately in each iteration; the `speedup` counter is
//                       naive time / blocked time;
//   BM_CompileBlocked   IR -> machine code (codegen, O3, JIT), the cost of every edit.
#include "codegen/llvm/LlvmJit.h"
#include "ir/Op.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <random>
#include <vector>

using namespace bs;

namespace {

constexpr int kSize = 256;
constexpr int kTile = 32;
constexpr int kSplitK = 4;
constexpr double kFlops = 2.0 * kSize * kSize * kSize;

Var handle(const char* name) {
    return Var(name, DataType::handle());
}

Expr load(const Var& buffer, const Expr& index) {
    return LoadNode::make(DataType::float32(), buffer, index);
}

Stmt loop(const Var& var, int extent, Stmt body, ForKind kind = ForKind::Serial) {
    return ForNode::make(var, 0, extent, kind, std::move(body));
}

struct Matmul {
    Var a = handle("A"), b = handle("B"), c = handle("C");
};

/// for i, j: C[i, j] = 0; for k: C[i, j] += A[i, k] * B[k, j]
CpuKernel naiveMatmul(const Matmul& m) {
    Var i("i"), j("j"), k("k");
    Expr out = i * kSize + j;
    Stmt update = StoreNode::make(
        m.c, load(m.c, out) + load(m.a, i * kSize + k) * load(m.b, k * kSize + j), out);
    Stmt body =
        loop(i, kSize,
             loop(j, kSize,
                  SeqNode::make({StoreNode::make(m.c, Expr(0.0f), out), loop(k, kSize, update)})));
    return CpuKernel{"matmul_naive", {m.a, m.b, m.c}, {}, body};
}

/// parallel i.o, for j.o: zero the tile; for k.o, unrolled k.i, i.i, vectorized j.i: update.
CpuKernel blockedMatmul(const Matmul& m) {
    Var io("i.outer"), jo("j.outer"), ko("k.outer"), ki("k.inner"), ii("i.inner"), ji("j.inner");
    Var ii0("i.inner"), ji0("j.inner");
    Expr row = io * kTile + ii, column = jo * kTile + ji, k = ko * kSplitK + ki;
    Expr out = row * kSize + column;
    Stmt update = StoreNode::make(
        m.c, load(m.c, out) + load(m.a, row * kSize + k) * load(m.b, k * kSize + column), out);
    Stmt updates =
        loop(ko, kSize / kSplitK,
             loop(ki, kSplitK, loop(ii, kTile, loop(ji, kTile, update, ForKind::Vectorized)),
                  ForKind::Unrolled));
    Expr zeroAt = (io * kTile + ii0) * kSize + jo * kTile + ji0;
    Stmt zero =
        loop(ii0, kTile,
             loop(ji0, kTile, StoreNode::make(m.c, Expr(0.0f), zeroAt), ForKind::Vectorized));
    Stmt body = loop(io, kSize / kTile, loop(jo, kSize / kTile, SeqNode::make({zero, updates})),
                     ForKind::Parallel);
    return CpuKernel{"matmul_blocked", {m.a, m.b, m.c}, {}, body};
}

std::vector<float> randomMatrix(uint32_t seed) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
    std::vector<float> values(size_t(kSize) * kSize);
    for (float& v : values)
        v = distribution(generator);
    return values;
}

struct Fixture {
    LlvmJit jit;
    Matmul matmul;
    JitKernel naive = jit.compile(naiveMatmul(matmul));
    JitKernel blocked = jit.compile(blockedMatmul(matmul));
    std::vector<float> a = randomMatrix(1), b = randomMatrix(2), c = std::vector<float>(a.size());
    std::vector<void*> args = {a.data(), b.data(), c.data()};

    /// Runs both kernels once and compares their results.
    bool resultsAgree() {
        naive.run(args);
        std::vector<float> expected = c;
        blocked.run(args);
        for (size_t i = 0; i < c.size(); ++i)
            if (std::fabs(c[i] - expected[i]) > 1e-3f * std::max(1.0f, std::fabs(expected[i])))
                return false;
        return true;
    }
};

Fixture& fixture() {
    static Fixture instance;
    return instance;
}

void runKernel(benchmark::State& state, const JitKernel& kernel) {
    Fixture& f = fixture();
    if (!f.resultsAgree()) {
        state.SkipWithError("the blocked matmul does not compute the naive one's result");
        return;
    }
    for (auto _ : state)
        kernel.run(f.args);
    state.counters["GFLOP/s"] =
        benchmark::Counter(kFlops * double(state.iterations()) * 1e-9, benchmark::Counter::kIsRate);
}

} // namespace

static void BM_MatmulNaive(benchmark::State& state) {
    runKernel(state, fixture().naive);
}
BENCHMARK(BM_MatmulNaive)->Unit(benchmark::kMillisecond)->UseRealTime();

static void BM_MatmulBlocked(benchmark::State& state) {
    runKernel(state, fixture().blocked);
}
BENCHMARK(BM_MatmulBlocked)->Unit(benchmark::kMillisecond)->UseRealTime();

static void BM_MatmulBlockedOverNaive(benchmark::State& state) {
    Fixture& f = fixture();
    double naiveSeconds = 0, blockedSeconds = 0;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        f.naive.run(f.args);
        auto middle = std::chrono::steady_clock::now();
        f.blocked.run(f.args);
        auto end = std::chrono::steady_clock::now();
        naiveSeconds += std::chrono::duration<double>(middle - start).count();
        blockedSeconds += std::chrono::duration<double>(end - middle).count();
    }
    state.counters["speedup"] = naiveSeconds / blockedSeconds;
}
BENCHMARK(BM_MatmulBlockedOverNaive)->Unit(benchmark::kMillisecond)->UseRealTime();

static void BM_CompileBlocked(benchmark::State& state) {
    LlvmJit& jit = fixture().jit;
    Matmul matmul;
    JitTimings last;
    for (auto _ : state)
        last = jit.compile(blockedMatmul(matmul)).timings();
    state.counters["codegen_ms"] = last.buildSeconds * 1e3;
    state.counters["O3_ms"] = last.optimizeSeconds * 1e3;
    state.counters["machine_code_ms"] = last.machineCodeSeconds * 1e3;
}
BENCHMARK(BM_CompileBlocked)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
