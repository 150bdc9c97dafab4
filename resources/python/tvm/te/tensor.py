"""tvm.te.tensor: the tensor and operation classes (TVM's python/tvm/te/tensor.py)."""

from boundscope.te import (  # noqa: F401
    Tensor, Operation, PlaceholderOp, ComputeOp, ScanOp, ExternOp, TensorComputeOp, TensorSlice,
)
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.te.tensor")
