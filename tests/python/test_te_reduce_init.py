# Reductions with an init value, as in TVM's tests/python/unittest/test_reduction.py
# (test_init_imm, test_init, test_rfactor_init): `te.sum(..., init=...)`, te.max/te.min and
# comm_reducer-made reducers start from the init instead of the reducer's identity. The
# reduction's init statement stores it (`B[i] = I[i]`), the update is unchanged, and the built
# function agrees with numpy.
import numpy as np
import _boundscope
import tvm
import tvm.testing
from tvm import te


def _row_sum_with_init(n=8, m=12):
    A = te.placeholder((n, m), name="A")
    I = te.placeholder((n,), name="I")
    k = te.reduce_axis((0, m), name="k")
    B = te.compute((n,), lambda i: te.sum(A[i, k], axis=k, init=I[i]), name="B")
    return A, I, B, k


def _run(s, args, inputs, out_shape):
    if not _boundscope._has_llvm:
        return None
    f = tvm.build(s, args)
    out = np.zeros(out_shape, dtype="float32")
    f(*inputs, out)
    return out


def test_init_is_carried_and_printed():
    A, I, B, _ = _row_sum_with_init()
    reduce = B.op.body[0]
    assert isinstance(reduce, tvm.tir.Reduce)
    assert len(reduce.init) == 1 and str(reduce.init[0]) == "I(i)", reduce.init
    assert "source=[A(i, k)], init=[I(i)], axis=" in str(reduce), reduce
    assert I in B.op.input_tensors
    k2 = te.reduce_axis((0, 12), name="k2")
    assert "init=" not in str(te.sum(A[0, k2], axis=k2))


def test_init_tensor_lowered_and_run():
    A, I, B, _ = _row_sum_with_init()
    s = te.create_schedule(B.op)
    text = str(tvm.lower(s, [A, I, B], simple_mode=True))
    assert "B[i] = I[i]" in text, text
    assert "B[i] = (B[i] + A[((i*12) + k)])" in text, text
    assert "0.000000f" not in text, text
    a = np.random.uniform(size=(8, 12)).astype("float32")
    i = np.random.uniform(size=(8,)).astype("float32")
    out = _run(s, [A, I, B], [a, i], (8,))
    if out is not None:
        np.testing.assert_allclose(out, i + a.sum(axis=1), rtol=1e-5)


def test_init_imm():
    n = 1027
    A = te.placeholder((n,), name="A")
    k = te.reduce_axis((0, n))
    B = te.compute((1,), lambda i: te.sum(A[k], axis=k, init=10.0), name="B")
    s = te.create_schedule(B.op)
    assert "B[0] = 10.000000f" in str(tvm.lower(s, [A, B], simple_mode=True))
    a = np.random.uniform(size=(n,)).astype("float32")
    out = _run(s, [A, B], [a], (1,))
    if out is not None:
        np.testing.assert_allclose(out, [10.0 + a.sum()], rtol=1e-4)


def test_init_with_where_guards_only_the_update():
    A = te.placeholder((4, 6), name="A")
    k = te.reduce_axis((0, 6), name="k")
    B = te.compute((4,), lambda i: te.max(A[i, k], axis=k, where=k.var < 3, init=0.5), name="B")
    s = te.create_schedule(B.op)
    a = np.random.uniform(size=(4, 6)).astype("float32")
    out = _run(s, [A, B], [a], (4,))
    if out is not None:
        np.testing.assert_allclose(out, np.maximum(0.5, a[:, :3].max(axis=1)), rtol=1e-6)


def test_rfactor_init():
    A, I, B, k = _row_sum_with_init()
    s = te.create_schedule(B.op)
    kf, _ = s[B].split(k, nparts=4)
    BF = s.rfactor(B, kf, 1)
    assert len(BF.op.body[0].init) == 0  # the partial sums start from the identity
    assert len(B.op.body[0].init) == 1  # the final reduction starts from the init
    a = np.random.uniform(size=(8, 12)).astype("float32")
    i = np.random.uniform(size=(8,)).astype("float32")
    out = _run(s, [A, I, B], [a, i], (8,))
    if out is not None:
        np.testing.assert_allclose(out, i + a.sum(axis=1), rtol=1e-5)


def test_comm_reducer_init():
    prod = te.comm_reducer(lambda x, y: x * y, lambda t: tvm.tir.const(1, dtype=t), name="prod")
    A = te.placeholder((3, 5), name="A")
    k = te.reduce_axis((0, 5), name="k")
    B = te.compute((3,), lambda i: prod(A[i, k], axis=k, init=2.0), name="B")
    s = te.create_schedule(B.op)
    assert "B[i] = 2.000000f" in str(tvm.lower(s, [A, B], simple_mode=True))
    a = np.random.uniform(0.5, 1.5, size=(3, 5)).astype("float32")
    out = _run(s, [A, B], [a], (3,))
    if out is not None:
        np.testing.assert_allclose(out, 2.0 * a.prod(axis=1), rtol=1e-5)


def test_bad_init_is_rejected():
    A = te.placeholder((3, 5), name="A")
    k = te.reduce_axis((0, 5), name="k")
    for init, words in ((A[0, 0] + 1.0, "init can only be"),
                        (tvm.tir.const(1, "int32"), "has type int32")):
        try:
            te.compute((3,), lambda i: te.sum(A[i, k], axis=k, init=init), name="B")
        except Exception as err:  # noqa: BLE001 - the front end's UserError
            assert words in str(err), err
        else:
            raise AssertionError("init %s should be rejected" % init)


if __name__ == "__main__":
    tvm.testing.main()
