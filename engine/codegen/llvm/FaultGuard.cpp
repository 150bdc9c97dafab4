/// Memory faults in generated code (see FaultGuard.h): a process-wide SIGSEGV/SIGBUS handler
/// that jumps back to the innermost guard of the faulting thread, or passes the signal on.
#include "codegen/llvm/FaultGuard.h"

#include <csetjmp>
#include <csignal>
#include <mutex>

namespace bs::llvmgen {

namespace {

struct Guard {
    sigjmp_buf jump;
    Guard* previous = nullptr;
};

thread_local Guard* t_innermost = nullptr;

struct sigaction g_previousSegv;
struct sigaction g_previousBus;

void passOn(int signal, siginfo_t* info, void* context) {
    const struct sigaction& previous = signal == SIGSEGV ? g_previousSegv : g_previousBus;
    if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction != nullptr) {
        previous.sa_sigaction(signal, info, context);
        return;
    }
    if ((previous.sa_flags & SA_SIGINFO) == 0 && previous.sa_handler != SIG_DFL &&
        previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signal);
        return;
    }
    // The default action: returning re-executes the faulting instruction, which now kills the
    // process as it would have without us.
    std::signal(signal, SIG_DFL);
}

void onFault(int signal, siginfo_t* info, void* context) {
    if (Guard* guard = t_innermost)
        siglongjmp(guard->jump, 1);
    passOn(signal, info, context);
}

void installHandlers() {
    struct sigaction action = {};
    action.sa_sigaction = &onFault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &g_previousSegv);
    sigaction(SIGBUS, &action, &g_previousBus);
}

} // namespace

int32_t runGuarded(int32_t (*body)(void* context), void* context) {
    static std::once_flag installed;
    std::call_once(installed, installHandlers);
    Guard guard;
    guard.previous = t_innermost;
    // sigsetjmp(…, 1) saves the signal mask, so the jump unblocks SIGSEGV again.
    if (sigsetjmp(guard.jump, 1) != 0) {
        t_innermost = guard.previous;
        return kMemoryFaultStatus;
    }
    t_innermost = &guard;
    int32_t status = body(context);
    t_innermost = guard.previous;
    return status;
}

} // namespace bs::llvmgen
