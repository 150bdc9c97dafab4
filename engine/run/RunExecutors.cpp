/// \file
/// The backends a kernel runs on (issue 6): the LLVM JIT on the CPU (only when built with
/// LLVM), CUDA through run/CudaExecutor, and the reference interpreter with its GPU
/// emulation. Each compiles once and then runs the function on the engine's Buffers.
#include "run/RunInternal.h"

#include "codegen/CudaCodegen.h"
#include "lower/GpuOnCpu.h"
#include "run/CudaExecutor.h"
#include "runtime/Interpreter.h"
#include "runtime/ThreadPool.h"
#include "support/Cancellation.h"
#include "support/Check.h"

#include "run/CpuExecutable.h"

#include <algorithm>
#include <chrono>

namespace bs::run_detail {

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Runs `once` up to `repeat` times timed, until they took `budgetMs`. With `warmUp` (compiled
/// code, whose first run pays for page faults and cold caches) one untimed run comes first;
/// without it (the interpreter, whose runs all cost the same) the first run is timed, and at
/// least one runs.
template <typename F>
std::vector<double> timeRuns(int repeat, double budgetMs, bool warmUp, F&& once,
                             const std::function<void(int, int)>& progress = {}) {
    if (warmUp)
        once();
    else
        repeat = std::max(repeat, 1);
    std::vector<double> times;
    double total = 0;
    for (int i = 0; i < repeat && (i == 0 || total < budgetMs); ++i) {
        throwIfCancelled();
        Clock::time_point start = Clock::now();
        once();
        times.push_back(millisecondsSince(start));
        total += times.back();
        if (progress)
            progress(i + 1, repeat);
    }
    return times;
}

class LlvmExecutor : public Executor {
public:
    /// `what` names the way it runs in RunReport::device: `LLVM JIT`.
    LlvmExecutor(const CpuKernel& kernel, std::vector<int64_t> sizes, const std::string& what)
        : m_kernel(kernel), m_sizes(std::move(sizes)) {
        BS_CHECK(m_sizes.size() == kernel.scalars.size())
            << m_sizes.size() << " sizes for " << kernel.scalars.size() << " scalar parameters";
        compileMs = m_kernel.timings().totalSeconds() * 1000.0;
        device = m_kernel.cpuName() + " (" + what + ", " +
                 std::to_string(ThreadPool::global().threadCount()) + " threads)";
    }

    std::vector<double> run(std::vector<Buffer>& args, int repeat, double budgetMs) override {
        std::vector<void*> data;
        for (Buffer& b : args)
            data.push_back(b.data());
        return timeRuns(
            repeat, budgetMs, /*warmUp=*/true, [&] { m_kernel.run(data, m_sizes); }, progress);
    }

private:
    CpuExecutable m_kernel;
    std::vector<int64_t> m_sizes;
};

class CudaRunner : public Executor {
public:
    CudaRunner(const LoweredFunc& func, const std::vector<int64_t>& sizes) {
        CudaModule module = buildCudaModule(func.deviceCode(), func.name, kernelArguments(func));
        Clock::time_point start = Clock::now();
        m_executor = std::make_unique<CudaExecutor>(std::move(module.program), module.source);
        compileMs = millisecondsSince(start);
        device = CudaRuntime::instance().device().name + " (CUDA, " + binary().arch + ")";
        m_bufferVars = func.argBuffers;
        for (size_t i = 0; i < func.scalarParams.size(); ++i)
            m_scalars[func.scalarParams[i]] = sizes[i];
    }

    std::vector<double> run(std::vector<Buffer>& args, int repeat, double) override {
        VarMap<Buffer*> buffers;
        for (size_t i = 0; i < args.size(); ++i)
            buffers[m_bufferVars[i]] = &args[i];
        return m_executor->run(buffers, m_scalars, repeat).milliseconds;
    }

private:
    const CudaBinary& binary() const { return m_executor->binary(); }

    std::unique_ptr<CudaExecutor> m_executor;
    std::vector<Var> m_bufferVars;
    VarMap<int64_t> m_scalars;
};

class InterpreterExecutor : public Executor {
public:
    InterpreterExecutor(const LoweredFunc& func, const std::vector<int64_t>& sizes)
        : m_func(func), m_sizes(sizes) {
        BS_CHECK(m_sizes.size() == func.scalarParams.size())
            << m_sizes.size() << " sizes for " << func.scalarParams.size() << " scalar parameters";
        device = usesGpuThreads(func) ? "interpreter (GPU emulation)" : "interpreter";
        interpreted = true;
    }

    std::vector<double> run(std::vector<Buffer>& args, int repeat, double budgetMs) override {
        Interpreter interpreter;
        for (size_t i = 0; i < args.size(); ++i)
            interpreter.bindBuffer(m_func.argBuffers[i], args[i]);
        for (size_t i = 0; i < m_sizes.size(); ++i)
            interpreter.bindScalar(m_func.scalarParams[i], m_sizes[i]);
        return timeRuns(
            repeat, budgetMs, /*warmUp=*/false, [&] { interpreter.run(m_func.deviceCode()); },
            progress);
    }

private:
    const LoweredFunc& m_func;
    std::vector<int64_t> m_sizes;
};

} // namespace

std::unique_ptr<Executor> makeLlvmExecutor(const LoweredFunc& func,
                                           const std::vector<int64_t>& sizes) {
#ifdef BOUNDSCOPE_WITH_LLVM
    return std::make_unique<LlvmExecutor>(cpuKernelOf(func), sizes, "LLVM JIT");
#else
    (void)func;
    (void)sizes;
    throw UserError("this build of boundscope has no LLVM JIT (configured with "
                    "BOUNDSCOPE_WITH_LLVM=OFF): the cpu target is not available; the emulate "
                    "target runs the kernel in the interpreter");
#endif
}

std::unique_ptr<Executor> makeCudaExecutor(const LoweredFunc& func,
                                           const std::vector<int64_t>& sizes) {
    return std::make_unique<CudaRunner>(func, sizes);
}

std::unique_ptr<Executor> makeInterpreterExecutor(const LoweredFunc& func,
                                                  const std::vector<int64_t>& sizes) {
    return std::make_unique<InterpreterExecutor>(func, sizes);
}

std::unique_ptr<Executor> makeEmulationExecutor(const LoweredFunc& func,
                                                const std::vector<int64_t>& sizes) {
    if (!usesGpuThreads(func))
        return makeInterpreterExecutor(func, sizes);
#ifdef BOUNDSCOPE_WITH_LLVM
    GpuOnCpu cpu = lowerGpuForCpu(func.deviceCode(), func.name, kernelArguments(func));
    std::string refusal = cpu.refusal;
    if (cpu.body.defined()) {
        try {
            return std::make_unique<LlvmExecutor>(
                CpuKernel{func.name, func.argBuffers, func.scalarParams, cpu.body}, sizes,
                "GPU emulation compiled by LLVM");
        } catch (const UserError& e) {
            refusal = e.what();
        }
    }
    std::unique_ptr<Executor> interpreter = makeInterpreterExecutor(func, sizes);
    interpreter->device += "; not compiled: " + refusal;
    return interpreter;
#else
    return makeInterpreterExecutor(func, sizes);
#endif
}

} // namespace bs::run_detail
