"""tvm.te: TVM's tensor-expression language. For now the variables; placeholder, compute,
reductions and schedules are added as the engine's te and schedule layers are bound."""

import boundscope as _bs

from .._placeholder import missing as _missing

var = _bs.var
size_var = _bs.size_var
const = _bs.const
floordiv = _bs.floordiv
floormod = _bs.floormod
if_then_else = _bs.if_then_else
exp = _bs.exp
log = _bs.log
sqrt = _bs.sqrt
tanh = _bs.tanh
sigmoid = _bs.sigmoid
power = _bs.power

from boundscope.te import (  # noqa: E402,F401
    Tensor, Operation, PlaceholderOp, ComputeOp, Schedule, Stage, placeholder, compute,
    reduce_axis, thread_axis, sum, max, min, comm_reducer, create_schedule, TensorSlice,
)
from . import schedule  # noqa: E402,F401

__getattr__ = _missing("tvm.te")
