"""tvm.tir.transform: passes over the PrimFuncs of an IRModule. `prim_func_pass` makes one from
a function `(func, mod, ctx) -> func`; the built-in passes that Boundscope's pipeline has are
here under TVM's names (Simplify, RemoveNoOp, UnrollLoop, VectorizeLoop, HoistIfThenElse,
CommonSubexprElimTIR, InjectPrefetch, InjectDoubleBuffer, ThreadSync, LowerThreadAllreduce).
Add a pass to tvm.lower with `PassContext(config={"tir.add_lower_pass": [(phase, pass)]})`."""

import _boundscope as _core
from boundscope.ir_module import IRModule, PrimFunc

from ..transform import Pass, _pass_decorator
from .._placeholder import missing as _missing


class PrimFuncPass(Pass):
    """A pass that maps each PrimFunc of a module through `pass_func(func, mod, ctx)` (TVM's
    PrimFuncPass); a function for which it returns None leaves the module."""

    def __init__(self, pass_func, name, opt_level=0, required=None):
        super().__init__(name, opt_level, required)
        self._func = pass_func

    def transform_module(self, mod, ctx):
        if isinstance(mod, PrimFunc):
            mod = IRModule({mod.name: mod})
        functions = {}
        for name, func in mod.functions.items():
            out = self._func(func, mod, ctx)
            if out is None:
                continue
            if not isinstance(out, PrimFunc):
                raise TypeError("the pass %s returned a %s for %s; a PrimFunc pass returns a "
                                "PrimFunc (f.with_body(...)) or None"
                                % (self.info.name, type(out).__name__, name))
            functions[name] = out
        return IRModule(functions)


def prim_func_pass(pass_func=None, opt_level=None, name=None, required=None):
    """TVM's @tvm.tir.transform.prim_func_pass(opt_level=0): a Pass from a function
    `(func, mod, ctx) -> func`."""
    return _pass_decorator(PrimFuncPass, pass_func, opt_level, name, required)


def _builtin(key):
    def run(func, mod, ctx):
        del mod, ctx
        return PrimFunc(func.params, _core._tir_pass(key, func._root), func.name)

    def make(*args, **kwargs):
        del args, kwargs  # TVM's options of these passes; Boundscope's have none
        return PrimFuncPass(run, key, 0)

    make.__name__ = key.split(".")[-1]
    make.__doc__ = "TVM's %s over each PrimFunc." % key
    return make


Simplify = _builtin("tir.Simplify")
RemoveNoOp = _builtin("tir.RemoveNoOp")
UnrollLoop = _builtin("tir.UnrollLoop")
VectorizeLoop = _builtin("tir.VectorizeLoop")
HoistIfThenElse = _builtin("tir.HoistIfThenElse")
CommonSubexprElimTIR = _builtin("tir.CommonSubexprElimTIR")
InjectPrefetch = _builtin("tir.InjectPrefetch")
InjectDoubleBuffer = _builtin("tir.InjectDoubleBuffer")
ThreadSync = _builtin("tir.ThreadSync")
LowerThreadAllreduce = _builtin("tir.LowerThreadAllreduce")

__getattr__ = _missing("tvm.tir.transform")
