/// \file
/// A separable 3x3 box blur on the CPU (issue 6, item 4), 2048 x 2048 float32, the Halide
/// example that motivates compute_at:
///
///     blur_x[y, x] = (in[y, x] + in[y, x + 1] + in[y, x + 2]) / 3     (2050 x 2048)
///     blur_y[y, x] = (blur_x[y, x] + blur_x[y + 1, x] + blur_x[y + 2, x]) / 3
///
/// scheduled four ways, each lowered and compiled by the LLVM backend:
///
///   root               the default schedule: all of blur_x, then all of blur_y (LLVM's O3
///                      may still vectorize the plain loops);
///   root_vectorized    the same order, each stage's columns split by 16 and vectorized;
///   tiled              blur_y in kTileY x kTileX tiles, the tile's columns vectorized; blur_x
///                      computed at the tile (kTileY + 2 rows of it, still in cache when
///                      blur_y reads them) and vectorized: one thread, like root;
///   tiled_parallel     tiled with the rows of tiles parallel on the thread pool.
///
///   bench_llvm_blur --benchmark_counters_tabular=true
///
/// Each result is checked against root's; counters: GB/s (the input read and the output
/// written once), the ratio `x_root` to root measured earlier in the same run, and the cost of
/// lowering and JIT compiling the schedule.

#include "BenchSupport.h"

#include "ir/Op.h"
#include "te/Compute.h"
#include "te/Operation.h"

using namespace bs;
using namespace bs::bench;

namespace {

constexpr int kSize = 2048;
constexpr int kTileY = 32;
constexpr int kTileX = 256;
constexpr int kLanes = 16; ///< one AVX-512 register of float32
constexpr double kBytes = 2.0 * kSize * kSize * 4;

struct Blur {
    Tensor in = placeholder({kSize + 2, kSize + 2}, DataType::float32(), "in");
    Tensor bx =
        compute({kSize + 2, kSize},
                [this](const std::vector<Var>& v) {
                    return (in({v[0], v[1]}) + in({v[0], v[1] + 1}) + in({v[0], v[1] + 2})) / 3.0f;
                },
                "blur_x", "", {"y", "x"});
    Tensor by =
        compute({kSize, kSize},
                [this](const std::vector<Var>& v) {
                    return (bx({v[0], v[1]}) + bx({v[0] + 1, v[1]}) + bx({v[0] + 2, v[1]})) / 3.0f;
                },
                "blur_y", "", {"y", "x"});
    Schedule s = createSchedule(by.op);
    std::vector<Tensor> args() const { return {in, by}; }
};

const ComputeOpNode* computeOf(const Tensor& t) { return t.op.as<ComputeOpNode>(); }

/// Columns split by kLanes, the inner part vectorized.
void vectorizeColumns(const Stage& stage, const IterVar& column) {
    stage.vectorize(stage.split(column, kLanes).second);
}

void root(Blur&) {}

void rootVectorized(Blur& b) {
    vectorizeColumns(b.s[b.bx], computeOf(b.bx)->axis[1]);
    vectorizeColumns(b.s[b.by], computeOf(b.by)->axis[1]);
}

/// Returns the tile rows loop (for tiledParallel).
IterVar tileWithComputeAt(Blur& b) {
    Stage sy = b.s[b.by];
    TileResult t = sy.tile(computeOf(b.by)->axis[0], computeOf(b.by)->axis[1], kTileY, kTileX);
    vectorizeColumns(sy, t.yInner);
    Stage sx = b.s[b.bx];
    sx.computeAt(sy, t.yOuter);
    vectorizeColumns(sx, computeOf(b.bx)->axis[1]);
    return t.xOuter;
}

void tiled(Blur& b) { tileWithComputeAt(b); }

void tiledParallel(Blur& b) { b.s[b.by].parallel(tileWithComputeAt(b)); }

struct Shared {
    LlvmJit jit{cpuKernelRuntime()};
    Buffer in{"in", DataType::float32(), {kSize + 2, kSize + 2}};
    std::optional<Buffer> reference;
    Shared() { in.fillRandom(3); }
};

Shared& shared() {
    static Shared instance;
    return instance;
}

void runVariant(benchmark::State& state, const std::string& name, void (*apply)(Blur&)) {
    Shared& sh = shared();
    Blur b;
    apply(b);
    CompiledSchedule compiled = compileSchedule(sh.jit, b.s, b.args(), "blur_" + name);
    Buffer out("blur_y", DataType::float32(), {kSize, kSize});
    std::vector<void*> args = {sh.in.data(), out.data()};
    compiled.kernel.run(args);
    if (!sh.reference)
        sh.reference = out;
    else if (!checkClose(state, out, *sh.reference, name + " differs from root"))
        return;
    RunTimes times = timeRuns(state, [&] { compiled.kernel.run(args); });
    state.counters["best_ms"] = times.best * 1e3;
    state.counters["median_ms"] = times.median * 1e3;
    state.counters["GB/s"] = kBytes / times.best / 1e9;
    if (auto rootMs = figure("root_ms"))
        state.counters["x_root"] = *rootMs / (times.best * 1e3);
    recordFigure(name + "_ms", times.best * 1e3);
    reportCompileCost(state, compiled);
}

void compileOnly(benchmark::State& state, void (*apply)(Blur&)) {
    Blur b;
    apply(b);
    timeCompilation(state, shared().jit, b.s, b.args(), "blur_compile");
}

struct Entry {
    const char* name;
    void (*apply)(Blur&);
};

const Entry kVariants[] = {{"root", root},
                           {"root_vectorized", rootVectorized},
                           {"tiled", tiled},
                           {"tiled_parallel", tiledParallel}};

} // namespace

int main(int argc, char** argv) {
    // root first: the others report their speed-up over it.
    for (const Entry& e : kVariants)
        registerVariant(
            "Blur2048", e.name, 40, [e](benchmark::State& st) { runVariant(st, e.name, e.apply); },
            [e](benchmark::State& st) { compileOnly(st, e.apply); });
    return runRegisteredBenchmarks(argc, argv);
}
