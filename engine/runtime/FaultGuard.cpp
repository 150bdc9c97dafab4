/// Faults in generated code (see FaultGuard.h): a process-wide SIGSEGV/SIGBUS/SIGFPE handler
/// that jumps back to the innermost guard of the faulting thread, or passes the signal on.
#include "runtime/FaultGuard.h"

#include <csetjmp>
#include <csignal>
#include <iterator>
#include <mutex>

namespace bs {

namespace {

struct Guard {
    sigjmp_buf jump;
    Guard* previous = nullptr;
};

thread_local Guard* t_innermost = nullptr;

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE};
struct sigaction g_previous[std::size(kSignals)];

const struct sigaction& previousAction(int signal) {
    size_t i = 0;
    while (kSignals[i] != signal)
        ++i;
    return g_previous[i];
}

void passOn(int signal, siginfo_t* info, void* context) {
    const struct sigaction& previous = previousAction(signal);
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
        siglongjmp(guard->jump, signal);
    passOn(signal, info, context);
}

void installHandlers() {
    struct sigaction action = {};
    action.sa_sigaction = &onFault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(kSignals); ++i)
        sigaction(kSignals[i], &action, &g_previous[i]);
}

} // namespace

int32_t runGuarded(int32_t (*body)(void* context), void* context) {
    static std::once_flag installed;
    std::call_once(installed, installHandlers);
    Guard guard;
    guard.previous = t_innermost;
    // sigsetjmp(…, 1) saves the signal mask, so the jump unblocks SIGSEGV again.
    if (int signal = sigsetjmp(guard.jump, 1); signal != 0) {
        t_innermost = guard.previous;
        return signal == SIGFPE ? kArithmeticFaultStatus : kMemoryFaultStatus;
    }
    t_innermost = &guard;
    int32_t status = body(context);
    t_innermost = guard.previous;
    return status;
}

int32_t runUnguarded(int32_t (*body)(void* context), void* context) {
    Guard* saved = t_innermost;
    t_innermost = nullptr;
    int32_t status = body(context); // may throw: nothing to restore but the guard
    t_innermost = saved;
    return status;
}

} // namespace bs
