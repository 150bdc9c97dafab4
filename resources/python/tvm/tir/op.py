"""tvm.tir.op: operators and intrinsics on expressions, with TVM's names."""

import boundscope as _bs

const = _bs.const
floordiv = _bs.floordiv
floormod = _bs.floormod
truncdiv = _bs.truncdiv
truncmod = _bs.truncmod
indexdiv = _bs.indexdiv
indexmod = _bs.indexmod
div = _bs.div
min = _bs.min  # noqa: A001 - TVM's name
max = _bs.max  # noqa: A001 - TVM's name
if_then_else = _bs.if_then_else
all = _bs.all  # noqa: A001 - TVM's name
any = _bs.any  # noqa: A001 - TVM's name
likely = _bs.likely
vscale = _bs.vscale
min_value = _bs.min_value
max_value = _bs.max_value
exp = _bs.exp
exp2 = _bs.exp2
exp10 = _bs.exp10
log = _bs.log
log2 = _bs.log2
log10 = _bs.log10
sqrt = _bs.sqrt
rsqrt = _bs.rsqrt
tanh = _bs.tanh
sigmoid = _bs.sigmoid
sin = _bs.sin
cos = _bs.cos
tan = _bs.tan
floor = _bs.floor
ceil = _bs.ceil
round = _bs.round  # noqa: A001 - TVM's name
trunc = _bs.trunc
fabs = _bs.fabs
erf = _bs.erf
power = _bs.power

__all__ = [name for name in dir() if not name.startswith("_")]
