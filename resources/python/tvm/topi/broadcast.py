"""tvm.topi's broadcasting arithmetic (TVM's topi/broadcast.h): `add`, `subtract`, `multiply`,
`divide`, `maximum`, `minimum`, with numpy's rules (shapes aligned on the right, an extent of 1
stretches) and TVM's stage names (`T_add`, ...) and tag `broadcast`."""

from tvm import te, tir


def _extent(e):
    return e.value if isinstance(e, tir.IntImm) else e


def _broadcast_shape(a, b):
    a, b = list(a), list(b)
    n = max(len(a), len(b))
    a = [1] * (n - len(a)) + a
    b = [1] * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if isinstance(_extent(x), int) and _extent(x) == 1:
            out.append(y)
        elif isinstance(_extent(y), int) and _extent(y) == 1:
            out.append(x)
        elif isinstance(_extent(x), int) and isinstance(_extent(y), int) and _extent(x) != _extent(y):
            raise ValueError("Incompatible broadcast shapes %s and %s" % (a, b))
        else:
            out.append(x)
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
divide = _make("divide", lambda a, b: a / b)
maximum = _make("maximum", te.max)
minimum = _make("minimum", te.min)
