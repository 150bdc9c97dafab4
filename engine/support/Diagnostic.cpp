#include "support/Diagnostic.h"

namespace bs {

namespace {
thread_local SourceLocation t_currentLocation;

const char* severityName(Severity severity) {
    switch (severity) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Note:
        return "note";
    }
    return "error";
}
} // namespace

std::string SourceLocation::toString() const {
    if (!known())
        return file;
    return (file.empty() ? std::string("<script>") : file) + ":" + std::to_string(line);
}

std::string Diagnostic::toString() const {
    std::string where = location.toString();
    std::string text = where.empty() ? std::string() : where + ": ";
    return text + severityName(severity) + ": " + message;
}

UserError::UserError(Diagnostic diagnostic)
    : std::runtime_error(diagnostic.message), m_diagnostic(std::move(diagnostic)) {}

UserError::UserError(const std::string& message)
    : UserError(Diagnostic{message, currentSourceLocation(), Severity::Error}) {}

UserError::UserError(const std::string& message, DiagnosticSubject subject) : UserError(message) {
    m_diagnostic.subject = std::move(subject);
}

const SourceLocation& currentSourceLocation() { return t_currentLocation; }

void setCurrentSourceLocation(SourceLocation location) { t_currentLocation = std::move(location); }

ScopedSourceLocation::ScopedSourceLocation(SourceLocation location)
    : m_previous(t_currentLocation) {
    t_currentLocation = std::move(location);
}

ScopedSourceLocation::~ScopedSourceLocation() { t_currentLocation = std::move(m_previous); }

} // namespace bs
