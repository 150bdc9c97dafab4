"""tvm.ir: the base classes of TVM's IR that scripts name (Range, PrimExpr), its containers,
IRModule (what tvm.lower returns), structural equality, and the operator registry (Op,
register_op_attr, register_intrin_lowering)."""

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
Op = _bs.intrin.Op
register_op_attr = _bs.intrin.register_op_attr
register_intrin_lowering = _bs.intrin.register_intrin_lowering


def save_json(node):
    """The JSON text of an IR node, tensor, range, stage or schedule, or a list of them (TVM's
    tvm.ir.save_json). Objects reached twice are saved once, so load_json gives back a graph whose
    parts refer to each other as the saved ones did. The text is Boundscope's; TVM's does not
    load here."""
    return _bs.save_json(node)


def load_json(json_str):
    """The value save_json saved (TVM's tvm.ir.load_json)."""
    return _bs.load_json(json_str)


def _reduce_by_json(self):
    return (load_json, (save_json(self),))


# Pickling (and copy.deepcopy) goes through the JSON, as in TVM.
for _cls in (Object, _bs.Tensor, Range, _bs.Stage, _bs.Schedule):
    _cls.__reduce__ = _reduce_by_json

__getattr__ = _missing("tvm.ir")
