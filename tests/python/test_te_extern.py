# te.extern (TVM's ExternOp) with tvm.tir.call_packed, tvm.tir.ir_builder and tvm.register_func,
# in the style of TVM's test_te_tensor.py (test_extern, test_extern_multi_out,
# test_tensor_scalar_mixed / test_tensor_scalar) and the extern_op tutorial: TVM's own
# assertions, then what the built function computes, checked against numpy.
import numpy as np

import tvm
import tvm.testing
from tvm import te


def test_extern():
    m = te.size_var("m")
    A = te.placeholder((m,), name="A")

    def extern_func(ins, outs):
        assert isinstance(ins[0], tvm.tir.Buffer)
        return tvm.tir.call_packed("myadd", ins[0].data, outs[0].data, m)

    B = te.extern((m,), [A], extern_func)
    assert tuple(B.shape) == (m,)
    assert isinstance(B.op, te.ExternOp)
    assert list(B.op.input_tensors) == [A]


def test_extern_multi_out():
    m = te.size_var("m")
    A = te.placeholder((m,), name="A")
    B = te.compute((m,), lambda i: A[i] * 10)

    def extern_func(ins, outs):
        assert isinstance(ins[0], tvm.tir.Buffer)
        return tvm.tir.call_packed("myadd", ins[0].data, outs[0].data, outs[1].data, m)

    res = te.extern([A.shape, A.shape], [A, B], extern_func)
    assert len(res) == 2
    assert res[1].value_index == 1
    assert res[0].op.num_outputs == 2


def test_packed_function_from_python():
    # The extern_op tutorial's my_tvm_addone: a Python function called from generated code.
    @tvm.register_func("tvm.contrib.my_tvm_addone")
    def my_tvm_addone(x, y):
        assert isinstance(x, tvm.nd.NDArray)
        tvm.nd.array(x.numpy() + 1).copyto(y)

    n = 10
    A = te.placeholder((n,), name="A")
    B = te.extern(A.shape, [A],
                  lambda ins, outs: tvm.tir.call_packed("tvm.contrib.my_tvm_addone", ins[0],
                                                        outs[0]),
                  name="C")
    s = te.create_schedule(B.op)
    text = str(tvm.lower(s, [A, B], simple_mode=True))
    assert "tvm_call_packed(\"tvm.contrib.my_tvm_addone\"" in text, text
    assert "extern_scope" in text, text
    f = tvm.build(s, [A, B], "llvm")
    a = tvm.nd.array(np.random.uniform(size=(n,)).astype(A.dtype))
    b = tvm.nd.array(np.random.uniform(size=(n,)).astype(B.dtype))
    f(a, b)
    tvm.testing.assert_allclose(b.numpy(), a.numpy() + 1, rtol=1e-5)
    assert tvm.get_global_func("tvm.contrib.my_tvm_addone") is my_tvm_addone


def test_tensor_scalar_mixed():
    # TVM's test_tensor_scalar_mixed: a rank-0 tensor passed to a packed function.
    a = np.array(np.random.uniform(size=(10,)), "float32")
    b = np.array(np.random.uniform(size=(1))[0], "float32")
    c = np.array(np.random.uniform(size=(10,)), "float32")

    @tvm.register_func("tvm.test_tensor_scalar_scale")
    def my_scale(tensor, scalar, out):
        out_np = tensor.numpy() * scalar.numpy()
        tvm.nd.array(out_np).copyto(out)

    A = te.placeholder(a.shape, name="A")
    B = te.placeholder(b.shape, name="B")
    C = te.extern(
        a.shape,
        [A, B],
        lambda ins, outs: tvm.tir.call_packed(
            "tvm.test_tensor_scalar_scale", ins[0], ins[1], outs[0]
        ),
        name="C",
    )
    s = te.create_schedule(C.op)
    f = tvm.build(s, [A, B, C], "llvm")
    ta = tvm.nd.array(a)
    tb = tvm.nd.array(b)
    tc = tvm.nd.array(c)
    f(ta, tb, tc)
    tvm.testing.assert_allclose(a * b, tc.numpy())


def test_scalar_argument():
    # A scalar variable passed to a packed function arrives as a Python float.
    a = np.random.uniform(size=(10,)).astype("float32")

    @tvm.register_func("tvm.test_scale_by")
    def scale_by(tensor, factor, out):
        assert isinstance(factor, float)
        out.copyfrom(tensor.numpy() * factor)

    A = te.placeholder(a.shape, name="A")
    k = te.var("k", dtype="float32")
    C = te.extern(a.shape, [A],
                  lambda ins, outs: tvm.tir.call_packed("tvm.test_scale_by", ins[0], k, outs[0]),
                  name="C")
    f = tvm.build(te.create_schedule(C.op), [A, k, C], "llvm")
    tc = tvm.nd.array(np.zeros(10, "float32"))
    f(tvm.nd.array(a), 2.5, tc)
    tvm.testing.assert_allclose(tc.numpy(), a * 2.5, rtol=1e-6)


def test_tensor_scalar():
    # TVM's test_tensor_scalar: a rank-0 tensor copied by a packed function.
    a = np.array(np.random.uniform(size=(1))[0], "float32")
    b = np.array(0.0, "float32")

    @tvm.register_func("tvm.test_tensor_scalar_copy")
    def mycopy(x, y):
        x.copyto(y)

    A = te.placeholder(a.shape, name="A")
    B = te.extern(
        a.shape,
        [A],
        lambda ins, outs: tvm.tir.call_packed("tvm.test_tensor_scalar_copy", ins[0], outs[0]),
        name="B",
    )
    s = te.create_schedule(B.op)
    f = tvm.build(s, [A, B], "llvm")
    ta = tvm.nd.array(a)
    tb = tvm.nd.array(b)
    f(ta, tb)
    tvm.testing.assert_allclose(ta.numpy(), tb.numpy())


def test_ir_builder_body():
    # An extern whose body is an ir_builder program: B[i] = A[i] + 1 for i > 0, B[0] = A[0].
    n = 16
    A = te.placeholder((n,), name="A")

    def body(ins, outs):
        ib = tvm.tir.ir_builder.create()
        a = ib.buffer_ptr(ins[0])
        b = ib.buffer_ptr(outs[0])
        with ib.for_range(0, n, name="i") as i:
            with ib.if_scope(i > 0):
                b[i] = a[i] + 1.0
            with ib.else_scope():
                b[i] = a[i]
        return ib.get()

    B = te.extern((n,), [A], body, name="B")
    C = te.compute((n,), lambda i: B[i] * 2.0, name="C")
    s = te.create_schedule(C.op)
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert "for (i, 0, 16)" in text, text
    f = tvm.build(s, [A, C], "llvm")
    a = np.random.uniform(size=n).astype("float32")
    c = tvm.nd.array(np.zeros(n, "float32"))
    f(tvm.nd.array(a), c)
    expected = np.where(np.arange(n) > 0, a + 1, a) * 2
    tvm.testing.assert_allclose(c.numpy(), expected, rtol=1e-6)


def test_extern_bounds():
    # An extern needs its inputs whole: a producer attached nowhere is computed over its
    # whole shape, whatever the extern's consumer asks for.
    n = 32
    A = te.placeholder((n,), name="A")
    P = te.compute((n,), lambda i: A[i] + 1, name="P")
    E = te.extern((n,), [P], lambda ins, outs: tvm.tir.call_packed("f", ins[0], outs[0]),
                  name="E")
    D = te.compute((4,), lambda i: E[i], name="D")
    s = te.create_schedule(D.op)
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[P.op.axis[0]].extent.value == n


def test_cblas_matmul():
    if not tvm.get_global_func("tvm.contrib.cblas.matmul", allow_missing=True):
        return  # built without OpenBLAS
    from tvm.contrib import cblas

    n, l, m = 64, 32, 48
    A = te.placeholder((n, l), name="A")
    B = te.placeholder((l, m), name="B")
    C = cblas.matmul(A, B)
    D = te.compute(C.shape, lambda i, j: C[i, j] + 1.0, name="D")
    s = te.create_schedule(D.op)
    f = tvm.build(s, [A, B, D], "llvm")
    a = np.random.uniform(size=(n, l)).astype("float32")
    b = np.random.uniform(size=(l, m)).astype("float32")
    d = tvm.nd.array(np.zeros((n, m), "float32"))
    f(tvm.nd.array(a), tvm.nd.array(b), d)
    tvm.testing.assert_allclose(d.numpy(), a.dot(b) + 1, rtol=1e-5)


def test_errors():
    n = 8
    A = te.placeholder((n,), name="A")

    @tvm.register_func("tvm.test_raises")
    def raises(x):
        raise ValueError("no good")

    E = te.extern((n,), [A], lambda ins, outs: tvm.tir.call_packed("tvm.test_raises", ins[0]),
                  name="E")
    s = te.create_schedule(E.op)
    f = tvm.build(s, [A, E], "llvm")
    try:
        f(tvm.nd.array(np.zeros(n, "float32")), tvm.nd.array(np.zeros(n, "float32")))
        assert False
    except tvm.error.TVMError as e:
        assert "tvm.test_raises" in str(e) and "no good" in str(e), str(e)
    M = te.extern((n,), [A], lambda ins, outs: tvm.tir.call_packed("tvm.not_registered", ins[0]),
                  name="M")
    f = tvm.build(te.create_schedule(M.op), [A, M], "llvm")
    try:
        f(tvm.nd.array(np.zeros(n, "float32")), tvm.nd.array(np.zeros(n, "float32")))
        assert False
    except tvm.error.TVMError as e:
        assert "'tvm.not_registered' is not registered" in str(e), str(e)
    try:
        tvm.register_func("tvm.test_raises", lambda x: None)
        assert False
    except tvm.error.TVMError as e:
        assert "already registered" in str(e)
    tvm.register_func("tvm.test_raises", lambda x: None, override=True)
    assert tvm.get_global_func("tvm.nothing", allow_missing=True) is None
    # An extern stage has no loops of its own.
    assert list(te.create_schedule(E.op)[E].leaf_iter_vars) == []

if __name__ == "__main__":
    tvm.testing.main()
