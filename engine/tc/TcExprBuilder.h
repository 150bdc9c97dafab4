/// \file
/// Private to engine/tc: turns the expressions of one TC statement into IR. Identifiers are,
/// in this order, the statement's index variables, the definition's size symbols, scalar
/// inputs (0-d tensors, read with no indices) and otherwise new index variables; `A(...)` is a
/// tensor read or a built-in (`min`, `max`, `exp`, `log`, `sqrt`, `tanh`, `fabs`). Integer `/`
/// and `%` are floor division and modulo (seed 003: TC's division rounds towards -infinity).
/// Every tensor read is recorded as an Access for range inference.
#pragma once

#include "tc/RangeInference.h"

#include <map>

namespace bs::tc {

/// What the names of a definition stand for, shared by its statements.
struct DefinitionScope {
    std::map<std::string, Expr> sizes;
    std::map<std::string, Tensor> tensors; ///< inputs and the outputs defined so far
    std::string fileName;
};

class TcExprBuilder {
public:
    explicit TcExprBuilder(const DefinitionScope& scope) : m_scope(scope) {}

    /// Declares an index variable (left-hand side); throws on a duplicate.
    Var declareIndex(const std::string& name, SourcePos pos);
    /// Converts `e`; reads are recorded (as `exists` reads when `fromExists`).
    Expr convert(const AstExpr& e, bool fromExists = false);
    /// Converts a size expression (`where` bounds): sizes and integers only.
    Expr convertSize(const AstExpr& e, const std::string& context);
    /// Records a read made by the statement itself (the previous value for `+=`).
    void recordAccess(const Tensor& tensor, const std::vector<Expr>& indices, SourcePos pos);

    std::vector<IndexVariable>& variables() { return m_vars; }
    const std::vector<Access>& accesses() const { return m_accesses; }
    /// The variable named `name`, or nullptr.
    IndexVariable* findVariable(const std::string& name);

private:
    Expr convertIdent(const AstExpr& e);
    Expr convertApply(const AstExpr& e, bool fromExists);
    Expr convertBinary(const AstExpr& e, bool fromExists);

    const DefinitionScope& m_scope;
    std::vector<IndexVariable> m_vars;
    std::vector<Access> m_accesses;
};

} // namespace bs::tc
