"""Expressions of the engine's IR (engine/ir): node classes, constructors and operators."""

import _boundscope as _core

from .container import Map as _Map

# Node classes (isinstance checks work as in TVM: `isinstance(x + 1, Add)`).
Object = _core.Object
PrimExpr = _core.PrimExpr
Var = _core.Var
IntImm = _core.IntImm
FloatImm = _core.FloatImm
StringImm = _core.StringImm
Add = _core.Add
Sub = _core.Sub
Mul = _core.Mul
Div = _core.Div
Mod = _core.Mod
FloorDiv = _core.FloorDiv
FloorMod = _core.FloorMod
Min = _core.Min
Max = _core.Max
EQ = _core.EQ
NE = _core.NE
LT = _core.LT
LE = _core.LE
GT = _core.GT
GE = _core.GE
And = _core.And
Or = _core.Or
Not = _core.Not
Select = _core.Select
Cast = _core.Cast
Call = _core.Call
ProducerLoad = _core.ProducerLoad
Load = _core.Load
Ramp = _core.Ramp
Broadcast = _core.Broadcast
Let = _core.Let
Reduce = _core.Reduce
IterVar = _core.IterVar
CommReducer = _core.CommReducer
Range = _core.Range
EqualOp = _core.EqualOp
NotEqualOp = _core.NotEqualOp

# Constructors and operators.
var = _core.var
size_var = _core.size_var
const = _core.const
floordiv = _core.floordiv
floormod = _core.floormod
truncdiv = _core.truncdiv
truncmod = _core.truncmod
indexdiv = _core.indexdiv
indexmod = _core.indexmod
div = _core.div
min = _core.min  # noqa: A001 - TVM's name
max = _core.max  # noqa: A001 - TVM's name
if_then_else = _core.if_then_else
all = _core.all  # noqa: A001 - TVM's name
any = _core.any  # noqa: A001 - TVM's name
logical_not = _core.logical_not
likely = _core.likely
vscale = _core.vscale
cast = _core.cast
min_value = _core.min_value
max_value = _core.max_value

exp = _core.exp
exp2 = _core.exp2
exp10 = _core.exp10
log = _core.log
log2 = _core.log2
log10 = _core.log10
sqrt = _core.sqrt
rsqrt = _core.rsqrt
tanh = _core.tanh
sigmoid = _core.sigmoid
sin = _core.sin
cos = _core.cos
tan = _core.tan
floor = _core.floor
ceil = _core.ceil
round = _core.round  # noqa: A001 - TVM's name
trunc = _core.trunc
fabs = _core.fabs
erf = _core.erf
power = _core.power
log1p = _core.log1p
expm1 = _core.expm1
cbrt = _core.cbrt
asin = _core.asin
acos = _core.acos
atan = _core.atan
sinh = _core.sinh
cosh = _core.cosh
asinh = _core.asinh
acosh = _core.acosh
atanh = _core.atanh
nearbyint = _core.nearbyint
atan2 = _core.atan2
fmod = _core.fmod
hypot = _core.hypot
copysign = _core.copysign
pow = _core.pow  # noqa: A001 - TVM's name
abs = _core.abs  # noqa: A001 - TVM's name
isnan = _core.isnan
isinf = _core.isinf
isfinite = _core.isfinite


def logical_and(a, b):
    """TVM's logical_and(a, b): `a && b`."""
    return _core.all(a, b)


def logical_or(a, b):
    """TVM's logical_or(a, b): `a || b`."""
    return _core.any(a, b)


def SizeVar(name, dtype="int32"):  # noqa: N802 - TVM's name
    """TVM's `tvm.tir.SizeVar(name, dtype)`: a variable known to be non-negative."""
    return _core.size_var(name, dtype)


def convert(value):
    """TVM's `tvm.runtime.convert`: numbers become constants, lists and tuples lists of them,
    dicts a Map with their values converted; strings stay strings (TVM's String is a str)."""
    if isinstance(value, (list, tuple)):
        return [convert(v) for v in value]
    if isinstance(value, dict):
        return _Map((k, convert(v)) for k, v in value.items())
    if isinstance(value, (Object, Range)):
        return value
    if isinstance(value, str):
        return value  # TVM's runtime.String is a str
    return const(value)


__all__ = [name for name in dir() if not name.startswith("_")]
