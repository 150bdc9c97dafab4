"""tvm.tir.stmt_functor: `post_order_visit(stmt, fvisit)` and `substitute(node, {var: value})`
over statements and expressions."""

from boundscope.arith import substitute  # noqa: F401
from boundscope.stmt import post_order_visit  # noqa: F401
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.tir.stmt_functor")
