/// \file
/// The syntax tree of a Tensor Comprehensions definition (seed 003), as the parser builds it:
///
///     def matmul(float(M, K) A, float(K, N) B) -> (C) {
///         C(m, n) +=! A(m, r_k) * B(r_k, n)
///     }
///
/// Every node keeps its line and column so that each diagnostic points at its source.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bs::tc {

/// A 1-based line and column in the TC source.
struct SourcePos {
    int line = 0;
    int column = 0;
};

enum class ExprKind {
    Int,     ///< `2`
    Float,   ///< `1.5`, `2.0f`
    Ident,   ///< an index variable, a size, or a scalar input
    Apply,   ///< `A(i, j)` (a tensor read) or `min(a, b)` (a built-in function)
    Unary,   ///< `-x`, `!x`
    Binary,  ///< `a + b`, `a < b`, `a && b`, ...
    Ternary, ///< `c ? a : b`
};

struct AstExpr;
using AstExprPtr = std::shared_ptr<const AstExpr>;

struct AstExpr {
    ExprKind kind = ExprKind::Int;
    SourcePos pos;
    /// The identifier (Ident, Apply) or the operator (`+`, `<=`, `&&`, `!`, ...).
    std::string name;
    int64_t intValue = 0;
    double floatValue = 0.0;
    /// Operands (Unary, Binary, Ternary) or arguments (Apply).
    std::vector<AstExprPtr> args;
};

/// `float(M, K)`: a scalar type and, for tensors, its sizes (none for a scalar input).
struct AstType {
    std::string scalar;
    SourcePos pos;
    std::vector<AstExprPtr> sizes;
};

/// An input (`float(M, K) A`) or an output (`C`, or `float C`).
struct AstParam {
    std::string name;
    SourcePos pos;
    bool typed = false;
    AstType type;
};

/// A `where` item: `k in 0:2` or `exists A(i)`.
struct AstWhere {
    bool isExists = false;
    std::string var;
    SourcePos pos;
    AstExprPtr lower;
    AstExprPtr upper;
    AstExprPtr exists;
};

/// `C(m, n) +=! A(m, r_k) * B(r_k, n) where ...`.
struct AstStatement {
    std::string tensor;
    SourcePos pos;
    std::vector<std::string> indices;
    std::vector<SourcePos> indexPos;
    /// "" for `=`, else `+`, `*`, `max` or `min`.
    std::string reduction;
    /// True for the `!` forms (`+=!`): the reduction starts from its identity rather than
    /// from the tensor's previous value.
    bool initialize = false;
    SourcePos opPos;
    AstExprPtr rhs;
    std::vector<AstWhere> wheres;
};

struct AstDef {
    std::string name;
    SourcePos pos;
    std::vector<AstParam> inputs;
    std::vector<AstParam> outputs;
    std::vector<AstStatement> statements;
};

} // namespace bs::tc
