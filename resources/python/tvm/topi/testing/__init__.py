"""tvm.topi.testing: numpy reference implementations that TVM's tests compare kernels against.
Boundscope offers `conv2d_nhwc_python`; other references raise AttributeError naming what is
missing."""

from .conv2d_nhwc_python import conv2d_nhwc_python  # noqa: F401
from ..._placeholder import missing as _missing

__getattr__ = _missing("tvm.topi.testing")
