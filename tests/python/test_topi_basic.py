# The tvm.topi operators the TEDD tutorial and TVM's TE tests use: conv2d_hwcn, relu, softmax,
# the broadcasting arithmetic and the generic CPU schedules, checked against numpy through
# tvm.build, with TVM's stage names.
import numpy as np

import tvm
import tvm.testing
from tvm import te, topi


def _run(outs, inputs, arrays, out_shapes, schedule=None):
    s = schedule if schedule is not None else te.create_schedule([o.op for o in outs])
    f = tvm.build(s, list(inputs) + list(outs))
    results = [np.zeros(shape, dtype="float32") for shape in out_shapes]
    f(*arrays, *results)
    return results


def _conv2d_hwcn_numpy(a, w, stride, pad):
    h, wd, c, n = a.shape
    kh, kw, _, f = w.shape
    padded = np.zeros((h + 2 * pad, wd + 2 * pad, c, n), dtype=a.dtype)
    padded[pad:pad + h, pad:pad + wd] = a
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    out = np.zeros((oh, ow, f, n), dtype=a.dtype)
    for y in range(oh):
        for x in range(ow):
            window = padded[y * stride:y * stride + kh, x * stride:x * stride + kw]  # kh, kw, c, n
            out[y, x] = np.einsum("ijcn,ijcf->fn", window, w)
    return out


def test_conv2d_hwcn_matches_numpy_with_tvms_stage_names():
    A = te.placeholder((6, 6, 3, 2), name="A")
    W = te.placeholder((3, 3, 3, 4), name="W")
    C = topi.nn.conv2d_hwcn(A, W, 1, "SAME", 1)
    assert C.op.name == "Conv2dOutput" and C.op.tag == "conv2d_hwcn"
    assert C.op.input_tensors[0].op.name == "PaddedInput"
    assert [int(d) for d in C.shape] == [6, 6, 4, 2]
    a = np.random.uniform(size=(6, 6, 3, 2)).astype("float32")
    w = np.random.uniform(size=(3, 3, 3, 4)).astype("float32")
    (c,) = _run([C], [A, W], [a, w], [(6, 6, 4, 2)])
    tvm.testing.assert_allclose(c, _conv2d_hwcn_numpy(a, w, 1, 1), rtol=1e-4)
    h = te.var("h")
    Ah = te.placeholder((1, 3, h, h), name="Ah")
    assert str(topi.nn.conv2d_nchw(Ah, te.placeholder((4, 3, 3, 3), name="Wh"), 1, 1, 1).shape[2]) == "h"
    assert topi.nn.get_pad_tuple("SAME", (3, 3)) == (1, 1, 1, 1)
    assert topi.nn.get_pad_tuple("VALID", (3, 3)) == (0, 0, 0, 0)


def test_broadcast_add_relu_and_softmax_match_numpy():
    X = te.placeholder((4, 5, 3), name="X")
    bias = te.placeholder((5, 1), name="bias")
    added = topi.add(X, bias)
    assert added.op.name == "T_add" and added.op.tag == "broadcast"
    out = topi.nn.relu(added)
    assert out.op.tag == "elemwise"
    x = np.random.uniform(-1, 1, size=(4, 5, 3)).astype("float32")
    b = np.random.uniform(-1, 1, size=(5, 1)).astype("float32")
    (r,) = _run([out], [X, bias], [x, b], [(4, 5, 3)])
    tvm.testing.assert_allclose(r, np.maximum(x + b, 0), rtol=1e-5)
    S = te.placeholder((3, 7), name="S")
    sm = topi.nn.softmax(S)
    names = [st.op.name for st in te.create_schedule(sm.op).stages]
    assert names == ["S", "T_softmax_maxelem", "T_softmax_exp", "T_softmax_expsum", "T_softmax_norm"]
    s_in = np.random.uniform(-2, 2, size=(3, 7)).astype("float32")
    (got,) = _run([sm], [S], [s_in], [(3, 7)])
    e = np.exp(s_in - s_in.max(axis=1, keepdims=True))
    tvm.testing.assert_allclose(got, e / e.sum(axis=1, keepdims=True), rtol=1e-5)
    d = topi.multiply(X, 2.0)
    assert d.op.name == "T_multiply"
    f = tvm.build(te.create_schedule(d.op), [X, d])
    assert f.imported_modules == [] and "define" in f.get_source()  # a CPU build imports nothing


def _conv_nchw_numpy(a, w, stride, pad, groups_of=None):
    n, c, h, wd = a.shape
    padded = np.zeros((n, c, h + 2 * pad, wd + 2 * pad), dtype=a.dtype)
    padded[:, :, pad:pad + h, pad:pad + wd] = a
    f, _, kh, kw = w.shape
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    out = np.zeros((n, f, oh, ow), dtype=a.dtype)
    for y in range(oh):
        for x in range(ow):
            window = padded[:, :, y * stride:y * stride + kh, x * stride:x * stride + kw]
            if groups_of is None:
                out[:, :, y, x] = np.einsum("ncij,fcij->nf", window, w)
            else:  # depthwise: output channel o reads input channel o // multiplier
                out[:, :, y, x] = np.einsum("noij,oij->no", window[:, groups_of], w[:, 0])
    return out


def test_convolutions_match_numpy_with_tvms_stage_names():
    a = np.random.uniform(size=(1, 3, 7, 7)).astype("float32")
    w = np.random.uniform(size=(4, 3, 3, 3)).astype("float32")
    A = te.placeholder(a.shape, name="A")
    W = te.placeholder(w.shape, name="W")
    C = topi.nn.conv2d_nchw(A, W, 2, 1, 1)
    assert (C.op.name, C.op.input_tensors[0].op.name) == ("conv2d_nchw", "pad_temp")
    (c,) = _run([C], [A, W], [a, w], [(1, 4, 4, 4)])
    tvm.testing.assert_allclose(c, _conv_nchw_numpy(a, w, 2, 1), rtol=1e-4)
    # NHWC with HWIO filters: the same numbers transposed
    An = te.placeholder((1, 7, 7, 3), name="A")
    Wn = te.placeholder((3, 3, 3, 4), name="W")
    Cn = topi.nn.conv2d_nhwc(An, Wn, 2, 1, 1)
    assert Cn.op.tag == "conv2d_nhwc"
    (cn,) = _run([Cn], [An, Wn], [a.transpose(0, 2, 3, 1).copy(), w.transpose(2, 3, 1, 0).copy()],
                 [(1, 4, 4, 4)])
    tvm.testing.assert_allclose(cn, c.transpose(0, 2, 3, 1), rtol=1e-4)
    # depthwise, channel multiplier 2
    wd = np.random.uniform(size=(3, 2, 3, 3)).astype("float32")
    Wd = te.placeholder(wd.shape, name="W")
    D = topi.nn.depthwise_conv2d_nchw(A, Wd, 1, 1, 1)
    assert D.op.name == "DepthwiseConv2d"
    (d,) = _run([D], [A, Wd], [a, wd], [(1, 6, 7, 7)])
    expected = _conv_nchw_numpy(a, wd.reshape(6, 1, 3, 3), 1, 1, groups_of=np.arange(6) // 2)
    tvm.testing.assert_allclose(d, expected, rtol=1e-4)


def test_dense_batch_matmul_reshape_transpose_and_reductions_match_numpy():
    x = np.random.uniform(size=(4, 6)).astype("float32")
    w = np.random.uniform(size=(5, 6)).astype("float32")
    b = np.random.uniform(size=(5,)).astype("float32")
    X, Wt, B = (te.placeholder(v.shape, name=n) for v, n in ((x, "X"), (w, "W"), (b, "B")))
    Y = topi.nn.dense(X, Wt, B)
    assert Y.op.input_tensors[0].op.name == "T_matmul_NT"
    (y,) = _run([Y], [X, Wt, B], [x, w, b], [(4, 5)])
    tvm.testing.assert_allclose(y, x @ w.T + b, rtol=1e-5)
    p = np.random.uniform(size=(3, 4, 6)).astype("float32")
    q = np.random.uniform(size=(1, 5, 6)).astype("float32")
    P, Q = te.placeholder(p.shape, name="P"), te.placeholder(q.shape, name="Q")
    M = topi.nn.batch_matmul(P, Q)
    assert M.op.name == "T_batch_matmul_NT"
    (mm,) = _run([M], [P, Q], [p, q], [(3, 4, 5)])
    tvm.testing.assert_allclose(mm, p @ q.transpose(0, 2, 1), rtol=1e-5)
    R = topi.reshape(P, (6, -1))
    T = topi.transpose(P, (2, 0, 1))
    (r, t) = _run([R, T], [P], [p], [(6, 12), (6, 3, 4)])
    tvm.testing.assert_allclose(r, p.reshape(6, 12))
    tvm.testing.assert_allclose(t, p.transpose(2, 0, 1))
    S = topi.sum(P, axis=1)
    K = topi.max(P, axis=(0, 2), keepdims=True)
    assert S.op.name == "P_red" and S.op.tag == "comm_reduce"
    (s_, k_) = _run([S, K], [P], [p], [(3, 6), (1, 4, 1)])
    tvm.testing.assert_allclose(s_, p.sum(axis=1), rtol=1e-5)
    tvm.testing.assert_allclose(k_, p.max(axis=(0, 2), keepdims=True))


def test_broadcast_shapes_follow_tvms_rules_for_symbolic_extents():
    n, m = te.var("n"), te.var("m")
    A, B4, M = te.placeholder((n,), name="A"), te.placeholder((4,), name="B4"), te.placeholder((m,), name="M")
    assert [str(d) for d in topi.add(A, B4).shape] == ["4"]   # a constant wins, in either order
    assert [str(d) for d in topi.add(B4, A).shape] == ["4"]
    assert isinstance(topi.add(A, M).shape[0], tvm.tir.Max)   # two symbolic extents: their max
    assert topi.add(A, A).shape[0].same_as(n)
    # integer division truncates, as TVM's divide
    I = te.placeholder((4,), dtype="int32", name="I")
    q = topi.divide(I, 2)
    i = np.array([-7, -1, 5, 9], dtype="int32")
    out = np.zeros(4, dtype="int32")
    tvm.build(te.create_schedule(q.op), [I, q])(i, out)
    assert list(out) == [-3, 0, 2, 4]
    # a reduction over every axis is a scalar, as TVM's
    X = te.placeholder((3, 4), name="X")
    assert len(topi.sum(X).shape) == 0 and len(topi.max(X, axis=(0, 1)).shape) == 0
    x = np.random.uniform(size=(3, 4)).astype("float32")
    total = np.zeros((), dtype="float32")
    tvm.build(te.create_schedule(topi.sum(X).op), [X, topi.sum(X)])
    S = topi.sum(X)
    tvm.build(te.create_schedule(S.op), [X, S])(x, total)
    tvm.testing.assert_allclose(total, x.sum(), rtol=1e-5)


def test_generic_schedules_inline_the_injective_stages():
    X = te.placeholder((8, 8), name="X")
    y = topi.nn.relu(topi.add(X, 1.0))
    s = topi.generic.schedule_injective([y])
    add_stage = [st for st in s.stages if st.op.name == "T_add"][0]
    assert add_stage.attach_type == 2  # inlined (kInline), as TVM's AutoInlineInjective does
    assert "for (i0.i1.fused, 0, 64)" in str(tvm.lower(s, [X, y]))  # the output's axes fused
    with tvm.target.Target("llvm"):
        s2 = topi.generic.schedule_conv2d_hwcn([y])
    assert all(st.attach_type != 2 for st in s2.stages)
    with tvm.target.Target("cuda"):
        try:
            topi.generic.schedule_injective([y])
            assert False, "a CUDA target has no generic schedule"
        except RuntimeError as e:
            assert "schedule not registered for" in str(e)


if __name__ == "__main__":
    tvm.testing.main()
