"""tvm.topi: TVM's operator library, the subset Boundscope offers: `topi.nn.pad` and
`topi.nn.pool2d` (`tvm.topi.nn.pooling.pool2d`), built from te.compute as TVM's are, with its
stage names and tags. Other operators raise AttributeError naming what is missing."""

from . import nn  # noqa: F401
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.topi")
