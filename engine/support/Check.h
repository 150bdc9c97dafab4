/// \file
/// Internal invariants: `BS_CHECK(cond) << "context"` reports file, line and condition by
/// throwing InternalError. These are for bugs in Boundscope, never for user mistakes (see
/// Diagnostic.h); as TVM's ICHECK does, they throw rather than abort, so that the CLI, the app
/// and Python report a bug met on some input instead of crashing and losing the user's work.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace bs {

/// A failed internal check: a bug in Boundscope (Python sees tvm.error.InternalError).
class InternalError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Collects the message of a failed check and throws InternalError when destroyed.
class CheckFailure {
public:
    CheckFailure(const char* file, int line, const char* condition);
    [[noreturn]] ~CheckFailure() noexcept(false);

    template <typename T> CheckFailure& operator<<(const T& value) {
        m_stream << value;
        return *this;
    }

private:
    std::ostringstream m_stream;
};

/// Lets `BS_CHECK` be used as a statement that optionally streams context.
struct CheckVoidify {
    void operator&(CheckFailure&) {}
};

} // namespace bs

#define BS_CHECK(cond)                                                                             \
    (cond) ? (void)0 : ::bs::CheckVoidify() & ::bs::CheckFailure(__FILE__, __LINE__, #cond)

#define BS_UNREACHABLE(msg)                                                                        \
    do {                                                                                           \
        ::bs::CheckFailure(__FILE__, __LINE__, "unreachable") << msg;                              \
    } while (false)
