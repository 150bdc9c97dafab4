/// \file
/// User-facing errors. A bad script, an illegal schedule primitive or a wrong shape is reported
/// as one `Diagnostic` (a message and the source location that caused it) carried by `UserError`.
/// Messages start lowercase, name the values involved and end without a period, e.g.
/// `split of 'i' in stage 'C': factor must be a positive integer, got 0`.
#pragma once

#include <stdexcept>
#include <string>

namespace bs {

/// Where in a user's script something happened. `line` is 1-based; 0 means unknown.
struct SourceLocation {
    std::string file;
    int line = 0;

    bool known() const { return line > 0; }
    /// `file:line`, or an empty string when unknown.
    std::string toString() const;
};

enum class Severity { Error, Warning, Note };

/// One message for the user, with the place it refers to.
struct Diagnostic {
    std::string message;
    SourceLocation location;
    Severity severity = Severity::Error;

    /// `file:line: error: message` (the location part is left out when unknown).
    std::string toString() const;
};

/// The one exception type for user mistakes. It never escapes to a Qt slot or to main():
/// the API entry points catch it and hand the diagnostic back.
class UserError : public std::runtime_error {
public:
    explicit UserError(Diagnostic diagnostic);
    explicit UserError(const std::string& message);

    const Diagnostic& diagnostic() const { return m_diagnostic; }

private:
    Diagnostic m_diagnostic;
};

/// The script location the engine attributes newly created objects (stages, IterVars,
/// relations, attachments) to. The Python front end sets it, per thread, before each call into
/// the engine; everything else leaves it unknown.
const SourceLocation& currentSourceLocation();
void setCurrentSourceLocation(SourceLocation location);

/// Sets the current source location for a scope and restores the previous one afterwards.
class ScopedSourceLocation {
public:
    explicit ScopedSourceLocation(SourceLocation location);
    ~ScopedSourceLocation();
    ScopedSourceLocation(const ScopedSourceLocation&) = delete;
    ScopedSourceLocation& operator=(const ScopedSourceLocation&) = delete;

private:
    SourceLocation m_previous;
};

} // namespace bs
