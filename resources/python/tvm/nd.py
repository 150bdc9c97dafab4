"""tvm.nd: n-dimensional arrays (arrive with code generation). Names raise a clear error."""

from ._placeholder import missing as _missing

__getattr__ = _missing("tvm.nd")
