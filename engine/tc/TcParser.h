/// \file
/// The lexer and parser of Tensor Comprehensions definitions (seed 003): typed inputs with
/// symbolic sizes (`float(M, K) A`), outputs (`-> (C)` or `-> C`), statements with `=`, `+=!`,
/// `+=`, `*=!`, `*=`, `max=!`, `max=`, `min=!`, `min=`, and `where x in lb:ub` /
/// `where exists A(i)` clauses. `#` starts a comment that runs to the end of the line.
///
/// Every syntax error is one UserError at the line of the offending token, its message starting
/// with the column: `col 17: expected ')' to close the indices of 'A', got '+'`.
#pragma once

#include "tc/TcAst.h"

#include "support/Diagnostic.h"

#include <string>
#include <vector>

namespace bs::tc {

/// Parses every `def` of `source`; `fileName` names the source in diagnostics.
std::vector<AstDef> parseTc(const std::string& source, const std::string& fileName = "");

/// The diagnostic for a problem at `pos` of `fileName`: location `fileName:line`, message
/// `col N: text`.
Diagnostic tcDiagnostic(const std::string& fileName, SourcePos pos, const std::string& text,
                        Severity severity = Severity::Error);

/// Throws UserError(tcDiagnostic(...)).
[[noreturn]] void failAt(const std::string& fileName, SourcePos pos, const std::string& text);

/// The source text of an expression, normalized (`A(m, r_k) * B(r_k, n)`), for messages.
std::string astToString(const AstExpr& e);

} // namespace bs::tc
