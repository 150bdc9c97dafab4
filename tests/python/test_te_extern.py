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
    assert [b.name for b in B.op.input_placeholders] == ["A"]
    assert B.op.output_placeholders[0].name == "extern"
    assert B.op.input_placeholders[0].data.same_as(B.op.input_placeholders[0].data)


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

def _expect_error(call, text):
    try:
        call()
    except (tvm.error.TVMError, ValueError) as e:
        assert text in str(e), str(e)
        return
    assert False, "accepted: " + text


def _copy_plus_one(n):
    def body(ins, outs):
        ib = tvm.tir.ir_builder.create()
        a = ib.buffer_ptr(ins[0])
        b = ib.buffer_ptr(outs[0])
        with ib.for_range(0, n, name="i") as i:
            b[i] = a[i] + 1.0
        return ib.get()
    return body


def test_buffers_bind_whole_tensors_only():
    n = 16
    A = te.placeholder((n, n), name="A")
    P = te.compute((n, n), lambda i, j: A[i, j] * 2.0, name="P")

    def body(ins, outs):
        ib = tvm.tir.ir_builder.create()
        a = ib.buffer_ptr(ins[0])
        b = ib.buffer_ptr(outs[0])
        with ib.for_range(0, n, name="i") as i:
            with ib.for_range(0, n, name="j") as j:
                b[i, j] = a[i, j] + 1.0
        return ib.get()

    E = te.extern((n, n), [P], body, name="E")
    D = te.compute((n, n), lambda i, j: E[i, j] + P[i, j], name="D")
    s = te.create_schedule(D.op)
    # The split by 5 makes P's region 20 columns wide: not the 16-wide tensor E's body reads.
    xo, xi = s[D].split(D.op.axis[1], factor=5)
    s[P].compute_at(s[D], xo)
    s[E].compute_at(s[D], xo)
    _expect_error(lambda: tvm.lower(s, [A, D]), "is not the whole compact tensor")
    # storage_align pads P's rows: not row-major either.
    s = te.create_schedule(D.op)
    s[P].storage_align(P.op.axis[0], 32, 1)
    _expect_error(lambda: tvm.lower(s, [A, D]), "strides padded by storage_align")


def test_extern_arguments_are_checked():
    n = 8
    A = te.placeholder((n,), name="A")
    B = te.placeholder((n,), name="B", dtype="int32")
    shifted = tvm.tir.decl_buffer((n,), "float32", "Ab", elem_offset=4)
    _expect_error(lambda: te.extern((n,), [A], _copy_plus_one(n), in_buffers=[shifted]),
                  "has element offset 4")
    same = tvm.tir.decl_buffer((n,), "float32", "buf")
    _expect_error(lambda: te.extern((n,), [A], _copy_plus_one(n), in_buffers=[same],
                                    out_buffers=[same]), "is given twice")
    _expect_error(lambda: te.extern((n,), [A, B], _copy_plus_one(n)),
                  "Cannot infer output data type")
    _expect_error(lambda: te.extern((n,), [], lambda ins, outs: 0), "Cannot infer output type")
    # The producer of an extern cannot be inlined: the extern reads it from a buffer.
    P = te.compute((n,), lambda i: A[i] * 2.0, name="P")
    E = te.extern((n,), [P], _copy_plus_one(n), name="E")
    s = te.create_schedule(E.op)
    s[P].compute_inline()
    _expect_error(lambda: tvm.lower(s, [A, E]), "'P' is read by extern stage 'E'")


def test_ir_builder_scopes():
    # allocate with a scope and scope_attr: attrs whose node is a buffer or a string.
    n = 8
    A = te.placeholder((n,), name="A")

    def body(ins, outs):
        ib = tvm.tir.ir_builder.create()
        a = ib.buffer_ptr(ins[0])
        b = ib.buffer_ptr(outs[0])
        t = ib.allocate("float32", (n,), name="t", scope="local")
        ib.scope_attr("hint", "pragma_note", 1)
        with ib.for_range(0, n) as i:
            t[i] = a[i] * 2.0
        with ib.for_range(0, n) as i:
            b[i] = t[n - 1 - i]
        return ib.get()

    E = te.extern((n,), [A], body, name="E")
    s = te.create_schedule(E.op)
    text = str(tvm.lower(s, [A, E], simple_mode=True))
    assert "storage_scope = \"local\"" in text, text
    f = tvm.build(s, [A, E], "llvm")
    a = np.arange(n).astype("float32")
    e = tvm.nd.array(np.zeros(n, "float32"))
    f(tvm.nd.array(a), e)
    tvm.testing.assert_allclose(e.numpy(), (a * 2)[::-1])


if __name__ == "__main__":
    tvm.testing.main()
