"""Integer analysis (engine/arith) with TVM's API: `tvm.arith.Analyzer` and its results."""

import _boundscope as _core

Analyzer = _core.Analyzer
ConstIntBound = _core.ConstIntBound
ModularSet = _core.ModularSet


class ConstraintScope:
    """`with analyzer.constraint_scope(cond):` assumes `cond` inside the block (TVM's
    ConstraintScope); scopes nest and are left in reverse order."""

    def __init__(self, analyzer, constraint):
        self._analyzer = analyzer
        self._constraint = constraint

    def __enter__(self):
        self._analyzer._enter_constraint(self._constraint)
        return self

    def __exit__(self, *exc_info):
        self._analyzer._exit_constraint()


def _constraint_scope(self, constraint):
    return ConstraintScope(self, constraint)


Analyzer.constraint_scope = _constraint_scope


def substitute(node, vmap):
    """TVM's `tvm.tir.stmt_functor.substitute(expr, {var: value})`; keys may be IterVars."""
    return _core._substitute(node, dict(vmap))


__all__ = ["Analyzer", "ConstIntBound", "ModularSet", "ConstraintScope", "substitute"]
