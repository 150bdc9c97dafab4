"""tvm.topi's broadcasting arithmetic (TVM's topi/broadcast.h): `add`, `subtract`, `multiply`,
`divide`, `maximum`, `minimum`, with numpy's rules (shapes aligned on the right, an extent of 1
stretches) and TVM's stage names (`T_add`, ...) and tag `broadcast`."""

import tvm
from tvm import te, tir


def _extent(e):
    return e.value if isinstance(e, tir.IntImm) else e


def _broadcast_shape(a, b):
    """numpy's rule on the right-aligned shapes, as TVM's BroadcastShape: equal extents stay, an
    extent of 1 stretches, a constant wins over a symbolic extent, and two different symbolic
    extents give their max."""
    a, b = list(a), list(b)
    n = max(len(a), len(b))
    a = [1] * (n - len(a)) + a
    b = [1] * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        ex, ey = _extent(x), _extent(y)
        if isinstance(ex, int) and isinstance(ey, int):
            if ex != ey and 1 not in (ex, ey):
                raise ValueError("Incompatible broadcast shapes %s and %s" % (a, b))
            out.append(x if ey == 1 else y)
        elif isinstance(ex, int):
            out.append(y if ex == 1 else x)
        elif isinstance(ey, int):
            out.append(x if ey == 1 else y)
        elif tvm.ir.structural_equal(x, y):
            out.append(x)
        else:
            out.append(te.max(x, y))
    return out


def _reader(t, out_ndim):
    """A function of the output indices that reads `t` (a tensor or a scalar) broadcast."""
    if not isinstance(t, te.Tensor):
        return lambda *_: t
    shape = list(t.shape)
    offset = out_ndim - len(shape)

    def read(*indices):
        index = []
        for k, extent in enumerate(shape):
            one = isinstance(_extent(extent), int) and _extent(extent) == 1
            index.append(0 if one else indices[offset + k])
        return t(*index)

    return read


def _make(name, combine):
    def op(lhs, rhs):
        if not isinstance(lhs, te.Tensor) and not isinstance(rhs, te.Tensor):
            return combine(lhs, rhs)
        shape = _broadcast_shape(lhs.shape if isinstance(lhs, te.Tensor) else [],
                                 rhs.shape if isinstance(rhs, te.Tensor) else [])
        left, right = _reader(lhs, len(shape)), _reader(rhs, len(shape))
        return te.compute(shape, lambda *i: combine(left(*i), right(*i)), name="T_" + name,
                          tag="broadcast")

    op.__name__ = name
    op.__doc__ = "%s of two tensors (or a tensor and a scalar), broadcast." % name
    return op


add = _make("add", lambda a, b: a + b)
subtract = _make("subtract", lambda a, b: a - b)
multiply = _make("multiply", lambda a, b: a * b)
divide = _make("divide", te.div)  # truncating on integers, as TVM's
maximum = _make("maximum", te.max)
minimum = _make("minimum", te.min)
