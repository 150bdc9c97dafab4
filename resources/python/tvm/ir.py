"""tvm.ir: the base classes of TVM's IR that scripts name (Range, PrimExpr) and its containers."""

import boundscope as _bs

from ._placeholder import missing as _missing

Object = _bs.Object
PrimExpr = _bs.PrimExpr
Range = _bs.Range
Map = _bs.Map
Array = _bs.Array

__getattr__ = _missing("tvm.ir")
