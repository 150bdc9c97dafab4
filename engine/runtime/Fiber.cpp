#include "runtime/Fiber.h"

#include "support/Check.h"

#include <cstdint>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define BS_ASAN_FIBERS 1
#endif
#include <unistd.h>

namespace bs {

namespace {

size_t pageSize() { return size_t(sysconf(_SC_PAGESIZE)); }

// AddressSanitizer follows a stack switch only when told (its fiber annotations); without
// them it takes the fiber's frames for overflows of the thread's stack.
void startSwitch(void** fakeStack, const void* bottom, size_t bytes) {
#ifdef BS_ASAN_FIBERS
    __sanitizer_start_switch_fiber(fakeStack, bottom, bytes);
#else
    (void)fakeStack, (void)bottom, (void)bytes;
#endif
}

void finishSwitch(void* fakeStack, const void** bottom, size_t* bytes) {
#ifdef BS_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(fakeStack, bottom, bytes);
#else
    (void)fakeStack, (void)bottom, (void)bytes;
#endif
}

} // namespace

#if BS_FIBER_ASM
// The switch of x86-64 (System V): glibc's swapcontext saves and restores the signal mask with
// a system call at every switch, which made the GPU emulation spend most of its time in the
// kernel (a barrier switches every thread of a block twice). A fiber's state between switches
// is its stack pointer; the callee-saved registers and the floating-point control words are
// pushed on its stack.
//
// bs_fiber_switch(save, load): saves the current stack pointer to *save, continues on `load`.
// bs_fiber_entry: where a new fiber's first switch returns to; r12 holds the Fiber, r13 the
// function to call with it (which never returns).
extern "C" void bs_fiber_switch(void** save, void* load);
extern "C" void bs_fiber_entry();
asm(R"(
    .pushsection .text
    .p2align 4
    .globl bs_fiber_switch
    .hidden bs_fiber_switch
    .type bs_fiber_switch, @function
bs_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size bs_fiber_switch, .-bs_fiber_switch

    .p2align 4
    .globl bs_fiber_entry
    .hidden bs_fiber_entry
    .type bs_fiber_entry, @function
bs_fiber_entry:
    movq %r12, %rdi
    callq *%r13
    ud2
    .size bs_fiber_entry, .-bs_fiber_entry
    .popsection
)");
#endif

Fiber::Fiber(size_t stackBytes) {
    // The stack is mapped, not allocated: pages are committed only when the fiber touches
    // them, and the lowest page stays inaccessible so that an overflow faults at once instead
    // of silently overwriting the neighbouring stack.
    const size_t page = pageSize();
    m_stackBytes = (stackBytes + page - 1) / page * page;
    m_mappingBytes = m_stackBytes + page;
    void* mapping = mmap(nullptr, m_mappingBytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    BS_CHECK(mapping != MAP_FAILED) << "cannot map a fiber stack of " << m_mappingBytes << " bytes";
    BS_CHECK(mprotect(mapping, page, PROT_NONE) == 0) << "cannot protect a fiber's guard page";
    m_mapping = static_cast<char*>(mapping);
}

Fiber::~Fiber() { munmap(m_mapping, m_mappingBytes); }

void Fiber::start(Entry entry, void* arg) {
#ifdef BS_ASAN_FIBERS
    // A fiber's frames never return (a finished one switches away from inside run(), one
    // abandoned midway from anywhere): their redzones stay poisoned, and this run's first frame
    // and frames would trip over them.
    __asan_unpoison_memory_region(m_mapping + (m_mappingBytes - m_stackBytes), m_stackBytes);
#endif
    m_entry = entry;
    m_arg = arg;
    m_finished = false;
#if BS_FIBER_ASM
    // The stack bs_fiber_switch would have left: control words, r15..r12, rbx, rbp, then the
    // return address bs_fiber_entry, after which the stack pointer is 16-byte aligned.
    auto top = reinterpret_cast<uintptr_t>(m_mapping + m_mappingBytes) & ~uintptr_t(15);
    auto* slot = reinterpret_cast<uint64_t*>(top);
    *--slot = reinterpret_cast<uint64_t>(&bs_fiber_entry);
    *--slot = 0;                                       // rbp
    *--slot = 0;                                       // rbx
    *--slot = reinterpret_cast<uint64_t>(this);        // r12
    *--slot = reinterpret_cast<uint64_t>(&Fiber::run); // r13
    *--slot = 0;                                       // r14
    *--slot = 0;                                       // r15
    // The fiber computes in its starter's floating-point mode (rounding, flush-to-zero), as
    // getcontext gave it.
    uint32_t mxcsr = 0;
    uint16_t x87 = 0;
    asm volatile("stmxcsr %0" : "=m"(mxcsr));
    asm volatile("fnstcw %0" : "=m"(x87));
    *--slot = uint64_t(mxcsr) | (uint64_t(x87) << 32);
    m_stackPointer = slot;
#else
    BS_CHECK(getcontext(&m_context) == 0) << "getcontext failed";
    m_context.uc_stack.ss_sp = m_mapping + (m_mappingBytes - m_stackBytes);
    m_context.uc_stack.ss_size = m_stackBytes;
    m_context.uc_link = &m_caller; // where the context goes when trampoline returns
    // makecontext passes int arguments only: the pointer travels as two 32-bit halves.
    auto self = reinterpret_cast<uintptr_t>(this);
    makecontext(&m_context, reinterpret_cast<void (*)()>(&Fiber::trampoline), 2,
                unsigned(uint64_t(self) >> 32), unsigned(self & 0xFFFFFFFFu));
#endif
}

void Fiber::resume() {
    BS_CHECK(!m_finished) << "resuming a finished fiber";
    void* callerFake = nullptr;
    startSwitch(&callerFake, m_mapping + (m_mappingBytes - m_stackBytes), m_stackBytes);
#if BS_FIBER_ASM
    bs_fiber_switch(&m_callerStackPointer, m_stackPointer);
#else
    BS_CHECK(swapcontext(&m_caller, &m_context) == 0) << "swapcontext failed";
#endif
    finishSwitch(callerFake, nullptr, nullptr);
}

void Fiber::yield() {
    startSwitch(&m_fakeStack, m_callerStack, m_callerStackBytes);
#if BS_FIBER_ASM
    bs_fiber_switch(&m_stackPointer, m_callerStackPointer);
#else
    BS_CHECK(swapcontext(&m_context, &m_caller) == 0) << "swapcontext failed";
#endif
    finishSwitch(m_fakeStack, &m_callerStack, &m_callerStackBytes);
}

void Fiber::run(Fiber* fiber) {
    finishSwitch(nullptr, &fiber->m_callerStack, &fiber->m_callerStackBytes);
    fiber->m_entry(fiber->m_arg);
    fiber->m_finished = true;
    // The fiber's stack is left for good: nothing of it to keep.
    startSwitch(nullptr, fiber->m_callerStack, fiber->m_callerStackBytes);
#if BS_FIBER_ASM
    void* abandoned = nullptr;
    bs_fiber_switch(&abandoned, fiber->m_callerStackPointer);
    BS_CHECK(false) << "a finished fiber was resumed";
#endif
}

void Fiber::trampoline(unsigned high, unsigned low) {
    run(reinterpret_cast<Fiber*>(uintptr_t((uint64_t(high) << 32) | uint64_t(low))));
}

} // namespace bs
