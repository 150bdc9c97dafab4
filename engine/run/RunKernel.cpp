/// \file
/// runKernel: compile for the target, run on random inputs, time, check against a reference
/// (issue 6, items 1 and 3; the choice of reference is described in RunKernel.h).
#include "run/RunInternal.h"

#include "codegen/CudaCodegen.h"
#include "ir/Op.h"
#include "lower/SplitHostDevice.h"
#include "run/CpuExecutable.h"
#include "run/CudaExecutor.h"
#include "schedule/ScheduleErrors.h"
#include "te/Operation.h"

#ifdef BOUNDSCOPE_WITH_LLVM
#include "codegen/llvm/LlvmCodegen.h"
#endif

#include <algorithm>

namespace bs {

using namespace run_detail;

const char* runTargetName(RunTarget target) {
    switch (target) {
    case RunTarget::Cpu:
        return "cpu";
    case RunTarget::Cuda:
        return "cuda";
    case RunTarget::Emulate:
        return "emulate";
    }
    return "?";
}

std::optional<RunTarget> parseRunTarget(const std::string& name) {
    for (RunTarget t : {RunTarget::Cpu, RunTarget::Cuda, RunTarget::Emulate})
        if (name == runTargetName(t))
            return t;
    return std::nullopt;
}

bool runHasLlvm() { return CpuExecutable::available(); }

namespace {

/// The widest vector the cpu target's code generator takes: LLVM's instruction selection
/// fails on vectors of tens of thousands of lanes (a crash, or "SmallVector unable to grow").
constexpr int64_t kMaxCpuVectorLanes = 4096;
/// The most copies of a loop body an unroll may make for a compiler (LLVM, nvcc): lowering
/// writes each out, and compiling 200,000 of them takes longer than anyone waits.
constexpr int64_t kMaxCompiledUnroll = 4096;

/// A vectorized loop wider than the cpu target takes, or an unrolled one longer than a compiler
/// should see, refused at its vectorize or unroll before the compiler runs.
void refuseOversizedLoops(const LowerResult& lowered, RunTarget target) {
    for (const Stage& stage : lowered.normalized.stages()) {
        for (const IterVar& iv : stage->leafIterVars) {
            const IterVarAttr* attr = stage.attrOf(iv);
            auto range = lowered.bounds.bounds.find(iv);
            if (!attr || range == lowered.bounds.bounds.end())
                continue;
            const bool vector =
                attr->iterType == IterVarType::Vectorized && target == RunTarget::Cpu;
            const bool unroll =
                attr->iterType == IterVarType::Unrolled && target != RunTarget::Emulate;
            const int64_t limit = vector ? kMaxCpuVectorLanes : kMaxCompiledUnroll;
            const std::optional<int64_t> count = asConstInt(range->second.extent);
            if ((!vector && !unroll) || !count || *count <= limit)
                continue;
            const std::string what = vector ? "vectorize" : "unroll";
            Diagnostic d{what + " of loop '" + iv->var.name() + "' in stage '" + stage.name() +
                             "' makes " + (vector ? "vectors of " : "") + std::to_string(*count) +
                             (vector ? " lanes" : " copies of its body") + "; the " +
                             runTargetName(target) + " target's code generator takes at most " +
                             std::to_string(limit),
                         attr->location};
            d.subject = loopSubject(vector ? "vector-too-wide" : "unroll-too-long", stage, iv);
            d.fix = "split the loop and " + what + " the inner part: outer, inner = s[" +
                    stage.name() + "].split(" + scriptNameOf(stage, iv) + ", factor=16); s[" +
                    stage.name() + "]." + what + "(inner)";
            throw UserError(std::move(d));
        }
    }
}

/// CUDA's limits on a thread block (every GPU since compute capability 2.0): at most 1,024
/// threads, along x and y at most 1,024 each, along z at most 64.
constexpr int64_t kMaxBlockThreads = 1024;
constexpr int64_t kMaxBlockExtent[3] = {1024, 1024, 64};

/// The leaf of a stage bound to `tag` over `extent` iterations (the bind that sets a kernel's
/// launch extent), else any leaf bound to `tag`; `stage` is left undefined when none is.
IterVar boundLeaf(const LowerResult& lowered, const std::string& tag, int64_t extent,
                  Stage* stage) {
    IterVar any;
    for (const Stage& s : lowered.normalized.stages()) {
        for (const IterVar& iv : s->leafIterVars) {
            const IterVarAttr* attr = s.attrOf(iv);
            if (!attr || !attr->bindThread.defined() || attr->bindThread->threadTag != tag)
                continue;
            auto range = lowered.bounds.bounds.find(iv);
            const bool exact =
                range != lowered.bounds.bounds.end() && asConstInt(range->second.extent) == extent;
            if (exact || !any.defined()) {
                any = iv;
                *stage = s;
            }
            if (exact)
                return iv;
        }
    }
    return any;
}

/// A kernel whose thread block is larger than CUDA launches, refused for the cuda target and
/// for the emulation (which checks what a GPU would run): on a GPU the launch fails with
/// "invalid argument", and the emulation would run it happily. The block is the kernel's launch
/// (the largest extent of each threadIdx axis over its stages); the message and the fix name
/// the bind that sets the axis over the limit, or the widest axis.
void refuseOversizedBlocks(const LowerResult& lowered, RunTarget target,
                           const std::vector<int64_t>& sizes) {
    const LoweredFunc& func = lowered.func;
    if (target == RunTarget::Cpu || !usesGpuThreads(func))
        return;
    HostDeviceSplit split = splitHostDevice(func.deviceCode(), func.name, kernelArguments(func));
    // A symbolic extent takes the run's sizes.
    VarMap<int64_t> scalars;
    for (size_t i = 0; i < sizes.size() && i < func.scalarParams.size(); ++i)
        scalars[func.scalarParams[i]] = sizes[i];
    auto valueOf = [&](const Expr& e) -> std::optional<int64_t> {
        try {
            return hostValue(e, scalars);
        } catch (const UserError&) {
            return std::nullopt; // the executor says what is wrong with it
        }
    };
    for (const DeviceKernel& kernel : split.kernels) {
        int64_t threads = 1;
        std::string axes;
        int over = -1, widest = -1;
        std::array<int64_t, 3> extent{1, 1, 1};
        for (int axis = 0; axis < 3; ++axis) {
            const std::optional<int64_t> count = valueOf(kernel.blockDim[size_t(axis)]);
            if (!count || !kernel.boundAxes[size_t(3 + axis)])
                continue;
            extent[size_t(axis)] = *count;
            threads *= *count;
            axes += std::string(axes.empty() ? "" : ", ") + kThreadTags[size_t(3 + axis)] + " " +
                    std::to_string(*count);
            if (over < 0 && *count > kMaxBlockExtent[axis])
                over = axis;
            if (widest < 0 || *count > extent[size_t(widest)])
                widest = axis;
        }
        if (over < 0 && threads <= kMaxBlockThreads)
            continue;
        const int axis = over >= 0 ? over : widest;
        const std::string tag = kThreadTags[size_t(3 + axis)];
        Stage stage;
        IterVar leaf = boundLeaf(lowered, tag, extent[size_t(axis)], &stage);
        std::string where = stage.defined() ? "stage '" + stage.name() + "'" : "the kernel";
        Diagnostic d{
            where + " runs in a thread block of " + std::to_string(threads) + " threads (" + axes +
                "); CUDA launches " +
                (over >= 0
                     ? "at most " + std::to_string(kMaxBlockExtent[axis]) + " threads along " + tag
                     : "at most " + std::to_string(kMaxBlockThreads) + " threads in a block"),
            SourceLocation()};
        if (stage.defined()) {
            d.location = stage.attrOf(leaf)->location;
            d.subject = loopSubject("block-too-large", stage, leaf);
            d.fix = "bind a smaller loop to " + tag + ": split " + scriptNameOf(stage, leaf) +
                    " with a smaller factor (s[" + stage.name() + "].split(..., factor=" +
                    std::to_string(std::min<int64_t>(kMaxBlockExtent[axis], 256)) +
                    ")) and bind the inner part";
        }
        throw UserError(std::move(d));
    }
}

/// Refuses a target the schedule cannot run on, before anything is compiled.
void checkTargetFits(const LowerResult& lowered, RunTarget target) {
    const LoweredFunc& func = lowered.func;
    refuseOversizedLoops(lowered, target);
    bool gpu = usesGpuThreads(func);
    if (target == RunTarget::Cpu && gpu)
        throw UserError("the schedule of '" + func.name +
                        "' binds loops to GPU threads (blockIdx/threadIdx), so it cannot run on "
                        "the CPU target; run it on the cuda target, or on the emulate target "
                        "(GPU emulation on the CPU)");
    if (target == RunTarget::Cuda && !gpu)
        throw UserError("the schedule of '" + func.name +
                        "' binds no loop to a GPU thread (blockIdx/threadIdx): the cuda target "
                        "needs a GPU schedule (bind the outer loops with s[T].bind); the cpu "
                        "target runs it");
}

std::unique_ptr<Executor> makeExecutor(RunTarget target, const LoweredFunc& func,
                                       const std::vector<int64_t>& sizes) {
    switch (target) {
    case RunTarget::Cpu:
        return makeLlvmExecutor(func, sizes);
    case RunTarget::Cuda:
        return makeCudaExecutor(func, sizes);
    case RunTarget::Emulate:
        break;
    }
    return makeEmulationExecutor(func, sizes);
}

void summarizeTimes(RunReport& report) {
    std::vector<double> sorted = report.timesMs;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.empty())
        return;
    size_t n = sorted.size();
    report.bestMs = sorted.front();
    report.medianMs = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    report.spread = report.medianMs > 0 ? (sorted.back() - sorted.front()) / report.medianMs : 0;
    if (report.bestMs > 0) {
        report.gflops = double(report.flops) / (report.bestMs * 1e6);
        report.gbps = double(report.bytes) / (report.bestMs * 1e6);
    }
}

/// The same computation with no schedule: create_schedule of the function's computed arguments,
/// lowered with the same arguments (so the same buffers and symbolic sizes, in the same order).
LowerResult lowerUnscheduled(const LoweredFunc& func, LowerOptions options) {
    // Every scalar parameter of the scheduled function, even those only its schedule uses (a
    // te.var split factor), so that the sizes bind the same parameters in the same order.
    options.scalarArgs = func.scalarParams;
    // Compact storage is what a check of a compact program verifies: the reference stores
    // every buffer as tight's rectangle.
    if (options.rules == BoundRules::Compact)
        options.rules = BoundRules::Tight;
    std::vector<Operation> outputs;
    for (const Tensor& t : func.args)
        if (!t.op.as<PlaceholderOpNode>() &&
            std::none_of(outputs.begin(), outputs.end(),
                         [&](const Operation& op) { return op.same_as(t.op); }))
            outputs.push_back(t.op);
    return lower(createSchedule(outputs), func.args, options);
}

/// Runs the reference of RunKernel.h's file comment on `expected` (a copy of the inputs) and
/// returns its name.
std::string runReference(const LoweredFunc& func, const RunRequest& request,
                         const std::vector<int64_t>& sizes, bool small, bool kernelInterpreted,
                         std::vector<Buffer>& expected) {
    // A compact program is checked against the unscheduled one, whose storage is not compacted.
    if (small && !kernelInterpreted && request.lowerOptions.rules != BoundRules::Compact) {
        makeInterpreterExecutor(func, sizes)->run(expected, 0, 0);
        return "interpreter";
    }
    LowerResult reference = lowerUnscheduled(func, request.lowerOptions);
    if (!small && runHasLlvm()) {
        makeLlvmExecutor(reference.func, sizes)->run(expected, 0, 0);
        return "unscheduled program (LLVM JIT)";
    }
    makeInterpreterExecutor(reference.func, sizes)->run(expected, 0, 0);
    return "unscheduled program (interpreter)";
}

/// What stops the interpreter running `func` on a copy of `inputs` (an out-of-bounds access
/// named with its statement), or empty when it runs to the end.
std::string interpreterStop(const LoweredFunc& func, const std::vector<int64_t>& sizes,
                            std::vector<Buffer> inputs) {
    try {
        makeInterpreterExecutor(func, sizes)->run(inputs, 0, 0);
    } catch (const UserError& e) {
        return e.what();
    }
    return std::string();
}

void checkResult(const LoweredFunc& func, const RunRequest& request,
                 const std::vector<int64_t>& sizes, const WorkCount& work, bool kernelInterpreted,
                 std::vector<Buffer> expected, const std::vector<Buffer>& actual,
                 RunReport& report) {
    report.checked = true;
    bool hasOutput = std::any_of(func.args.begin(), func.args.end(),
                                 [](const Tensor& t) { return !t.op.as<PlaceholderOpNode>(); });
    if (!hasOutput) {
        report.passed = true;
        report.checkDetail = "'" + func.name + "' computes no argument: nothing to compare";
        return;
    }
    // The reference's outputs start from other random values than the kernel's, so that an
    // element neither writes (the same IR run by the interpreter) shows as a mismatch.
    for (size_t i = 0; i < func.args.size(); ++i)
        if (!func.args[i].op.as<PlaceholderOpNode>())
            expected[i].fillRandom(request.seed * 1000003 + func.args.size() + i);
    bool small = work.iterations <= request.interpreterCheckLimit;
    // A small compact program also runs in the interpreter, which stops on an access outside
    // its compact buffers (compiled code would read or write past them silently).
    if (small && !kernelInterpreted && request.lowerOptions.rules == BoundRules::Compact) {
        std::string stop = interpreterStop(func, sizes, expected);
        if (!stop.empty()) {
            report.reference = "interpreter";
            report.passed = false;
            report.checkDetail =
                "the interpreter, running the same compact program, stops at: " + stop;
            return;
        }
    }
    try {
        report.reference = runReference(func, request, sizes, small, kernelInterpreted, expected);
    } catch (const UserError& e) {
        // The interpreter stops on what compiled code would do silently (an out-of-bounds
        // access, a read of an element never written): that is the check's finding.
        report.reference = small && request.lowerOptions.rules != BoundRules::Compact
                               ? "interpreter"
                               : "unscheduled program";
        report.passed = false;
        report.checkDetail = std::string("the reference run stopped: ") + e.what();
        return;
    }
    report.passed =
        compareOutputs(func, actual, expected, longestReduction(func, sizes), &report.checkDetail);
}

} // namespace

RunReport runKernel(const LowerResult& lowered, const RunRequest& request) {
    const LoweredFunc& func = lowered.func;
    if (request.repeat < 1)
        throw UserError("the number of timed runs must be at least 1, got " +
                        std::to_string(request.repeat));
    RunReport report;
    report.target = request.target;
    std::vector<int64_t> sizes = bindSizes(func, request.sizes);
    for (size_t i = 0; i < sizes.size(); ++i)
        report.sizes.emplace_back(func.scalarParams[i].name(), sizes[i]);
    checkTargetFits(lowered, request.target);
    refuseOversizedBlocks(lowered, request.target, sizes); // the source may still be printed

    std::vector<Buffer> initial = makeArgumentBuffers(func, sizes, request.seed);
    std::unique_ptr<Executor> executor = makeExecutor(request.target, func, sizes);
    report.compileMs = executor->compileMs;
    report.device = executor->device;
    report.interpreted = executor->interpreted;
    std::vector<Buffer> args = initial;
    WorkCount work = countWork(func, sizes);
    try {
        executor->progress = request.progress;
        report.timesMs = executor->run(args, request.repeat, request.timeBudgetMs);
    } catch (const UserError& e) {
        // A compiled kernel that stops (a memory fault, a failed assert) says little about
        // where; the interpreter names the access, when the work is small enough to run there.
        if (executor->interpreted || work.iterations > request.interpreterCheckLimit)
            throw;
        std::string where = interpreterStop(func, sizes, initial);
        if (where.empty())
            throw;
        throw UserError(std::string(e.what()) + "; the interpreter, running the same program, " +
                        "stops at: " + where);
    }

    report.flops = work.flops;
    report.declaredFlops = work.declaredFlops;
    report.flopsExecuted = work.flopsExecuted;
    report.bytes = work.bytes;
    summarizeTimes(report);
    if (request.check) {
        // A program lowered under compact is checked as one, whatever rules the request names.
        RunRequest checked = request;
        if (!lowered.compactions.empty())
            checked.lowerOptions.rules = BoundRules::Compact;
        checkResult(func, checked, sizes, work, executor->interpreted, std::move(initial), args,
                    report);
    }
    return report;
}

std::string printKernelLlvmIr(const LowerResult& lowered) {
    checkTargetFits(lowered, RunTarget::Cpu);
#ifdef BOUNDSCOPE_WITH_LLVM
    return printLlvmIr(cpuKernelOf(lowered.func));
#else
    throw UserError("this build of boundscope has no LLVM code generator (configured with "
                    "BOUNDSCOPE_WITH_LLVM=OFF): the llvm target is not available");
#endif
}

std::string printKernelCudaSource(const LowerResult& lowered) {
    return buildKernelCudaModule(lowered).source;
}

CudaModule buildKernelCudaModule(const LowerResult& lowered, const CudaCodegenOptions& options) {
    const LoweredFunc& func = lowered.func;
    checkTargetFits(lowered, RunTarget::Cuda);
    return buildCudaModule(func.deviceCode(), func.name, kernelArguments(func), options);
}

} // namespace bs
