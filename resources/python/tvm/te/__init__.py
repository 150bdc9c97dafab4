"""tvm.te: TVM's tensor-expression language: variables, placeholder, compute, scan, reductions,
thread axes and schedules, plus the tir operators TVM's te re-exports."""

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
erf = _bs.erf
sin = _bs.sin
cos = _bs.cos
tan = _bs.tan
rsqrt = _bs.rsqrt
floor = _bs.floor
ceil = _bs.ceil
log2 = _bs.log2
log10 = _bs.log10
trunc = _bs.trunc
round = _bs.round  # noqa: A001 - TVM's name
all = _bs.all  # noqa: A001 - TVM's name
any = _bs.any  # noqa: A001 - TVM's name
min_value = _bs.min_value
max_value = _bs.max_value
div = _bs.div
indexdiv = _bs.indexdiv
indexmod = _bs.indexmod
truncdiv = _bs.truncdiv
truncmod = _bs.truncmod

from boundscope.te import (  # noqa: E402,F401
    Tensor, Operation, PlaceholderOp, ComputeOp, ScanOp, Schedule, Stage, placeholder, compute,
    reduce_axis, thread_axis, sum, max, min, comm_reducer, create_schedule, TensorSlice, scan,
    extern, ExternOp, TensorComputeOp,
)
from boundscope.tensor_intrin import decl_tensor_intrin, TensorIntrin  # noqa: E402,F401
from . import schedule  # noqa: E402,F401

__getattr__ = _missing("tvm.te")
