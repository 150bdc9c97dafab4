"""tvm.tir.stmt_functor: `post_order_visit(stmt, fvisit)`, `ir_transform(stmt, preorder,
postorder, only_enable)` and `substitute(node, {var: value})` over statements and expressions."""

from boundscope.arith import substitute  # noqa: F401
from boundscope.stmt import post_order_visit, ir_transform  # noqa: F401
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.tir.stmt_functor")
