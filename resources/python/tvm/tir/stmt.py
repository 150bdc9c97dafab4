"""tvm.tir.stmt: the statement classes (`isinstance(x, tvm.tir.For)`, `x.loop_var`, ...) and
ForKind."""

from boundscope.stmt import (  # noqa: F401
    Stmt, LetStmt, AttrStmt, AssertStmt, For, ForKind, IfThenElse, ProducerRealize, ProducerStore,
    ProducerConsumer, Allocate, Store, SeqStmt, Evaluate,
)
from .._placeholder import missing as _missing

__all__ = [name for name in dir() if not name.startswith("_")]

__getattr__ = _missing("tvm.tir.stmt")
