"""tvm.topi: TVM's operator library, the subset Boundscope offers, built from te.compute as
TVM's are, with its stage names and tags: `topi.nn.pad`, `pool2d`, `conv2d_hwcn`, `relu`,
`softmax`; the broadcasting `add`, `subtract`, `multiply`, `divide`, `maximum`, `minimum`; the
generic CPU schedules (`topi.generic.schedule_injective`, `schedule_conv2d_hwcn`, ...). Other
operators raise AttributeError naming what is missing."""

from . import nn, generic  # noqa: F401
from .broadcast import add, subtract, multiply, divide, maximum, minimum  # noqa: F401
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.topi")
