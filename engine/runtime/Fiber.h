/// \file
/// Cooperative fibers (a stack switch of our own on x86-64, POSIX ucontext elsewhere): a function
/// running on a stack of its own that can yield back to whoever resumed it and be resumed later
/// where it stopped. The interpreter runs each emulated GPU thread of a block as one fiber,
/// switching at barriers, so that no thread passes a `tvm_storage_sync` before every thread of its
/// block has reached it.
#pragma once

#include <cstddef>
#include <ucontext.h>

#if defined(__x86_64__) && defined(__linux__)
#define BS_FIBER_ASM 1
#else
#define BS_FIBER_ASM 0
#endif

namespace bs {

class Fiber {
public:
    /// The function a fiber runs. It must not throw: a fiber's stack cannot be unwound into
    /// its resumer's, so catch inside and hand the exception over by other means.
    using Entry = void (*)(void* arg);

    /// A fiber with a stack of `stackBytes` (rounded up to whole pages), mapped with a guard
    /// page below it; pages are committed only when used, so large stacks are cheap.
    explicit Fiber(size_t stackBytes);
    ~Fiber();
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;

    /// Makes the next resume() start `entry(arg)` from the beginning. Whatever the fiber was
    /// doing before is abandoned without unwinding, so its frames must own no resources.
    void start(Entry entry, void* arg);
    /// Runs the fiber until it yields or its entry returns.
    void resume();
    /// From inside the fiber: returns to the resume() that ran it.
    void yield();
    bool finished() const { return m_finished; }

private:
    /// Runs the entry, then switches back for good.
    static void run(Fiber* fiber);
    /// ucontext's entry: the Fiber as two 32-bit halves.
    static void trampoline(unsigned high, unsigned low);

    /// Where each side's switch saved its registers (BS_FIBER_ASM).
    void* m_stackPointer = nullptr;
    void* m_callerStackPointer = nullptr;

    ucontext_t m_context{};
    ucontext_t m_caller{};
    char* m_mapping = nullptr;
    size_t m_mappingBytes = 0;
    size_t m_stackBytes = 0;
    Entry m_entry = nullptr;
    void* m_arg = nullptr;
    bool m_finished = true;
    /// AddressSanitizer's bookkeeping of the stack switches (unused without it): the fiber's
    /// saved fake stack, and the stack of the thread that resumed it.
    void* m_fakeStack = nullptr;
    const void* m_callerStack = nullptr;
    size_t m_callerStackBytes = 0;
};

} // namespace bs
