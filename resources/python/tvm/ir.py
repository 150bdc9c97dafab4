"""tvm.ir: the base classes of TVM's IR that scripts name (Range, PrimExpr), its containers,
IRModule (what tvm.lower returns) and structural equality."""

import boundscope as _bs

from . import transform  # noqa: F401 - tvm.ir.transform is tvm.transform
from ._placeholder import missing as _missing

Object = _bs.Object
PrimExpr = _bs.PrimExpr
Range = _bs.Range
Map = _bs.Map
Array = _bs.Array
IRModule = _bs.ir_module.IRModule
structural_equal = _bs.stmt.structural_equal
assert_structural_equal = _bs.stmt.assert_structural_equal

__getattr__ = _missing("tvm.ir")
