/// \file
/// The contract between generated CPU kernels and the runtime that runs them: the C functions a
/// kernel calls (a parallel loop, aligned heap memory, a packed function) and their symbol
/// names, the codes of a packed call's arguments, and the statuses of a kernel that faulted.
/// engine/codegen emits calls to these names; engine/runtime defines them
/// (runtime/KernelRuntime.h); whoever makes a JIT (engine/run, the Python bindings) hands the
/// runtime's definitions to it as a KernelRuntime, so code generation links nothing that runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
/// A parallel loop's closure: runs iterations [begin, end) with the captured values in
/// `closure`, returns 0 or a kernel status code.
using BsParallelChunk = int32_t (*)(int64_t begin, int64_t end, void* closure);
}

namespace bs {

/// `int32_t f(BsParallelChunk chunk, void* closure, int64_t begin, int64_t end)`: runs `chunk`
/// over [begin, end) on the thread pool; returns the first non-zero status a chunk returned.
inline constexpr const char* kParallelForSymbol = "bs_llvm_parallel_for";
/// `void* f(int64_t bytes)`: `bytes` bytes aligned to 64, or null when out of memory.
inline constexpr const char* kAllocSymbol = "bs_llvm_alloc";
/// `void f(void* pointer)`: frees what kAllocSymbol returned.
inline constexpr const char* kFreeSymbol = "bs_llvm_free";
/// `int32_t f(const char* name, const int64_t* args, const int32_t* codes, int32_t count)`:
/// what `tvm_call_packed` calls; returns 0, or -1 with the reason kept for
/// KernelRuntime::takeError.
inline constexpr const char* kCallPackedSymbol = "bs_llvm_call_packed";
/// The prefix of every runtime symbol above.
inline constexpr const char* kRuntimeSymbolPrefix = "bs_llvm_";

/// TVM's type codes for a packed argument (kDLInt, kDLFloat, kTVMOpaqueHandle,
/// kTVMDLTensorHandle, kTVMStr).
enum class PackedCode : int32_t { Int = 0, Float = 2, Handle = 3, Array = 7, String = 11 };

/// The statuses of a kernel call that faulted (generated kernels use 1, 2, ... for their own).
inline constexpr int32_t kMemoryFaultStatus = -1;
inline constexpr int32_t kArithmeticFaultStatus = -2;

/// What a faulted kernel call reports, or null for a status that is not a fault.
inline const char* kernelFaultMessage(int32_t status) {
    switch (status) {
    case kMemoryFaultStatus:
        return "it accessed memory outside its buffers (a memory fault, caught): an index of "
               "the script reads past a tensor's shape";
    case kArithmeticFaultStatus:
        return "an integer division or modulo by zero (an arithmetic fault, caught): a divisor "
               "of the script is zero for some input";
    default:
        return nullptr;
    }
}

/// The runtime a JIT links its kernels to and calls them through.
struct KernelRuntime {
    struct Symbol {
        const char* name;
        void* address;
    };
    /// The definitions of the functions above, by symbol name.
    std::vector<Symbol> symbols;
    /// Runs `body(context)` with faults on this thread turned into kMemoryFaultStatus or
    /// kArithmeticFaultStatus; otherwise returns what `body` returned.
    int32_t (*runGuarded)(int32_t (*body)(void* context), void* context) = nullptr;
    /// Why the first packed call of the calling thread's kernel since the last call failed
    /// (empty when none did), cleared by the call; a chunk of the kernel's parallel loops
    /// counts as the kernel's thread.
    std::string (*takeError)() = nullptr;
};

} // namespace bs
