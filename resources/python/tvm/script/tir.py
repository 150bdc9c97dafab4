"""tvm.script.tir (`from tvm.script import tir as T`): the typed constants `T.int32(16)`,
`T.float32(0.5)`, `T.bool(True)`, ... The rest of TVMScript (`T.prim_func`, `T.Buffer`, ...) is
not available in Boundscope."""

import boundscope as _bs

from .._placeholder import missing as _missing


def _typed_constant(dtype):
    def make(value=None, span=None):
        del span
        if value is None:
            raise AttributeError("T.%s() without a value declares a TVMScript variable, which "
                                 "Boundscope does not parse (not available in Boundscope yet)"
                                 % dtype)
        return _bs.const(value, dtype)

    make.__name__ = dtype
    make.__doc__ = "T.%s(value): the constant `value` of type %s." % (dtype, dtype)
    return make


for _dtype in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float16", "float32", "float64", "bool"):
    globals()[_dtype] = _typed_constant(_dtype)

__getattr__ = _missing("tvm.script.tir")
