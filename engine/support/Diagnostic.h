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

/// What a user error points at, for the front ends that mark it (issue 13, item 5: the attach
/// edge with no producer on its path, an IterVar of another stage, ...). Names, not handles,
/// so a diagnostic outlives the program; `iterVarId` tells IterVars of one name apart.
struct DiagnosticSubject {
    /// A stable tag: `attach-no-path`, `itervar-of-other-stage`, `not-a-leaf`, `attach-cycle`,
    /// `attach-not-leaf`, `output-attached`, `symbolic-extent`, `inlined-has-loops`; empty when
    /// the error is about nothing in particular.
    std::string kind;
    std::string stage;      ///< the stage the error is about
    std::string iterVar;    ///< the IterVar concerned, by name
    std::string otherStage; ///< the stage on the other side (attach target, IterVar's owner)
    std::string consumer;   ///< a consumer involved (attach-no-path)
    const void* iterVarId = nullptr; ///< the IterVar's node, to find its stage in the program

    bool empty() const { return kind.empty(); }
};

/// One message for the user, with the place it refers to.
struct Diagnostic {
    Diagnostic() = default;
    Diagnostic(std::string message, SourceLocation location, Severity severity = Severity::Error)
        : message(std::move(message)), location(std::move(location)), severity(severity) {}

    std::string message;
    SourceLocation location;
    Severity severity = Severity::Error;
    /// What the message is about, for front ends that point at it.
    DiagnosticSubject subject;
    /// A schedule change that would work, as the script would write it (`s[C].compute_root()`);
    /// front ends show it beside the message. Empty when none is known.
    std::string fix;

    /// `file:line: error: message` (the location part is left out when unknown).
    std::string toString() const;
};

/// The one exception type for user mistakes. It never escapes to a Qt slot or to main():
/// the API entry points catch it and hand the diagnostic back.
class UserError : public std::runtime_error {
public:
    explicit UserError(Diagnostic diagnostic);
    explicit UserError(const std::string& message);
    /// A message about `subject`, at the current source location.
    UserError(const std::string& message, DiagnosticSubject subject);

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
