"""tvm.arith: integer analysis (Analyzer, IntSet). Not bound yet; names raise a clear error."""

from ._placeholder import missing as _missing

__getattr__ = _missing("tvm.arith")
