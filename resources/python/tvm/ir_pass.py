"""tvm.ir_pass: the TVM 0.6 spellings of expression passes the seeds' era of scripts use."""

import boundscope as _bs

from ._placeholder import missing as _missing


def Simplify(expr):  # noqa: N802 - TVM's name
    """tvm.ir_pass.Simplify(expr) (later tvm.arith.Analyzer().simplify)."""
    return _bs.arith.Analyzer().simplify(expr)


def CanonicalSimplify(expr):  # noqa: N802 - TVM's name
    """tvm.ir_pass.CanonicalSimplify(expr)."""
    return _bs.arith.Analyzer().canonical_simplify(expr)


def Substitute(expr, vmap):  # noqa: N802 - TVM's name
    """tvm.ir_pass.Substitute(expr, {var: value})."""
    return _bs.arith.substitute(expr, vmap)


__getattr__ = _missing("tvm.ir_pass")
