/// \file
/// Stopping a long engine computation whose result nobody wants any more: the app's analysis of
/// a text that was edited again while it ran (issue 17, item 3). The thread doing the work
/// installs a flag for its duration (CancellationScope); the engine checks it at coarse points
/// (each stage InferBound visits, each lowering pass) and throws Cancelled, which is not a user
/// error and is caught only by whoever installed the flag.
#pragma once

#include <atomic>
#include <exception>

namespace bs {

class Cancelled : public std::exception {
public:
    const char* what() const noexcept override { return "cancelled"; }
};

/// Makes `flag` the calling thread's cancellation flag until the scope ends (nested scopes
/// restore the outer one). A null flag cancels nothing.
class CancellationScope {
public:
    explicit CancellationScope(const std::atomic<bool>* flag);
    ~CancellationScope();
    CancellationScope(const CancellationScope&) = delete;
    CancellationScope& operator=(const CancellationScope&) = delete;

private:
    const std::atomic<bool>* m_previous;
};

/// Throws Cancelled when the calling thread's flag is set.
void throwIfCancelled();

/// The calling thread's flag (null when none is installed), for work that must poll it
/// itself, such as a Python script interrupted from outside.
const std::atomic<bool>* cancellationFlag();

} // namespace bs
