"""tvm.topi: TVM's operator library, the subset Boundscope offers, built from te.compute as
TVM's are, with its stage names and tags: `topi.nn.pad`, `pool2d`, `conv2d_nchw`,
`conv2d_nhwc`, `conv2d_hwcn`, `depthwise_conv2d_nchw`, `dense`, `batch_matmul`, `relu`,
`softmax`; the broadcasting `add`, `subtract`, `multiply`, `divide`, `maximum`, `minimum`;
`reshape`, `transpose`, `sum`, `max`, `min`; the generic CPU schedules
(`topi.generic.schedule_injective`, `schedule_conv2d_hwcn`, ...) and CUDA schedules with TVM's
fallback configurations (`topi.cuda.schedule_conv2d_hwcn`, `topi.cuda.schedule_injective`,
`topi.gpu.schedule_dense_small_batch`). Other operators raise AttributeError naming what is
missing."""

from . import nn, generic, tag, utils, cuda, gpu  # noqa: F401
from .broadcast import add, subtract, multiply, divide, maximum, minimum  # noqa: F401
from .transform import reshape, transpose, sum, max, min  # noqa: F401,A004
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.topi")
