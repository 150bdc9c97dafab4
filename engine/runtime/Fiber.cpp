#include "runtime/Fiber.h"

#include "support/Check.h"

#include <cstdint>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
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
    m_entry = entry;
    m_arg = arg;
    m_finished = false;
    BS_CHECK(getcontext(&m_context) == 0) << "getcontext failed";
    m_context.uc_stack.ss_sp = m_mapping + (m_mappingBytes - m_stackBytes);
    m_context.uc_stack.ss_size = m_stackBytes;
    m_context.uc_link = &m_caller; // where the context goes when trampoline returns
    // makecontext passes int arguments only: the pointer travels as two 32-bit halves.
    auto self = reinterpret_cast<uintptr_t>(this);
    makecontext(&m_context, reinterpret_cast<void (*)()>(&Fiber::trampoline), 2,
                unsigned(uint64_t(self) >> 32), unsigned(self & 0xFFFFFFFFu));
}

void Fiber::resume() {
    BS_CHECK(!m_finished) << "resuming a finished fiber";
    void* callerFake = nullptr;
    startSwitch(&callerFake, m_mapping + (m_mappingBytes - m_stackBytes), m_stackBytes);
    BS_CHECK(swapcontext(&m_caller, &m_context) == 0) << "swapcontext failed";
    finishSwitch(callerFake, nullptr, nullptr);
}

void Fiber::yield() {
    startSwitch(&m_fakeStack, m_callerStack, m_callerStackBytes);
    BS_CHECK(swapcontext(&m_context, &m_caller) == 0) << "swapcontext failed";
    finishSwitch(m_fakeStack, &m_callerStack, &m_callerStackBytes);
}

void Fiber::trampoline(unsigned high, unsigned low) {
    auto* fiber = reinterpret_cast<Fiber*>(uintptr_t((uint64_t(high) << 32) | uint64_t(low)));
    finishSwitch(nullptr, &fiber->m_callerStack, &fiber->m_callerStackBytes);
    fiber->m_entry(fiber->m_arg);
    fiber->m_finished = true;
    // The fiber's stack is left for good (uc_link): nothing of it to keep.
    startSwitch(nullptr, fiber->m_callerStack, fiber->m_callerStackBytes);
}

} // namespace bs
