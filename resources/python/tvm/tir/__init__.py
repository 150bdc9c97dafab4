"""tvm.tir: TVM's tensor-level IR: expression and statement node classes, operators, and the
PrimFunc that tvm.lower's IRModule holds."""

from boundscope.ir_module import PrimFunc  # noqa: F401
from .expr import *  # noqa: F401,F403
from .stmt import *  # noqa: F401,F403
from .op import *  # noqa: F401,F403
from . import stmt, stmt_functor, ir_builder, transform  # noqa: F401
from boundscope.buffer import (  # noqa: F401
    Buffer, decl_buffer, call_packed, call_extern, call_pure_extern, call_intrin,
)
from boundscope.intrin import CallEffectKind  # noqa: F401
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.tir")
