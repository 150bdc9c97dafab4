/// \file
/// Internal invariants: `BS_CHECK(cond) << "context"` reports file, line and condition, then
/// aborts. These are for bugs in Boundscope, never for user mistakes (see Diagnostic.h).
#pragma once

#include <sstream>
#include <string>

namespace bs {

/// Collects the message of a failed check and aborts when destroyed.
class CheckFailure {
public:
    CheckFailure(const char* file, int line, const char* condition);
    [[noreturn]] ~CheckFailure();

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

#define BS_CHECK(cond)                                                                          \
    (cond) ? (void)0 : ::bs::CheckVoidify() & ::bs::CheckFailure(__FILE__, __LINE__, #cond)

#define BS_UNREACHABLE(msg)                                                                     \
    do {                                                                                        \
        ::bs::CheckFailure(__FILE__, __LINE__, "unreachable") << msg;                           \
    } while (false)
