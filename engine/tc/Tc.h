/// \file
/// Tensor Comprehensions as a second front end (seed 003, issue 8): a TC definition becomes
/// ordinary tensor-expression stages (placeholders for the inputs, one compute per statement,
/// with reductions), so it is scheduled with the usual primitives and InferBound runs on it.
/// Loop ranges and output sizes come from TC's input-driven range inference
/// (tc/RangeInference.h), kept in the result to be shown next to InferBound's
/// consumer-driven ranges.
///
///     TcProgram p = buildTc("def matmul(float(M,K) A, float(K,N) B) -> (C) {\n"
///                           "  C(m, n) +=! A(m, r_k) * B(r_k, n)\n}", {});
///     Schedule s = createSchedule(p.outputs[0].op);
///
/// Statements map to computes as follows: `=` is a plain compute; `+=!`, `*=!`, `max=!` and
/// `min=!` reduce over the variables not on the left-hand side (sum, product, max, min); the
/// forms without `!` combine with the tensor's previous value, which an earlier statement must
/// define (a second stage named `C_1`, `C_2`, ... reads the first). A variable whose range does
/// not start at 0 shifts its output dimension: index 0 of the output holds the range's min.
#pragma once

#include "tc/RangeInference.h"

#include "schedule/Schedule.h"

#include <map>
#include <string>
#include <vector>

namespace bs::tc {

struct TcOptions {
    /// Concrete values of size symbols (`M=64`); the others stay symbolic size variables.
    std::map<std::string, int64_t> sizes;
    /// Names the source in diagnostics.
    std::string fileName;
};

/// The ranges of one statement's variables.
struct StatementRanges {
    std::string tensor; ///< the tensor the statement defines
    std::string text;   ///< `C(m, n) +=! A(m, r_k) * B(r_k, n)`
    int line = 0;
    std::vector<InferredRange> ranges; ///< left-hand side variables first, then reductions
    /// The stage the statement built: its axes are the left-hand side variables, in order, each
    /// shifted so that axis 0 holds the variable's range min.
    Operation op;
    /// The stage whose reduce axes are the other variables (in order): `op` for `=` and the `!`
    /// forms, the separate `C_red` stage for `+=` and friends with a reduction; undefined when
    /// the statement reduces over nothing.
    Operation reduceOp;
};

struct TcProgram {
    std::string name;
    std::vector<Tensor> inputs;  ///< in declaration order
    std::vector<Tensor> outputs; ///< in declaration order (the last definition of each)
    /// Every size symbol: its size variable, or its constant when given in TcOptions.
    std::vector<std::pair<std::string, Expr>> sizes;
    std::vector<StatementRanges> statements;
    /// Unchecked preconditions (seed 003, "Preconditions") and notes.
    std::vector<Diagnostic> warnings;
};

/// Parses `source` (exactly one `def`) and builds its stages. Throws UserError, located at the
/// offending line with its column in the message, for syntax errors, unknown names, wrong
/// arities, sizes not in the definition, and variables whose range cannot be inferred.
TcProgram buildTc(const std::string& source, const TcOptions& options = {});

/// TC's inferred ranges in its own notation, one paragraph per statement (what
/// `boundscope script FILE.tc` and Python's `TcProgram.ranges_text()` print):
///
///     C(m, n) +=! A(m, r_k) * B(r_k, n)
///         0 <= m < M    (A(m, r_k))
///         0 <= r_k < K    (A(m, r_k), B(r_k, n))
std::string rangesText(const TcProgram& program);

/// The default schedule of a TC program: one stage per operation, outputs in declaration order
/// (what the CLI analyses for a `.tc` file).
Schedule defaultSchedule(const TcProgram& program);

} // namespace bs::tc
