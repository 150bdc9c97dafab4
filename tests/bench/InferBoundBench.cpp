/// \file
/// InferBound's cost per stage (issue 3, item 6): `inferBound` (rules `tvm`) on
///
///   chainN    N element-wise stages in a chain, s_i[y, x] = s_{i-1}[y, x] + 1 (64 x 64), each
///             at the root with its x axis split by 8;
///   dag200    200 stages where s_i reads s_{i-1} (shifted by one row) and, for even i, also
///             s_{i-2}: every stage split by 8 in x, and every odd stage computed at the outer
///             x loop of the even stage after it, so half the stages have an attach path and
///             the even ones two consumers.
///
///   bench_inferbound --benchmark_counters_tabular=true
///
/// The schedule is built and normalized outside the timed loop; the timed work is inferBound
/// alone, measured as the thread's CPU time (the best of the iterations), which other
/// processes on a shared machine do not inflate; `wall_us_per_stage` is the wall time.
/// Counters: `us_per_stage`, and for chain1000 `x_per_stage_100`, its time per stage over
/// chain100's measured earlier in the same run (issue 3's target: at most 2).
///
/// Lower/chainN: the whole of `lower()` (InferBound, ScheduleOps, flatten, simplify, CSE,
/// ThreadSync) of the same chains, with `x_per_stage_100` for chain2000 over chain100's
/// (shared/repro 12: bound checks bound every IterVar of the schedule, and CSE walked the
/// nest of stages again at every level, which made 2,000 stages take 11.5 s).
///
/// Lower/nestedN: the chain with every stage computed at its consumer's row loop, a nest N
/// deep, with `x_per_stage_100` over nested100's (issue 19's target: 1,000 stages in at most
/// 15 times the time of 100, a per-stage ratio of at most 1.5).
///
/// Lower/depthN: one stage whose body is an N-term sum of reads (an expression N deep), with
/// `x_per_stage_100` (here per term) over depth100's. Lower/repeatN: the same with every index
/// read twice, so that CSE introduces N variables (over repeat100's).
///
/// Each `x_per_stage_100` of these takes the 100-stage program's time from runs interleaved with
/// the larger program's, so that the ratio does not follow the machine's drift over the run.
///
/// LowerTight/nestedN and Alloc/nestedN: the same nests lowered under the tight rules, and the
/// whole allocation report (every rule set, ISL's exact counts, the interpreter's touched
/// counts), with `x_per_stage_100` and `x_lower_tvm`, their time over that of lowering the same
/// nest under the tvm rules, timed between their iterations (issue 19: tight at most 3 times
/// tvm; alloc of 1,000 stages under 3 s).
///
/// `bench_inferbound --once=Lower/nested1000` does one program's work once, untimed, for
/// scripts/count-instructions.sh: instructions counted under callgrind, which the machine's
/// speed (its caches, its page faults) does not change.

#include "analysis/AllocReport.h"
#include "ir/Op.h"
#include "lower/Lower.h"
#include "schedule/InferBound.h"
#include "te/Compute.h"
#include "te/Operation.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <optional>
#include <string>

using namespace bs;

namespace {

constexpr int kExtent = 64;
constexpr int kFactor = 8;

/// Time per stage of the benchmarks run so far, by name (chain1000 divides by chain100's).
std::map<std::string, double>& perStageFigures() {
    static std::map<std::string, double> figures;
    return figures;
}

const ComputeOpNode* computeOf(const Tensor& t) { return t.op.as<ComputeOpNode>(); }

/// s_i from s_{i-1} (and s_{i-2} when given), shifted down by `shift` rows with a clamp so
/// every read stays inside the producer.
Tensor nextStage(const Tensor& previous, const Tensor& second, int shift, int index) {
    // Appended rather than `"s" + std::to_string(index)`, which trips GCC 12's -Wrestrict
    // false positive (GCC bug 105329) at -O3.
    std::string name = "s";
    name += std::to_string(index);
    return compute(
        {kExtent, kExtent},
        [&](const std::vector<Var>& v) {
            Expr row = shift == 0 ? Expr(v[0]) : min(v[0] + shift, kExtent - 1);
            Expr value = previous({row, v[1]}) + 1.0f;
            return second.defined() ? value + second({v[0], v[1]}) : value;
        },
        name);
}

/// The chain as a function of its first and last tensors, for lower().
struct ChainFunction {
    Schedule s;
    std::vector<Tensor> args;
};

ChainFunction chainFunction(int stages) {
    std::vector<Tensor> ts = {placeholder({kExtent, kExtent}, DataType::float32(), "s0")};
    for (int i = 1; i <= stages; ++i)
        ts.push_back(nextStage(ts.back(), Tensor(), 0, i));
    Schedule s = createSchedule(ts.back().op);
    for (size_t i = 1; i < ts.size(); ++i)
        s[ts[i]].split(computeOf(ts[i])->axis[1], kFactor);
    return {s, {ts.front(), ts.back()}};
}

/// The chain with every stage computed at its consumer's row loop: a nest as deep as the chain
/// (issue 19; ScheduleOps injected each stage by walking the whole nest, quadratic in it).
ChainFunction nestedFunction(int stages) {
    std::vector<Tensor> ts = {placeholder({kExtent, kExtent}, DataType::float32(), "s0")};
    for (int i = 1; i <= stages; ++i)
        ts.push_back(nextStage(ts.back(), Tensor(), 0, i));
    Schedule s = createSchedule(ts.back().op);
    for (size_t i = 1; i + 1 < ts.size(); ++i)
        s[ts[i]].computeAt(s[ts[i + 1]], computeOf(ts[i + 1])->axis[0]);
    return {s, {ts.front(), ts.back()}};
}

/// One stage whose body sums `terms` reads, s1[x] = s0[x] + s0[x + 1] + ...: an expression as
/// deep as the sum (issue 19: CSE ran its algorithm again at every level; 4,000 terms took 406 s).
ChainFunction deepFunction(int terms) {
    Tensor in = placeholder({kExtent + terms}, DataType::float32(), "s0");
    Tensor out = compute(
        {kExtent},
        [&](const std::vector<Var>& v) {
            Expr sum = in({v[0]});
            for (int k = 1; k < terms; ++k)
                sum = sum + in({v[0] + k});
            return sum;
        },
        "s1");
    return {createSchedule(out.op), {in, out}};
}

/// The same sum, each index read from two inputs, s1[x] = s0[x]*t0[x] + s0[x + 1]*t0[x + 1] +
/// ...: CSE gives every index a variable, and visits each of those lets in turn.
ChainFunction repeatedFunction(int terms) {
    Tensor in = placeholder({kExtent + terms}, DataType::float32(), "s0");
    Tensor other = placeholder({kExtent + terms}, DataType::float32(), "t0");
    Tensor out = compute(
        {kExtent},
        [&](const std::vector<Var>& v) {
            Expr sum = in({v[0]}) * other({v[0]});
            for (int k = 1; k < terms; ++k)
                sum = sum + in({v[0] + k}) * other({v[0] + k});
            return sum;
        },
        "s1");
    return {createSchedule(out.op), {in, other, out}};
}

Schedule chain(int stages) { return chainFunction(stages).s.normalize(); }

Schedule dag(int stages) {
    std::vector<Tensor> ts = {placeholder({kExtent, kExtent}, DataType::float32(), "s0")};
    // Only even stages read a second input, and it is an even (root) stage, so an odd stage has
    // one consumer, the stage it is attached to (TVM rejects a consumer outside the attach
    // point's loop nest).
    for (int i = 1; i <= stages; ++i) {
        bool second = i >= 2 && i % 2 == 0;
        ts.push_back(nextStage(ts.back(), second ? ts[size_t(i) - 2] : Tensor(), 1, i));
    }
    Schedule s = createSchedule(ts.back().op);
    std::vector<IterVar> outer(ts.size());
    for (size_t i = 1; i < ts.size(); ++i)
        outer[i] = s[ts[i]].split(computeOf(ts[i])->axis[1], kFactor).first;
    // Odd stages at the outer x loop of the stage that reads them first (the next one).
    for (size_t i = 1; i + 1 < ts.size(); i += 2)
        s[ts[i]].computeAt(s[ts[i + 1]], outer[i + 1]);
    return s.normalize();
}

/// CPU seconds of the calling thread: inferBound is single-threaded, and on a machine shared
/// with other work its wall time also counts the time other processes held the core.
double threadCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

void runInferBound(benchmark::State& state, const std::string& name, Schedule (*make)(int),
                   int stages) {
    Schedule s = make(stages);
    std::vector<double> cpu, wall;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        double cpuStart = threadCpuSeconds();
        InferBoundResult r = inferBound(s);
        cpu.push_back(threadCpuSeconds() - cpuStart);
        wall.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        state.SetIterationTime(cpu.back());
        benchmark::DoNotOptimize(r.bounds.size());
    }
    std::sort(cpu.begin(), cpu.end());
    std::sort(wall.begin(), wall.end());
    double perStageUs = cpu.front() / stages * 1e6;
    state.counters["stages"] = stages;
    state.counters["us_per_stage"] = perStageUs;
    state.counters["wall_us_per_stage"] = wall.front() / stages * 1e6;
    perStageFigures()[name] = perStageUs;
    auto base = perStageFigures().find("chain100");
    if (name == "chain1000" && base != perStageFigures().end())
        state.counters["x_per_stage_100"] = perStageUs / base->second;
}

/// What one Lower/Alloc benchmark times: lower() under the tvm or the tight rules, or the
/// whole allocation report.
enum class Work { LowerTvm, LowerTight, Alloc };

/// The program a Lower/Alloc benchmark named `name` (`nested300`, `depth100`, ...) lowers.
ChainFunction loweredFunction(const std::string& name, int stages) {
    if (name.rfind("depth", 0) == 0)
        return deepFunction(stages);
    if (name.rfind("repeat", 0) == 0)
        return repeatedFunction(stages);
    if (name.rfind("nested", 0) == 0)
        return nestedFunction(stages);
    return chainFunction(stages);
}

/// The thread CPU seconds of one run of `work` on `f`.
double timeOnce(const ChainFunction& f, Work work) {
    LowerOptions options;
    options.rules = work == Work::LowerTight ? BoundRules::Tight : BoundRules::Tvm;
    AllocReportOptions allocOptions;
    allocOptions.args = f.args;
    double cpuStart = threadCpuSeconds();
    if (work == Work::Alloc) {
        AllocReport r = allocReport(f.s, allocOptions);
        benchmark::DoNotOptimize(r.buffers.size());
    } else {
        LowerResult r = lower(f.s, f.args, options);
        benchmark::DoNotOptimize(r.func.final.get());
    }
    return threadCpuSeconds() - cpuStart;
}

/// `x_per_stage_100` compares the time per stage with that of the 100-stage program of the
/// same kind (`nested100` for `nested1000`), and `x_lower_tvm` (tight rules, alloc) the time
/// with that of lowering the same program under the tvm rules. The machine's speed drifts over
/// a run (a shared virtual machine, another process's caches), so each baseline is timed again
/// between the iterations of the benchmark, and each takes its best time from those
/// interleaved runs: a ratio compares times measured together.
void runLower(benchmark::State& state, const std::string& name, int stages, Work work) {
    const std::string kind = name.substr(0, name.find_first_of("0123456789"));
    const std::string first = kind + "100";
    const ChainFunction f = loweredFunction(name, stages);
    std::optional<ChainFunction> base;
    if (name != first)
        base = loweredFunction(first, 100);
    std::vector<double> cpu, baseCpu, tvmCpu;
    for (auto _ : state) {
        if (base)
            baseCpu.push_back(timeOnce(*base, work));
        if (work != Work::LowerTvm)
            tvmCpu.push_back(timeOnce(f, Work::LowerTvm));
        cpu.push_back(timeOnce(f, work));
        state.SetIterationTime(cpu.back());
    }
    const double best = *std::min_element(cpu.begin(), cpu.end());
    state.counters["stages"] = stages;
    state.counters["us_per_stage"] = best / stages * 1e6;
    if (base)
        state.counters["x_per_stage_100"] =
            best / stages / (*std::min_element(baseCpu.begin(), baseCpu.end()) / 100);
    // Issue 19 item 2: the tight rules at most 3 times the tvm rules on the same program.
    if (!tvmCpu.empty())
        state.counters["x_lower_tvm"] = best / *std::min_element(tvmCpu.begin(), tvmCpu.end());
}

/// `--once=Group/name` (Lower/nested1000, LowerTight/nested100, Alloc/nested300, Lower/chain2000):
/// builds that program and does its work once, untimed, for an instruction count that the
/// machine's speed does not change (scripts/count-instructions.sh runs it under callgrind).
/// Returns the exit status, or nothing when the argument is not there.
std::optional<int> runOnce(int argc, char** argv) {
    const std::string flag = "--once=";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind(flag, 0) != 0)
            continue;
        const std::string spec = arg.substr(flag.size());
        const size_t slash = spec.find('/');
        const std::string group = spec.substr(0, slash == std::string::npos ? 0 : slash);
        const std::string name = slash == std::string::npos ? "" : spec.substr(slash + 1);
        const size_t digits = name.find_first_of("0123456789");
        const std::map<std::string, Work> groups = {
            {"Lower", Work::LowerTvm}, {"LowerTight", Work::LowerTight}, {"Alloc", Work::Alloc}};
        auto work = groups.find(group);
        if (work == groups.end() || digits == std::string::npos || digits == 0) {
            std::fprintf(stderr,
                         "bench_inferbound: --once=%s: expected Lower/, LowerTight/ or Alloc/ "
                         "and a program such as nested1000\n",
                         spec.c_str());
            return 2;
        }
        const std::string count = name.substr(digits);
        if (count.size() > 5 || count.find_first_not_of("0123456789") != std::string::npos) {
            std::fprintf(stderr, "bench_inferbound: --once=%s: a program size of 1 to 99999\n",
                         spec.c_str());
            return 2;
        }
        timeOnce(loweredFunction(name, std::stoi(count)), work->second);
        return 0;
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char** argv) {
    if (std::optional<int> status = runOnce(argc, argv))
        return *status;
    // chain100 first: chain1000 reports its time per stage over chain100's.
    struct Entry {
        const char* name;
        Schedule (*make)(int);
        int stages;
        int iterations;
    };
    const Entry entries[] = {
        {"chain100", chain, 100, 20}, {"chain1000", chain, 1000, 5}, {"dag200", dag, 200, 10}};
    for (const Entry& e : entries)
        benchmark::RegisterBenchmark(
            ("InferBound/" + std::string(e.name)).c_str(),
            [e](benchmark::State& st) { runInferBound(st, e.name, e.make, e.stages); })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond)
            ->Iterations(e.iterations);
    // depthN: one stage whose body is an N-term sum (`stages` counts its terms).
    const std::pair<const char*, int> lowered[] = {
        {"chain", 100},   {"chain", 2000}, {"nested", 100}, {"nested", 300},
        {"nested", 1000}, {"depth", 100},  {"depth", 1000}, {"depth", 4000},
        {"repeat", 100},  {"repeat", 300}, {"repeat", 1000}};
    for (const auto& [kind, stages] : lowered) {
        std::string name = kind + std::to_string(stages);
        benchmark::RegisterBenchmark(
            ("Lower/" + name).c_str(),
            [name, stages](benchmark::State& st) { runLower(st, name, stages, Work::LowerTvm); })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond)
            ->Iterations(stages > 500 ? 5 : 10);
    }
    // The nests again under the tight rules, then the allocation report (issue 19 items 1-3).
    for (Work work : {Work::LowerTight, Work::Alloc}) {
        for (int stages : {100, 300, 1000}) {
            std::string name = "nested" + std::to_string(stages);
            std::string group = work == Work::Alloc ? "Alloc/" : "LowerTight/";
            benchmark::RegisterBenchmark(
                (group + name).c_str(),
                [name, stages, work](benchmark::State& st) { runLower(st, name, stages, work); })
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond)
                ->Iterations(stages > 500 ? 3 : 5);
        }
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
