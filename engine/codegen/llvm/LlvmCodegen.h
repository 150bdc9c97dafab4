/// \file
/// CPU code generation: flattened loop IR (engine/lower's output: allocate, store, load on
/// buffer Vars, loops of every kind, lets, ifs, vectors) -> an LLVM module for the host CPU,
/// optimized at O3 for the host's CPU name and features (AVX-512 where present).
///
/// The generated kernel has one entry point with a packed calling convention, like TVM's
/// `TVMBackendPackedCFunc` reduced to what a CPU kernel needs:
///
///     int32_t name(void** buffers, int64_t* scalars)
///
/// `buffers[i]` is the data of `CpuKernel::buffers[i]`; `scalars[i]` holds the value of
/// `CpuKernel::scalars[i]` (an integer converted to the variable's type, or a float stored as
/// the bits of a double, see `packFloatScalar`). It returns 0, or k > 0 when the kernel stopped
/// early for the reason `LlvmModule::failureMessage(k)` (a failed assert, an allocation that
/// failed). The entry point unpacks its arguments and calls an internal function that takes
/// each buffer as a `noalias` pointer, so distinct buffer parameters must not overlap (TVM
/// assumes the same).
///
/// How loops are compiled:
/// - `vectorized` loops with a constant extent go through engine/lower's vectorizeLoops, and
///   the Ramp/Broadcast vectors it leaves (or that were already there) become LLVM vectors:
///   contiguous accesses are vector loads and stores (masked when predicated), others gathers
///   and scatters; with a symbolic extent the loop is serial with LLVM's vectorize hint;
/// - `unrolled` loops with a constant extent are unrolled (engine/lower's unrollLoops), with a
///   symbolic extent they get LLVM's unroll hint;
/// - `parallel` loops are outlined into a closure run by runtime/ThreadPool (a nested parallel
///   loop runs serially inside its chunk);
/// - `serial` loops are left to LLVM (which may vectorize and unroll them at O3);
/// - a `virtual_thread` attribute left by lowering runs its copies in turn, as a loop;
/// - thread-bound loops and `thread_extent` attributes are GPU code and are refused.
/// Allocations of a constant size up to `LlvmCodegenOptions::maxStackBytes` live on the stack,
/// the others on the heap (64-byte aligned), freed when their scope ends.
///
/// Integer arithmetic follows TVM: `/` and `%` truncate, `floordiv`/`floormod` round towards
/// minus infinity on signed types, shifts and bitwise intrinsics work on the bits, and
/// signed 32/64-bit add, sub and mul are `nsw` (overflow is undefined, as in TVM).
#pragma once

#include "ir/Stmt.h"
#include "lower/Lower.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bs {

/// Where the time of one compile went (LlvmJit, run/CpuExecutable).
struct JitTimings {
    double buildSeconds = 0;       ///< flattened IR -> LLVM IR (with verification)
    double optimizeSeconds = 0;    ///< the O3 pipeline
    double machineCodeSeconds = 0; ///< LLVM IR -> machine code, linked in memory
    double totalSeconds() const { return buildSeconds + optimizeSeconds + machineCodeSeconds; }
};

/// One kernel to compile: the flattened body and its parameters.
struct CpuKernel {
    /// The entry point's symbol name: a C identifier (letters, digits, `_`).
    std::string name;
    /// Handle-typed Vars: the buffers the kernel reads and writes, in argument order.
    std::vector<Var> buffers;
    /// Integer, bool or float Vars bound at call time (symbolic shapes, scalar arguments).
    std::vector<Var> scalars;
    /// Flattened IR: no realize, tensor store or tensor read is left.
    Stmt body;
};

/// The kernel of a lowered function: its final IR, its argument buffers and its symbolic shape
/// variables as scalars, named `name` (the function's name when empty).
CpuKernel cpuKernelOf(const LoweredFunc& func, const std::string& name = "");

struct LlvmCodegenOptions {
    /// Run the O3 pipeline (the kernel's IR as built is printed when false).
    bool optimize = true;
    /// Constant-size allocations up to this many bytes go on the stack.
    int64_t maxStackBytes = 64 * 1024;
};

/// A generated LLVM module, owning its LLVM context. Move-only; the LLVM objects stay hidden
/// so that no module outside engine/codegen/llvm sees LLVM headers.
class LlvmModule {
public:
    struct Impl;

    explicit LlvmModule(std::unique_ptr<Impl> impl);
    LlvmModule(LlvmModule&&) noexcept;
    LlvmModule& operator=(LlvmModule&&) noexcept;
    ~LlvmModule();

    /// The module's textual LLVM IR.
    std::string printLlvmIr() const;
    /// The symbol of the packed entry point (the kernel's name).
    const std::string& entryName() const;
    /// The number of buffer and scalar arguments the entry point reads.
    size_t bufferCount() const;
    size_t scalarCount() const;
    /// Why the kernel returned status `code` (> 0): the assert's message or the failed
    /// allocation, e.g. `allocation of 'B' (4096 bytes) failed`.
    const std::string& failureMessage(int code) const;
    /// The host CPU the code was generated for, e.g. `skylake-avx512`.
    const std::string& cpuName() const;
    /// Seconds spent building the IR and optimizing it.
    double buildSeconds() const;
    double optimizeSeconds() const;

    /// For LlvmJit: hands over the implementation, leaving this module empty.
    std::unique_ptr<Impl> take();

private:
    std::unique_ptr<Impl> m_impl;
};

/// Generates (and by default optimizes) the module of `kernel` for the host CPU.
/// Throws UserError naming the node and the reason when the IR cannot be compiled: a node left
/// from before flattening, a GPU construct, an unknown intrinsic or math function, a variable
/// used but never bound, a vectorized loop with a non-constant extent of lanes, and so on.
LlvmModule generateLlvm(const CpuKernel& kernel, const LlvmCodegenOptions& options = {});

/// The LLVM IR of `kernel`, as `boundscope codegen --target llvm` prints it.
std::string printLlvmIr(const CpuKernel& kernel, const LlvmCodegenOptions& options = {});

/// The symbol of the metadata string writeKernelObject puts beside the entry point.
inline constexpr const char* kKernelMetadataSymbol = "boundscope_kernel_metadata";

/// Writes `kernel`, compiled for the host CPU as position-independent code, to the object file
/// `path` (through a temporary file, so nothing partial is left), with `metadata` as the
/// NUL-terminated string kKernelMetadataSymbol beside the entry point, followed by one line
/// `failure MESSAGE` per status code the kernel may return (1, 2, ...): a shared library linked
/// from it (tvm.contrib.cc.create_shared) is loaded and called by tvm.runtime.load_module.
/// Throws UserError when the kernel calls Boundscope's runtime (a parallel loop, a heap
/// allocation, a packed call: only the JIT provides it) or the file cannot be written.
void writeKernelObject(const CpuKernel& kernel, const std::string& metadata,
                       const std::string& path);

/// Packs a float scalar argument into its int64 slot (the bits of the double), the form the
/// entry point reads for float-typed scalar Vars.
int64_t packFloatScalar(double value);

} // namespace bs
