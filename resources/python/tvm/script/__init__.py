"""tvm.script: TVMScript. Boundscope offers only `tir`'s typed constants (`T.int32(16)`), which
TE scripts use; parsing TVMScript functions (`T.prim_func`) is not available."""

from . import tir  # noqa: F401
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.script")
