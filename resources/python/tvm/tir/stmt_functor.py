"""tvm.tir.stmt_functor: `substitute(expr, {var: value})`."""

from boundscope.arith import substitute  # noqa: F401
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.tir.stmt_functor")
