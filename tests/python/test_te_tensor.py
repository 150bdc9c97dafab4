# Tensors and operations through TVM's Python API, in the style of TVM's
# tests/python/unittest/test_te_tensor.py: shapes, identity and hashing of outputs, rank-zero
# tensors, reductions over several axes and custom reducers, multi-output computes. (TVM's JSON
# round trips are in test_save_json.py; scans, extern ops and tensor intrinsics have their own.)
import pytest

import tvm
import tvm.testing
from tvm import te


def test_tensor():
    m, n, l = te.size_var("m"), te.size_var("n"), te.size_var("l")
    A = te.placeholder((m, l), name="A")
    B = te.placeholder((n, l), name="B")
    T = te.compute((m, n, l), lambda i, j, k: A[i, k] * B[j, k])
    assert tuple(T.shape) == (m, n, l)
    assert isinstance(A.op, tvm.te.PlaceholderOp)
    assert A == A
    assert T.op.output(0) == T
    assert T.op.output(0).__hash__() == T.__hash__()
    d = {T.op.output(0): 1}
    assert d[T] == 1
    assert T[0][0][0].astype("float16").dtype == "float16"
    assert str(T.op.body[0]) == "(A(i, k)*B(j, k))", T.op.body  # TVM 0.6 prints reads so


def test_rank_zero():
    m = te.size_var("m")
    A = te.placeholder((m,), name="A")
    scale = te.placeholder((), name="s")
    k = te.reduce_axis((0, m), name="k")
    T = te.compute((), lambda: te.sum(A[k] * scale(), axis=k))
    assert tuple(T.shape) == ()
    assert isinstance(T.op.body[0], tvm.tir.Reduce)


def test_conv1d():
    n = te.size_var("n")
    A = te.placeholder((n + 2), name="A")

    def compute_b(ii):
        i = ii + 1
        return A[i - 1] + A[i] + A[i + 1]

    B = te.compute(n, compute_b)
    assert tuple(B.shape) == (n,)


def test_tensor_slice():
    n = te.size_var("n")
    A = te.compute((n, n), lambda i, j: 1)
    B = te.compute((n,), lambda i: A[0][i] + A[0][i])
    assert B.op.input_tensors[0] == A


def test_tensor_reduce_multi_axis():
    m, n = te.size_var("m"), te.size_var("n")
    A = te.placeholder((m, n), name="A")
    k1 = te.reduce_axis((0, n), "k")
    k2 = te.reduce_axis((0, m), "k")
    for axis in ((k1, k2), [k1, k2]):
        C = te.compute((1,), lambda _: te.sum(A[k1, k2], axis=axis))
        assert len(C.op.reduce_axis) == 2


def test_tensor_comm_reducer():
    m, n = te.size_var("m"), te.size_var("n")
    A = te.placeholder((m, n), name="A")
    k = te.reduce_axis((0, n), "k")
    mysum = te.comm_reducer(lambda x, y: x + y, lambda t: tvm.tir.const(0, dtype=t))
    C = te.compute((m,), lambda i: mysum(A[i, k], axis=k))
    combiner = C.op.body[0].combiner
    assert str(combiner.result[0]) == "(x + y)" and combiner.identity_element[0].value == 0


def test_tensor_comm_reducer_overload():
    m, n = te.size_var("m"), te.size_var("n")
    mysum = te.comm_reducer(lambda x, y: x + y, lambda t: tvm.tir.const(0, dtype=t))
    assert str(mysum(m, n)) == "(m + n)"


def test_tensor_reduce():
    m, n, l = te.size_var("m"), te.size_var("n"), te.size_var("l")
    A = te.placeholder((m, l), name="A")
    B = te.placeholder((n, l), name="B")
    T = te.compute((m, n, l), lambda i, j, k: A[i, k] * B[j, k])
    rv = te.reduce_axis((0, A.shape[1]), "k")
    C = te.compute((m, n), lambda i, j: te.sum(T(i, j, rv + 1), axis=rv))
    assert C.op.reduce_axis[0].dom.extent.same_as(l)


def test_tuple_inputs():
    m, n = te.size_var("m"), te.size_var("n")
    A0 = te.placeholder((m, n), name="A0")
    A1 = te.placeholder((m, n), name="A1")
    T0, T1 = te.compute((m, n), lambda i, j: (A0[i, j] * 2, A1[i, j] * 3), name="T")
    te.create_schedule(T0.op)
    for i in range(len(T0.shape)):
        assert T0.shape[i] == T1.shape[i]
    assert T0.op == T1.op
    assert T0.value_index == 0
    assert T1.value_index == 1


def test_tuple_with_different_deps():
    m, n = te.size_var("m"), te.size_var("n")
    A0 = te.placeholder((m, n), name="A1")
    A1 = te.placeholder((m, n), name="A2")
    B0, B1 = te.compute((m, n), lambda i, j: (A0[i, j] * 2, A1[i, j] * 3), name="B")
    C = te.compute((m, n), lambda i, j: B0[i, j] + 4, name="C")
    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=10)
    s[B0.op].compute_at(s[C], xo)
    sch = s.normalize()
    bounds = tvm.te.schedule.InferBound(sch)
    text = str(tvm.te.schedule.ScheduleOps(sch, bounds))
    # TVM's check: the second output is realized once, inside C's xo loop, as the first is
    assert text.count("realize B.v1(") == 1, text
    assert text.index("for (i.outer, ") < text.index("realize B.v1("), text


def test_tensor_inputs():
    x = te.placeholder((1,), name="x")
    y = te.compute(x.shape, lambda i: x[i] + x[i])
    assert tuple(y.op.input_tensors) == (x,)



def test_compute_takes_float_dimensions_as_ints():
    # TVM's opt_gemm tutorial writes te.compute((N / bn, K, bn), ...): Python 3 makes N / bn a
    # float, which te.compute turns into an int as TVM's does.
    N, bn = 64, 16
    A = te.placeholder((N, N), name="A")
    packed = te.compute((N / bn, N, bn), lambda x, y, z: A[y, x * bn + z], name="packed")
    assert [int(d) for d in packed.shape] == [4, 64, 16]
    assert all(isinstance(d, tvm.tir.IntImm) and d.dtype == "int32" for d in packed.shape)



def test_a_tensor_is_not_iterable():
    # iterating through __getitem__ never ended: tvm.lower(s, C) (no list) hung
    A = te.placeholder((4,), name="A")
    C = te.compute((4,), lambda i: A[i] + 1, name="C")
    s = te.create_schedule(C.op)
    with pytest.raises(TypeError, match="'C' is a tensor, which is not iterable"):
        tvm.lower(s, C)
    with pytest.raises(TypeError):
        list(A)


if __name__ == "__main__":
    tvm.testing.main()
