"""tvm.testing: the helpers TVM's own tests use. Not bound yet; names raise a clear error."""

from ._placeholder import missing as _missing

__getattr__ = _missing("tvm.testing")
