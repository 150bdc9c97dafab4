# tvm.topi.nn.pool2d and pad (the TOPI subset TVM's TE tests import, e.g. test_te_tensor.py's
# `from tvm.topi.nn.pooling import pool2d`): the stages TVM makes, and the values, against
# numpy, for max and average pooling with padding, strides, dilation, ceil mode and NHWC.
import numpy as np

import tvm
import tvm.testing
from tvm import te, topi
from tvm.topi.nn.pooling import pool2d


def _reference(x, kernel, stride, dilation, padding, pool_type, ceil_mode, count_include_pad):
    n, c, h, w = x.shape
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    pt, pl, pb, pr = padding
    ekh, ekw = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    if ceil_mode:
        pb, pr = pb + sh - 1, pr + sw - 1
    oh = (h - ekh + pt + pb) // sh + 1
    ow = (w - ekw + pl + pr) // sw + 1
    out = np.zeros((n, c, oh, ow), dtype=x.dtype)
    for i in range(oh):
        for j in range(ow):
            rows = [i * sh + a * dh - pt for a in range(kh)]
            cols = [j * sw + b * dw - pl for b in range(kw)]
            inside = [(r, q) for r in rows for q in cols if 0 <= r < h and 0 <= q < w]
            values = np.stack([x[:, :, r, q] for r, q in inside], axis=-1)
            if pool_type == "max":
                out[:, :, i, j] = values.max(axis=-1)
                if len(inside) < kh * kw:  # padding counts as the lowest value
                    out[:, :, i, j] = np.maximum(out[:, :, i, j], np.finfo(x.dtype).min)
            else:
                count = kh * kw if count_include_pad else len(inside)
                out[:, :, i, j] = values.sum(axis=-1) / count
    return out


def _check(pool_type, kernel, stride, dilation, padding, ceil_mode=False, count_include_pad=True):
    A = te.placeholder((1, 2, 9, 10), name="A")
    P = pool2d(A, kernel, stride, dilation, padding, pool_type, ceil_mode=ceil_mode,
               count_include_pad=count_include_pad)
    s = te.create_schedule(P.op)
    f = tvm.build(s, [A, P])
    x = np.random.uniform(-1, 1, size=(1, 2, 9, 10)).astype("float32")
    expected = _reference(x, kernel, stride, dilation, padding, pool_type, ceil_mode,
                          count_include_pad)
    assert tuple(int(d) for d in P.shape) == expected.shape
    out = tvm.nd.array(np.zeros(expected.shape, dtype="float32"))
    f(tvm.nd.array(x), out)
    tvm.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)
    return P


def test_max_pool_stages():
    A = te.placeholder((1, 64, 16, 16), name="A")
    P = pool2d(data=A, kernel=(3, 3), stride=(1, 1), dilation=(1, 1), padding=(0, 0, 0, 0),
               pool_type="max")
    assert P.op.name == "pool_max"
    assert [int(d) for d in P.shape] == [1, 64, 14, 14]
    assert [iv.var.name for iv in P.op.reduce_axis] == ["rv0", "rv1"]
    # No padding: the pool reads A itself.
    assert list(P.op.input_tensors) == [A]


def test_max_pool_values():
    P = _check("max", (3, 3), (2, 2), (1, 1), (1, 1, 1, 1))
    assert P.op.input_tensors[0].op.name == "pad_temp"
    _check("max", (2, 3), (1, 2), (2, 1), (0, 1, 2, 0), ceil_mode=True)


def test_avg_pool_values():
    P = _check("avg", (3, 3), (2, 2), (1, 1), (1, 1, 1, 1))
    assert P.op.name == "pool_avg"
    _check("avg", (3, 3), (2, 2), (1, 1), (1, 1, 1, 1), count_include_pad=False)
    _check("avg", (2, 2), (2, 2), (1, 1), (0, 0, 0, 0), ceil_mode=True, count_include_pad=False)


def test_nhwc_layout_and_pad():
    A = te.placeholder((1, 6, 5, 3), name="A")
    P = topi.nn.pool2d(A, (2, 2), (2, 2), (1, 1), (0, 0, 0, 0), "max", layout="NHWC")
    assert [int(d) for d in P.shape] == [1, 3, 2, 3]
    B = topi.nn.pad(A, (0, 1, 1, 0), (0, 0, 2, 0), pad_value=7.0)
    assert [int(d) for d in B.shape] == [1, 7, 8, 3]
    s = te.create_schedule([P.op, B.op])
    f = tvm.build(s, [A, P, B])
    x = np.random.uniform(size=(1, 6, 5, 3)).astype("float32")
    p = tvm.nd.array(np.zeros((1, 3, 2, 3), dtype="float32"))
    b = tvm.nd.array(np.zeros((1, 7, 8, 3), dtype="float32"))
    f(tvm.nd.array(x), p, b)
    tvm.testing.assert_allclose(p.numpy(), x[:, :6, :4, :].reshape(1, 3, 2, 2, 2, 3).max(axis=(2, 4)))
    tvm.testing.assert_allclose(b.numpy(), np.pad(x, ((0, 0), (1, 0), (1, 2), (0, 0)),
                                                  constant_values=7.0))


def test_bad_arguments():
    A = te.placeholder((1, 2, 8, 8), name="A")
    for call in (lambda: pool2d(A, (2, 2), (1, 1), (1, 1), (0, 0, 0, 0), "min"),
                 lambda: pool2d(A, (2, 2), (1, 1), (1, 1), (0, 0), "max"),
                 lambda: pool2d(A, (2, 2), (1, 1), (1, 1), (0, 0, 0, 0), "max", layout="NCDW")):
        try:
            call()
            assert False
        except ValueError:
            pass


if __name__ == "__main__":
    tvm.testing.main()
