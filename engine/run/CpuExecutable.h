/// \file
/// A CPU kernel compiled for this process: the one way Boundscope runs generated CPU code. The
/// CLI and the app (runKernel) and `tvm.build` (the Python bindings) all compile through it, so
/// they share one LLVM JIT (codegen/llvm) linked to engine/runtime's kernel runtime.
///
///     CpuExecutable add(CpuKernel{"add", {a, b, c}, {n}, body});
///     add.run({A.data(), B.data(), C.data()}, {int64_t(A.size())});
#pragma once

#include "codegen/llvm/LlvmCodegen.h" // CpuKernel, JitTimings (no LLVM header)

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bs {

class CpuExecutable {
public:
    /// Whether this build compiles CPU kernels (it was built with LLVM).
    static bool available();

    /// Compiles `kernel` (the timings cover generating, optimizing and machine code). Throws
    /// UserError when this build has no LLVM, or with LLVM's reason when it refuses the kernel.
    explicit CpuExecutable(const CpuKernel& kernel);
    /// Move-only; a moved-from CpuExecutable may only be destroyed or assigned to.
    CpuExecutable(CpuExecutable&&) noexcept;
    CpuExecutable& operator=(CpuExecutable&&) noexcept;
    ~CpuExecutable();

    /// Runs the kernel on `buffers` (one data pointer per CpuKernel::buffers entry) and `scalars`
    /// (one per CpuKernel::scalars entry); throws UserError with the reason when the counts
    /// differ or the kernel stops early (JitKernel::run). Several threads may run it at once.
    void run(const std::vector<void*>& buffers, const std::vector<int64_t>& scalars = {}) const;

    const JitTimings& timings() const;
    /// The CPU the code was compiled for (LLVM's name, e.g. `skylake-avx512`).
    const std::string& cpuName() const;

private:
    struct Compiled;
    std::unique_ptr<Compiled> m_compiled;
};

} // namespace bs
