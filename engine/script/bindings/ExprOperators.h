/// \file
/// Python operator overloading on expressions with TVM's Python semantics (tvm/tir/expr.py,
/// class ExprOp): `+ - *` build arithmetic with type matching and constant folding, `//` is
/// floordiv and `%` floormod (as for Python ints), `/` on two integer operands raises TVM's
/// "multiple types of integer divisions" RuntimeError (on floats it divides), `-x` is `x*-1`,
/// comparisons build comparison expressions, and `a == b` / `a != b` build *deferred*
/// comparisons: used as an expression they are EQ / NE, used as a bool they compare identity, so
/// `if x == y:` and dict lookups keyed by variables behave as in TVM. `bool()` of any other
/// expression raises ValueError, except constants (IntImm), whose truth is their value.
#pragma once

#include "script/bindings/Casters.h"

namespace bs::script {

/// The EQ / NE expression of a deferred `a == b` / `a != b` object; nullopt for other values or
/// when its operands are not expressions.
std::optional<Expr> deferredComparison(py::handle value);

/// Adds TVM's ExprOp operators to a bound class whose instances convert to expressions
/// (PrimExpr and IterVar).
void addExprOperators(py::handle cls);

/// IntImm's overrides (TVM's IntImm): `==`/`!=` build the folded comparison at once, `bool()`
/// and `hash()` use the value, `int()` converts.
void addIntImmOperators(py::handle cls);

/// Binds EqualOp and NotEqualOp into `m`.
void bindDeferredComparisons(py::module_& m);

/// Identity of two Python values as TVM's `Object.same_as` defines it: the same engine node.
bool sameAs(py::handle a, py::handle b);

} // namespace bs::script
