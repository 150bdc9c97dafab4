"""tvm.runtime: constants and conversion, the built modules (Module) and load_module."""

import boundscope as _bs

from ._placeholder import missing as _missing

Object = _bs.Object
const = _bs.const
convert = _bs.convert


def load_module(path, fmt=""):
    """tvm.runtime.load_module(path): a kernel's shared library (Module.export_library)."""
    from .driver import load_module as load
    return load(path, fmt)


def __getattr__(name):
    # tvm.runtime.Module: the class of what tvm.build returns (imported late: tvm.driver
    # imports this module's package first).
    if name == "Module":
        from .driver import Module
        return Module
    return _missing("tvm.runtime")(name)
