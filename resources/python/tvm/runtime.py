"""tvm.runtime: constants and conversion (arrays and modules come with code generation)."""

import boundscope as _bs

from ._placeholder import missing as _missing

Object = _bs.Object
const = _bs.const
convert = _bs.convert

__getattr__ = _missing("tvm.runtime")
