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
log1p = _bs.log1p
expm1 = _bs.expm1
cbrt = _bs.cbrt
asin = _bs.asin
acos = _bs.acos
atan = _bs.atan
sinh = _bs.sinh
cosh = _bs.cosh
asinh = _bs.asinh
acosh = _bs.acosh
atanh = _bs.atanh
nearbyint = _bs.nearbyint
atan2 = _bs.atan2
fmod = _bs.fmod
hypot = _bs.hypot
copysign = _bs.copysign
pow = _bs.pow  # noqa: A001 - TVM's name
abs = _bs.abs  # noqa: A001 - TVM's name
isnan = _bs.isnan
isinf = _bs.isinf
isfinite = _bs.isfinite
logical_and = _bs.logical_and
logical_or = _bs.logical_or
logical_not = _bs.logical_not
exp2 = _bs.exp2
exp10 = _bs.exp10
fabs = _bs.fabs
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
from . import schedule, tensor  # noqa: E402,F401

__getattr__ = _missing("tvm.te")
