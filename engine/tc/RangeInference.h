/// \file
/// Tensor Comprehensions' range inference (seed 003, "The Range Inference Algorithm"), on IR
/// expressions: the index variables of one statement get rectangular ranges that are as large
/// as possible without reading out of bounds.
///
/// Inference proceeds in rounds. Variables with a `where x in lb:ub` clause are resolved from
/// the start. In each round, every tensor index that contains a single unresolved variable `v`
/// gives the condition `0 <= index < size`; with the other variables over their resolved ranges
/// (Halide's and_condition_over_domain: the worst case of each end), it is solved for the
/// largest interval of `v` (solve_for_inner_interval). The intervals found for one variable in
/// one round are intersected. An index in which `v` appears other than as `constant * v` (a
/// dynamic stride `S(0)*i`, `v` inside a division or a tensor read) gives no interval. When a
/// round resolves nothing, every variable left needs a `where` clause.
///
/// After inference, indices not used to infer a range are the preconditions: the ones that
/// cannot be proven in bounds are reported as warnings (seed 003, "Preconditions").
#pragma once

#include "tc/TcAst.h"

#include "ir/Expr.h"
#include "support/Diagnostic.h"

#include <optional>
#include <string>
#include <vector>

namespace bs::tc {

/// A read of a tensor (or an `exists` clause's read) that range inference looks at.
struct Access {
    std::string tensorName;
    std::vector<Expr> shape;
    std::vector<Expr> indices;
    std::string text; ///< `B(i + k)`, for messages
    SourcePos pos;
    bool fromExists = false;
};

/// An index variable of a statement.
struct IndexVariable {
    Var var;
    SourcePos pos; ///< its first appearance
    /// Set by a `where` clause: [min, end).
    Expr whereMin;
    Expr whereEnd;
};

/// The range found for one variable: `min <= var < end`.
struct InferredRange {
    Var var;
    Expr min;
    Expr end;
    /// 0 for a `where` clause, else the round that resolved it.
    int round = 0;
    /// The accesses it was inferred from (`A(m, r_k), B(r_k, n)`), or `where clause`.
    std::string origin;

    /// `11 - I <= i < 11`, TC's notation (`/` is floor division, as in TC and Halide).
    std::string toString() const;
};

struct RangeInferenceResult {
    std::vector<InferredRange> ranges; ///< in the order of `variables`
    std::vector<Diagnostic> warnings;  ///< unchecked preconditions
};

/// Runs the rounds over `variables` with `accesses`. Throws UserError naming the first variable
/// that remains unresolved and why (`fileName` and its position locate the message).
RangeInferenceResult inferRanges(const std::vector<IndexVariable>& variables,
                                 const std::vector<Access>& accesses, const std::string& fileName);

/// TC's notation for an index expression: `(I + 1)/2`, `11 - I`, `min(N, M)`.
std::string formatIndexExpr(const Expr& e);

} // namespace bs::tc
