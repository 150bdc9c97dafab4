"""tvm.tir.ir_builder: build a statement in Python, loop by loop, as TVM's IRBuilder does.

    ib = tvm.tir.ir_builder.create()
    a = ib.buffer_ptr(ins[0])
    with ib.for_range(0, n, name="i") as i:
        with ib.if_scope(i > 0):
            a[i] = a[i - 1] + 1
    body = ib.get()

Statements are collected per scope; a `with` block closes its scope into a For, an
IfThenElse, ... when it ends. `let`, `allocate` and `scope_attr` wrap everything emitted after
them in the same scope.
"""

import _boundscope as _core

from boundscope.buffer import Buffer
from boundscope.expr import convert as _convert

_FOR_KINDS = {"serial": 0, "parallel": 1, "vectorize": 2, "unroll": 3}


class WithScope:
    """A `with` block that runs `enter` on entry (its result is the `as` value) and `exit` on
    leaving."""

    def __init__(self, enter_value, exit_cb):
        self._enter_value = enter_value
        self._exit_cb = exit_cb

    def __enter__(self):
        return self._enter_value

    def __exit__(self, ptype, value, trace):
        self._exit_cb()


class BufferVar:
    """A pointer into memory (`ib.buffer_ptr`, `ib.allocate`): `b[i]` loads, `b[i] = v`
    stores; a tuple index is flattened by the shape."""

    def __init__(self, builder, buffer_var, shape, content_type):
        self._builder = builder
        self._buffer_var = buffer_var
        self._shape = shape
        self._content_type = content_type

    def asobject(self):
        return self._buffer_var

    @property
    def dtype(self):
        return self._content_type

    def _flat(self, index):
        if not isinstance(index, (tuple, list)):
            return index
        if self._shape is None or len(index) != len(self._shape):
            raise ValueError("index %r does not match the shape %r" % (index, self._shape))
        flat = 0
        for k, i in enumerate(index):
            flat = i if k == 0 else flat * self._shape[k] + i
        return flat

    def __getitem__(self, index):
        return _core._make_load(self._content_type, self._buffer_var, self._flat(index))

    def __setitem__(self, index, value):
        value = _convert(value) if not isinstance(value, _core.PrimExpr) else value
        if value.dtype != self._content_type:
            raise ValueError("data type does not match content type %s vs %s"
                             % (value.dtype, self._content_type))
        self._builder.emit(_core.Store(self._buffer_var, value, self._flat(index)))


class IRBuilder:
    """TVM's IRBuilder (see the module's description)."""

    def __init__(self):
        self._seq_stack = [[]]
        self.nidx = 0

    def _pop_seq(self):
        seq = self._seq_stack.pop()
        if not seq or callable(seq[-1]):
            seq.append(_core.Evaluate(0))
        body = seq[-1]
        for stmt in reversed(seq[:-1]):
            body = stmt(body) if callable(stmt) else _core.SeqStmt([stmt, body])
        return body

    def emit(self, stmt):
        """Appends a statement (an expression becomes an Evaluate), or a function of the rest
        of the scope's statements."""
        if isinstance(stmt, _core.PrimExpr) or isinstance(stmt, (int, float)):
            stmt = _core.Evaluate(stmt)
        if not (callable(stmt) or isinstance(stmt, _core.Stmt)):
            raise TypeError("emit expects a statement or an expression, got %s"
                            % type(stmt).__name__)
        self._seq_stack[-1].append(stmt)

    def scope_attr(self, node, attr_key, value):
        """An AttrStmt around the rest of the scope."""
        self.emit(lambda body: _core.AttrStmt(node, attr_key, value, body))

    def for_range(self, begin, end, name="i", dtype="int32", kind="serial"):
        """A loop `name` from `begin` to `end`; `with ib.for_range(0, n) as i:`."""
        if name == "i":
            name = chr(ord(name) + self.nidx) if self.nidx < 3 else name + "_" + str(self.nidx - 3)
            self.nidx += 1
        self._seq_stack.append([])
        loop_var = _core.Var(name, dtype)
        extent = end if isinstance(begin, int) and begin == 0 else end - begin
        if kind not in _FOR_KINDS:
            raise ValueError("unknown kind %r of for_range (serial, parallel, vectorize, unroll)"
                             % (kind,))

        def _exit_cb():
            self.emit(_core.For(loop_var, begin, extent, _FOR_KINDS[kind], self._pop_seq()))

        return WithScope(loop_var, _exit_cb)

    def if_scope(self, cond):
        """`with ib.if_scope(cond):` the statements run when `cond` holds."""
        self._seq_stack.append([])

        def _exit_cb():
            self.emit(_core.IfThenElse(cond, self._pop_seq(), None))

        return WithScope(None, _exit_cb)

    def else_scope(self):
        """`with ib.else_scope():` right after an if_scope: the statements run otherwise."""
        if not self._seq_stack[-1]:
            raise RuntimeError("else_scope must follow an if_scope")
        prev = self._seq_stack[-1][-1]
        if not isinstance(prev, _core.IfThenElse) or prev.else_case is not None:
            raise RuntimeError("else_scope must follow an if_scope")
        self._seq_stack[-1].pop()
        self._seq_stack.append([])

        def _exit_cb():
            self.emit(_core.IfThenElse(prev.condition, prev.then_case, self._pop_seq()))

        return WithScope(None, _exit_cb)

    def new_scope(self):
        """`with ib.new_scope():` a scope of its own (lets and allocations end with it)."""
        self._seq_stack.append([])

        def _exit_cb():
            self.emit(self._pop_seq())

        return WithScope(None, _exit_cb)

    def let(self, var_name, value):
        """A variable bound to `value` for the rest of the scope."""
        value = _convert(value) if not isinstance(value, _core.PrimExpr) else value
        var = _core.Var(var_name, value.dtype) if isinstance(var_name, str) else var_name
        self.emit(lambda body: _core.LetStmt(var, value, body))
        return var

    def allocate(self, dtype, shape, name="buf", axis_separators=None, scope=""):
        """Memory for the rest of the scope; returns a BufferVar."""
        del axis_separators
        buffer_var = _core.Var(name, "handle")
        shape = list(shape) if isinstance(shape, (list, tuple)) else [shape]
        if scope:
            self.emit(lambda body: _core.AttrStmt(buffer_var, "storage_scope", scope, body))
        self.emit(lambda body: _core.Allocate(buffer_var, dtype, shape, None, body))
        return BufferVar(self, buffer_var, shape, dtype)

    def pointer(self, content_type, name="ptr", scope=""):
        """A pointer variable of `content_type` elements."""
        del scope
        return BufferVar(self, _core.Var(name, "handle"), None, content_type)

    def buffer_ptr(self, buf, shape=None):
        """The memory of a tvm.tir.Buffer (an extern stage's input or output)."""
        if not isinstance(buf, Buffer):
            raise TypeError("buffer_ptr expects a tvm.tir.Buffer, got %s" % type(buf).__name__)
        return BufferVar(self, buf.data, shape if shape is not None else buf.shape, buf.dtype)

    def likely(self, expr):
        """`expr` marked as likely true."""
        return _core.likely(expr)

    def get(self):
        """The statement built so far."""
        seq = self._pop_seq()
        if self._seq_stack:
            raise RuntimeError("ir_builder.get() inside an open scope")
        self._seq_stack.append([])
        return seq


def create():
    """A new IRBuilder."""
    return IRBuilder()
