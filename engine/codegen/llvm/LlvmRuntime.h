/// \file
/// The C functions generated CPU kernels call (internal to engine/codegen/llvm): a parallel
/// loop on runtime/ThreadPool and 64-byte aligned heap buffers. The JIT defines these symbols
/// for every kernel it compiles, so nothing needs to be exported from the executable.
#pragma once

#include <cstdint>
#include <vector>

extern "C" {

/// A parallel loop's closure: runs iterations [begin, end) with the captured values in
/// `closure`, returns 0 or a kernel status code.
using BsParallelChunk = int32_t (*)(int64_t begin, int64_t end, void* closure);

/// Runs `chunk` over [begin, end) on the global thread pool; returns the first non-zero
/// status a chunk returned, else 0.
int32_t bs_llvm_parallel_for(BsParallelChunk chunk, void* closure, int64_t begin, int64_t end);

/// `bytes` bytes aligned to 64 (at least one byte is allocated), or null when out of memory.
void* bs_llvm_alloc(int64_t bytes);
void bs_llvm_free(void* pointer);

/// runtime/PackedFunctions.h's bs_call_packed, run outside the kernel's fault guard.
int32_t bs_llvm_call_packed(const char* name, const int64_t* args, const int32_t* codes,
                            int32_t count);
}

namespace bs::llvmgen {

inline constexpr const char* kParallelForSymbol = "bs_llvm_parallel_for";
inline constexpr const char* kAllocSymbol = "bs_llvm_alloc";
inline constexpr const char* kFreeSymbol = "bs_llvm_free";
/// bs_llvm_call_packed: what `tvm_call_packed` calls.
inline constexpr const char* kCallPackedSymbol = "bs_llvm_call_packed";

struct RuntimeSymbol {
    const char* name;
    void* address;
};

/// The runtime functions above, by symbol name.
std::vector<RuntimeSymbol> runtimeSymbols();

} // namespace bs::llvmgen
