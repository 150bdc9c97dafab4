"""tvm.tir: TVM's tensor-level IR: expression node classes and operators."""

from .expr import *  # noqa: F401,F403
from .op import *  # noqa: F401,F403
from . import stmt_functor  # noqa: F401
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.tir")
