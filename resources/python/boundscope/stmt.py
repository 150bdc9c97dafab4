"""Statements of the IR (engine/ir/Stmt.h) with TVM's names and fields, read-only: what
`tvm.te.schedule.ScheduleOps` and `tvm.lower(...)["main"].body` are made of. `str()` of a statement
is Boundscope's printed IR (TVM's classic text form). Also TVM's `post_order_visit`,
`structural_equal` and `assert_structural_equal`.

Boundscope's IR is TVM 0.6's before storage flattening (ProducerRealize, ProducerStore) and
after it (Allocate, Store and Load on buffer variables). Its printed text keeps TVM 0.6's
`produce T {` blocks and `// attr [T] realize_scope` lines, as the seeds show them; the tree that
Python walks has the shape of TVM 0.7 and later, which have neither: `stmt.body`, `seq[i]`,
`mod["main"].body` and `post_order_visit` step through them (a realize's scope is its
`storage_scope`). ProducerConsumer stays as a class for isinstance checks of old scripts.
"""

import enum as _enum

import _boundscope as _core

Stmt = _core.Stmt
LetStmt = _core.LetStmt
AttrStmt = _core.AttrStmt
AssertStmt = _core.AssertStmt
For = _core.For
IfThenElse = _core.IfThenElse
ProducerRealize = _core.ProducerRealize
ProducerStore = _core.ProducerStore
ProducerConsumer = _core.ProducerConsumer
Allocate = _core.Allocate
Store = _core.Store
SeqStmt = _core.SeqStmt
Evaluate = _core.Evaluate


class ForKind(_enum.IntEnum):
    """tvm.tir.ForKind: the kind of a For loop (`for`, `parallel`, `vectorized`, `unrolled`, a
    loop bound to a thread)."""

    SERIAL = 0
    PARALLEL = 1
    VECTORIZED = 2
    UNROLLED = 3
    THREAD_BINDING = 4


For.kind = property(lambda self: ForKind(self._kind), doc="The loop's ForKind.")

post_order_visit = _core.post_order_visit
ir_transform = _core.ir_transform


def structural_equal(lhs, rhs, map_free_vars=False):
    """tvm.ir.structural_equal: whether two statements or expressions (or lists of them) have the
    same structure. Variables compare by identity unless `map_free_vars`, which lets a
    consistent renaming of the free variables make them equal."""
    if isinstance(lhs, (list, tuple)) or isinstance(rhs, (list, tuple)):
        return (isinstance(lhs, (list, tuple)) and isinstance(rhs, (list, tuple))
                and len(lhs) == len(rhs)
                and all(structural_equal(a, b, map_free_vars) for a, b in zip(lhs, rhs)))
    if isinstance(lhs, _core.Range) and isinstance(rhs, _core.Range):
        return (structural_equal(lhs.min, rhs.min, map_free_vars)
                and structural_equal(lhs.extent, rhs.extent, map_free_vars))
    return _core._structural_equal(lhs, rhs, map_free_vars)


def assert_structural_equal(lhs, rhs, map_free_vars=False):
    """tvm.ir.assert_structural_equal: raises ValueError, showing both sides, unless
    structural_equal(lhs, rhs, map_free_vars)."""
    if not structural_equal(lhs, rhs, map_free_vars):
        raise ValueError("StructuralEqual check failed:\n%s\n--- is not equal to ---\n%s"
                         % (lhs, rhs))


__all__ = [
    "Stmt", "LetStmt", "AttrStmt", "AssertStmt", "For", "ForKind", "IfThenElse",
    "ProducerRealize", "ProducerStore", "ProducerConsumer", "Allocate", "Store", "SeqStmt",
    "Evaluate", "post_order_visit", "ir_transform", "structural_equal", "assert_structural_equal",
]
