#include "run/CpuExecutable.h"

#include "support/Check.h"
#include "support/Diagnostic.h"

#ifdef BOUNDSCOPE_WITH_LLVM
#include "codegen/llvm/LlvmJit.h"
#include "runtime/KernelRuntime.h"
#endif

namespace bs {

#ifdef BOUNDSCOPE_WITH_LLVM

namespace {

/// One JIT for the process: its construction (the target lookup) is paid once; every kernel
/// still has its own resource tracker (LlvmJit.h), freed with its CpuExecutable.
LlvmJit& processJit() {
    static LlvmJit jit(cpuKernelRuntime());
    return jit;
}

} // namespace

struct CpuExecutable::Compiled {
    JitKernel kernel;
};

bool CpuExecutable::available() { return true; }

CpuExecutable::CpuExecutable(const CpuKernel& kernel)
    : m_compiled(std::make_unique<Compiled>(Compiled{processJit().compile(kernel)})) {}

void CpuExecutable::run(const std::vector<void*>& buffers,
                        const std::vector<int64_t>& scalars) const {
    m_compiled->kernel.run(buffers, scalars);
}

const JitTimings& CpuExecutable::timings() const { return m_compiled->kernel.timings(); }

const std::string& CpuExecutable::cpuName() const { return m_compiled->kernel.cpuName(); }

#else

// Built without LLVM: nothing compiles, so no CpuExecutable exists to run.
struct CpuExecutable::Compiled {
    JitTimings timings;
    std::string cpuName;
};

bool CpuExecutable::available() { return false; }

CpuExecutable::CpuExecutable(const CpuKernel& kernel) {
    throw UserError("cannot compile kernel '" + kernel.name +
                    "' for the CPU: this Boundscope was built without LLVM (install llvm-14-dev "
                    "and configure with -DBOUNDSCOPE_WITH_LLVM=ON)");
}

void CpuExecutable::run(const std::vector<void*>&, const std::vector<int64_t>&) const {
    BS_UNREACHABLE("a CpuExecutable exists only when built with LLVM");
}

const JitTimings& CpuExecutable::timings() const { return m_compiled->timings; }

const std::string& CpuExecutable::cpuName() const { return m_compiled->cpuName; }

#endif

CpuExecutable::CpuExecutable(CpuExecutable&&) noexcept = default;
CpuExecutable& CpuExecutable::operator=(CpuExecutable&&) noexcept = default;
CpuExecutable::~CpuExecutable() = default;

} // namespace bs
