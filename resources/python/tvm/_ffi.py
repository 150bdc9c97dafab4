"""tvm.register_func / tvm.get_global_func: TVM's global registry of packed functions.

A function registered here can be called from generated code by name
(`tvm.tir.call_packed("name", ...)` in an extern stage); array arguments arrive as
tvm.nd.NDArrays over the kernel's memory, so writing into them (`copyto`, `copyfrom`) writes the
kernel's buffers. Functions registered by a script live until the next script starts, so the
runs of its program (`boundscope run`, the app's Run) call them too.
"""

import _boundscope as _core

from .error import TVMError

_python_functions = {}


def _adapted(f):
    from .nd import NDArray, cpu

    def packed(*args):
        import numpy
        return f(*[NDArray(a, cpu(0)) if isinstance(a, numpy.ndarray) else a for a in args])

    return packed


def register_func(func_name, f=None, override=False):
    """tvm.register_func("name", f) or as a decorator: `@tvm.register_func("name")`,
    `@tvm.register_func` (named after the function)."""
    if callable(func_name):
        f, func_name = func_name, func_name.__name__
    if not isinstance(func_name, str):
        raise ValueError("register_func: expected a name, got %r" % (func_name,))

    def register(function):
        _core._register_packed(func_name, _adapted(function), override)
        _python_functions[func_name] = function
        return function

    return register(f) if f is not None else register


def _call_builtin(name):
    from .nd import NDArray

    def call(*args):
        return _core._call_packed(name, *[a._array if isinstance(a, NDArray) else a
                                          for a in args])

    return call


def get_global_func(name, allow_missing=False):
    """The function registered under `name`; None when there is none and `allow_missing`."""
    from boundscope.tensor_intrin import TEST_FUNCTIONS
    if name in TEST_FUNCTIONS and name not in _python_functions:
        return TEST_FUNCTIONS[name]
    if _core._has_packed(name):
        if name in _python_functions:
            return _python_functions[name]
        return _call_builtin(name)
    if allow_missing:
        return None
    raise TVMError("Cannot find global function %s" % name)


def list_global_func_names():
    """The names of every registered function."""
    return list(_core._packed_names())
