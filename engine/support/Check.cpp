#include "support/Check.h"

namespace bs {

CheckFailure::CheckFailure(const char* file, int line, const char* condition) {
    m_stream << "internal error at " << file << ":" << line << ": check failed: " << condition
             << ": ";
}

CheckFailure::~CheckFailure() noexcept(false) { throw InternalError(m_stream.str()); }

} // namespace bs
