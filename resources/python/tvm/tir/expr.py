"""tvm.tir.expr: the expression node classes, as in TVM (`isinstance(x + 1, tvm.tir.Add)`)."""

import boundscope as _bs

Var = _bs.Var
SizeVar = _bs.SizeVar
IntImm = _bs.IntImm
FloatImm = _bs.FloatImm
StringImm = _bs.StringImm
Add = _bs.Add
Sub = _bs.Sub
Mul = _bs.Mul
Div = _bs.Div
Mod = _bs.Mod
FloorDiv = _bs.FloorDiv
FloorMod = _bs.FloorMod
Min = _bs.Min
Max = _bs.Max
EQ = _bs.EQ
NE = _bs.NE
LT = _bs.LT
LE = _bs.LE
GT = _bs.GT
GE = _bs.GE
And = _bs.And
Or = _bs.Or
Not = _bs.Not
Select = _bs.Select
Cast = _bs.Cast
Call = _bs.Call
ProducerLoad = _bs.ProducerLoad
Load = _bs.Load
Ramp = _bs.Ramp
Broadcast = _bs.Broadcast
Let = _bs.Let
Reduce = _bs.Reduce
IterVar = _bs.IterVar
CommReducer = _bs.CommReducer
EqualOp = _bs.EqualOp
NotEqualOp = _bs.NotEqualOp
PrimExpr = _bs.PrimExpr

__all__ = [name for name in dir() if not name.startswith("_")]
