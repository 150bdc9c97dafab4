"""What `tvm.lower` returns, with TVM's types: an IRModule holding one PrimFunc per lowered
function, `mod["main"].body` its statement and `mod["main"].params` its parameters. `str()` of
the module is the function's IR as Boundscope prints it (TVM's classic text form, without
TVM's `primfn(...)` header), which the CLI, the app and the golden tests compare."""

import _boundscope as _core


class PrimFunc:
    """tvm.tir.PrimFunc: a lowered function. `params` are the handle variables of its tensor
    arguments' buffers, in argument order, then the symbolic shape variables its body uses;
    `body` is its statement; `attrs["global_symbol"]` its name. str() prints the whole
    statement with TVM 0.6's `produce T {` markers, as the seeds do; `body` is the tree that
    later TVM's Python API walks, which has no such markers (see tvm.tir.stmt)."""

    def __init__(self, params, body, name):
        self.params = list(params)
        self._root = body
        self.attrs = {"global_symbol": name}

    @property
    def body(self):
        return None if self._root is None else _core._tvm_stmt(self._root)

    @property
    def name(self):
        return self.attrs["global_symbol"]

    def with_body(self, new_body, span=None):
        """The function with `new_body` in place of `body` (TVM's PrimFunc.with_body); TVM 0.6's
        markers above `body` stay around the new one."""
        del span
        return PrimFunc(self.params, _core._with_body(self._root, new_body), self.name)

    def __str__(self):
        return "" if self._root is None else str(self._root)

    __repr__ = __str__


class IRModule:
    """tvm.IRModule: functions by name. `mod["main"]` (or the name given to tvm.lower) is a
    PrimFunc; an unknown name raises TVMError. `functions` maps each name to its function."""

    def __init__(self, functions=None):
        self.functions = dict(functions or {})

    def __getitem__(self, name):
        key = getattr(name, "name_hint", name)
        if key not in self.functions:
            raise _core.TVMError('Cannot find global var "%s" in the Module (it has %s)'
                                 % (key, ", ".join(sorted(self.functions)) or "no functions"))
        return self.functions[key]

    def __contains__(self, name):
        return getattr(name, "name_hint", name) in self.functions

    def __str__(self):
        return "\n".join(str(f) for f in self.functions.values())

    __repr__ = __str__


__all__ = ["PrimFunc", "IRModule"]
