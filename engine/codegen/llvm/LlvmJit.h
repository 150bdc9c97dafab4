/// \file
/// Running generated CPU kernels: an ORC LLJIT (LLVM 14) for the host compiles an LlvmModule
/// to machine code in memory and hands back a callable kernel. Each kernel owns its own
/// ResourceTracker, so its code and data are freed when the kernel handle is destroyed and
/// memory does not grow with every edit of a schedule (DESIGN.md, "Running kernels").
///
///     LlvmJit jit(cpuKernelRuntime());     // runtime/KernelRuntime.h
///     JitKernel add = jit.compile(CpuKernel{"add", {a, b, c}, {n}, body});
///     add.run({A.data(), B.data(), C.data()}, {int64_t(A.size())});
///
/// Both types hide LLVM: callers need no LLVM headers. The JIT runs nothing of its own: the
/// functions kernels call, the fault guard a kernel runs under and the packed calls' errors are
/// the KernelRuntime it is made with (ir/KernelAbi.h), which engine/runtime defines.
#pragma once

#include "codegen/llvm/LlvmCodegen.h"
#include "ir/KernelAbi.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bs {

/// A compiled kernel. Move-only; destroying it frees its machine code (other kernels of the
/// same LlvmJit are not affected, and the LlvmJit may be destroyed first).
class JitKernel {
public:
    struct State;

    explicit JitKernel(std::unique_ptr<State> state);
    JitKernel(JitKernel&&) noexcept;
    JitKernel& operator=(JitKernel&&) noexcept;
    ~JitKernel();

    /// Runs the kernel on `buffers` (one data pointer per CpuKernel::buffers entry, each large
    /// enough for every element the kernel touches) and `scalars` (one per CpuKernel::scalars
    /// entry; floats packed with packFloatScalar). Throws UserError when the counts differ or
    /// when the kernel stops early (a failed assert, an allocation that failed), with the
    /// reason. Several threads may run the same kernel at once.
    void run(const std::vector<void*>& buffers, const std::vector<int64_t>& scalars = {}) const;
    /// The raw entry point: returns the kernel's status (0 on success); no checks.
    int32_t call(void* const* buffers, const int64_t* scalars) const;

    const std::string& name() const;
    size_t bufferCount() const;
    size_t scalarCount() const;
    /// The message of a non-zero status `call` returned.
    const std::string& failureMessage(int32_t status) const;
    const JitTimings& timings() const;
    /// The CPU the code was compiled for (LLVM's name, e.g. `skylake-avx512`).
    const std::string& cpuName() const;

private:
    std::unique_ptr<State> m_state;
};

/// An ORC LLJIT for the host CPU. Thread-safe: kernels may be compiled from several threads.
class LlvmJit {
public:
    struct Impl;

    /// A JIT whose kernels call `runtime`'s functions and run under its fault guard. Throws
    /// UserError when LLVM cannot make a JIT for this CPU.
    explicit LlvmJit(const KernelRuntime& runtime);
    ~LlvmJit();
    LlvmJit(const LlvmJit&) = delete;
    LlvmJit& operator=(const LlvmJit&) = delete;

    /// Compiles a generated module to machine code. Throws UserError with LLVM's reason when
    /// that fails (e.g. an extern function no library defines).
    JitKernel compile(LlvmModule module);
    /// generateLlvm then compile; the timings cover both.
    JitKernel compile(const CpuKernel& kernel, const LlvmCodegenOptions& options = {});

    /// Makes `address` the definition of the C function `name` that kernels may call (a
    /// CallKind::Extern call). Functions of the process itself (libc, libm) are found without
    /// this. Throws UserError when `name` is already defined.
    void defineSymbol(const std::string& name, void* address);

private:
    std::shared_ptr<Impl> m_impl;
};

} // namespace bs
