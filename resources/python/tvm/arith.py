"""tvm.arith: integer analysis, as TVM's own tests use it (`tvm.arith.Analyzer().simplify(e)`,
`const_int_bound`, `modular_set`, `can_prove`, `constraint_scope`)."""

from boundscope.arith import Analyzer, ConstIntBound, ModularSet, ConstraintScope  # noqa: F401

from ._placeholder import missing as _missing

__getattr__ = _missing("tvm.arith")
