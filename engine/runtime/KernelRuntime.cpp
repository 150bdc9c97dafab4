/// The runtime functions generated CPU kernels call (see KernelRuntime.h).
#include "runtime/KernelRuntime.h"

#include "runtime/FaultGuard.h"
#include "runtime/PackedFunctions.h"
#include "runtime/ThreadPool.h"

#include <atomic>
#include <cstdlib>

// The definitions of ir/KernelAbi.h's symbols; the JIT finds them through cpuKernelRuntime().
extern "C" {

int32_t bs_llvm_parallel_for(BsParallelChunk chunk, void* closure, int64_t begin, int64_t end) {
    // Every chunk runs even after one failed: chunks cannot be cancelled halfway, and a status
    // is only an early return of the kernel, reported once.
    std::atomic<int32_t> status{0};
    struct Chunk {
        BsParallelChunk chunk;
        void* closure;
        int64_t lo, hi;
    };
    bs::PackedErrorSlot& kernelSlot = bs::PackedErrorBinding::callerSlot();
    bs::ThreadPool::global().parallelFor(begin, end, [&](int64_t lo, int64_t hi) {
        // A packed call that fails in this chunk is the kernel's: its thread reports it.
        bs::PackedErrorBinding reportTo(kernelSlot);
        // Each chunk is guarded on the thread that runs it: a memory fault in a worker thread
        // becomes this loop's status (FaultGuard.h).
        Chunk args{chunk, closure, lo, hi};
        int32_t code = bs::runGuarded(
            [](void* context) {
                auto* c = static_cast<Chunk*>(context);
                return c->chunk(c->lo, c->hi, c->closure);
            },
            &args);
        int32_t expected = 0;
        if (code != 0)
            status.compare_exchange_strong(expected, code);
    });
    return status.load();
}

int32_t bs_llvm_call_packed(const char* name, const int64_t* args, const int32_t* codes,
                            int32_t count) {
    // The packed function is not generated code: a fault in it is a crash, not the kernel's
    // (FaultGuard.h), so it runs outside the kernel's guard. bs_call_packed catches exceptions.
    struct Call {
        const char* name;
        const int64_t* args;
        const int32_t* codes;
        int32_t count;
    } call{name, args, codes, count};
    return bs::runUnguarded(
        [](void* context) {
            auto* c = static_cast<Call*>(context);
            return bs_call_packed(c->name, c->args, c->codes, c->count);
        },
        &call);
}

void* bs_llvm_alloc(int64_t bytes) {
    if (bytes < 0)
        return nullptr;
    // aligned_alloc wants a multiple of the alignment.
    size_t size = (size_t(bytes) + 63) / 64 * 64;
    return std::aligned_alloc(64, size == 0 ? 64 : size);
}

void bs_llvm_free(void* pointer) { std::free(pointer); }
}

namespace bs {

const KernelRuntime& cpuKernelRuntime() {
    static const KernelRuntime runtime{
        {{kParallelForSymbol, reinterpret_cast<void*>(&bs_llvm_parallel_for)},
         {kAllocSymbol, reinterpret_cast<void*>(&bs_llvm_alloc)},
         {kFreeSymbol, reinterpret_cast<void*>(&bs_llvm_free)},
         {kCallPackedSymbol, reinterpret_cast<void*>(&bs_llvm_call_packed)}},
        &runGuarded,
        &takePackedError};
    return runtime;
}

} // namespace bs
