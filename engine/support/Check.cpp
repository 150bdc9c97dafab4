#include "support/Check.h"

#include <cstdio>
#include <cstdlib>

namespace bs {

CheckFailure::CheckFailure(const char* file, int line, const char* condition) {
    m_stream << "internal error at " << file << ":" << line << ": check failed: " << condition
             << ": ";
}

CheckFailure::~CheckFailure() {
    std::fprintf(stderr, "%s\n", m_stream.str().c_str());
    std::fflush(stderr);
    std::abort();
}

} // namespace bs
