/// \file
/// Replacing variables by expressions, in expressions and statements.
#pragma once

#include "ir/Stmt.h"

#include <functional>

namespace bs {

/// Replaces each variable in `map` (by identity); returns `e` itself when nothing changed.
Expr substitute(const Expr& e, const VarMap<Expr>& map);
Stmt substitute(const Stmt& s, const VarMap<Expr>& map);
/// Replaces each variable for which `fn` returns a defined expression.
Expr substitute(const Expr& e, const std::function<Expr(const Var&)>& fn);
Stmt substitute(const Stmt& s, const std::function<Expr(const Var&)>& fn);

/// True when `e` uses any of the variables for which `pred` is true.
bool usesVar(const Expr& e, const std::function<bool(const VarNode*)>& pred);
bool usesVar(const Stmt& s, const std::function<bool(const VarNode*)>& pred);
/// True when `e` uses `v`.
bool usesVar(const Expr& e, const Var& v);
/// The variables `e` uses (let-bound ones included), in order of first appearance.
std::vector<Var> usedVars(const Expr& e);

} // namespace bs
