# Tensor intrinsics (TVM's te.decl_tensor_intrin and Stage.tensorize): the loops of a stage from
# its tensorized loop inwards become the intrinsic's statements, each of its buffers bound to the
# region of its tensor those loops cover. Checked as TVM's tests check it (the lowered call, the
# inferred region, the matched body), run against numpy with the intrinsic as a Python packed
# function, and the errors TVM raises for a computation that is not the intrinsic's.
import re

import numpy as np

import tvm
import tvm.testing
from tvm import te


def _intrin_vadd(n, name="vadd", scope=""):
    """z = x + y over n elements; its buffers in `scope` (TVM binds a buffer only to a tensor
    stored in its scope)."""
    x = te.placeholder((n,), name="vx")
    y = te.placeholder((n,), name="vy")
    z = te.compute(x.shape, lambda i: x[i] + y[i], name="z")

    def intrin_func(ins, outs):
        return tvm.tir.call_packed(name, ins[0], ins[1], outs[0])

    return te.decl_tensor_intrin(z.op, intrin_func,
                                 default_buffer_params={"offset_factor": n, "scope": scope})


def _intrin_gemv(m, l, with_reset=True):
    w = te.placeholder((m, l), name="w")
    x = te.placeholder((l,), name="x")
    k = te.reduce_axis((0, l), name="k")
    z = te.compute((m,), lambda i: te.sum(w[i, k] * x[k], axis=k), name="z")
    Wb = tvm.tir.decl_buffer(w.shape, w.dtype, name="W", offset_factor=1,
                             strides=[te.var("ldw"), 1])

    def intrin_func(ins, outs):
        ww, xx = ins
        zz = outs[0]
        body = tvm.tir.call_packed("t_gemv", ww, xx, zz)
        reset = tvm.tir.call_packed("t_fill_zero", zz) if with_reset else None
        update = tvm.tir.call_packed("t_gemv_add", ww, xx, zz)
        return body, reset, update

    return te.decl_tensor_intrin(z.op, intrin_func, binds={w: Wb},
                                 default_buffer_params={"offset_factor": 1})


def _register_packed():
    """Registers the intrinsics' Python implementations; returns the list of their calls."""
    calls = []

    @tvm.register_func("t_vadd", override=True)
    def vadd(x, y, z):
        calls.append(("vadd", x.shape))
        z.copyfrom(x.numpy() + y.numpy())

    @tvm.register_func("t_gemv", override=True)
    def gemv(w, x, z):
        calls.append(("gemv", w.shape))
        z.copyfrom(w.numpy() @ x.numpy())

    @tvm.register_func("t_fill_zero", override=True)
    def fill_zero(z):
        calls.append(("fill_zero", z.shape))
        z.copyfrom(np.zeros(z.shape, z.dtype))

    @tvm.register_func("t_gemv_add", override=True)
    def gemv_add(w, x, z):
        calls.append(("gemv_add", w.shape))
        z.copyfrom(z.numpy() + w.numpy() @ x.numpy())

    return calls


def _raises(match, f):
    try:
        f()
    except tvm.TVMError as e:
        assert re.search(match, str(e)), str(e)
        return str(e)
    raise AssertionError("expected a TVMError matching %r" % match)


def test_tensor_intrin_fields_and_lowered_call():
    # TVM's test_tensor_intrin (test_te_schedule.py).
    n = 16
    x = te.placeholder((n,), name="x")
    y = te.placeholder((n,), name="y")
    z = te.compute(x.shape, lambda i: x[i] + y[i], name="z")

    def intrin_func(ins, outs):
        assert isinstance(ins[0], tvm.te.schedule.Buffer)
        assert ins[0].shape[0].value == n
        return tvm.tir.call_packed("vadd", ins[0].data, outs[0].data, ins[0].shape[0])

    intrin = te.decl_tensor_intrin(z.op, intrin_func, default_buffer_params={"offset_factor": n})
    assert intrin.op == z.op
    assert intrin.reduce_init is None
    assert tuple(intrin.inputs) == tuple(z.op.input_tensors)
    assert intrin.buffers[0].shape[0].value == n
    X = te.placeholder((32,), name="X")
    Y = te.placeholder((32,), name="Y")
    Z = te.compute(X.shape, lambda i: X[i] + Y[i], name="Z")
    s = te.create_schedule(Z.op)
    xo, xi = s[Z].split(Z.op.axis[0], factor=n)
    s[Z].tensorize(xi, intrin)
    stmt = tvm.lower(s, [X, Y, Z])["main"].body
    # Our lowered IR keeps TVM 0.6's `produce Z` marker around the loop.
    stmt = stmt if isinstance(stmt, tvm.tir.For) else stmt.body
    assert isinstance(stmt.body, tvm.tir.Evaluate)
    assert str(stmt.body.value.args[0]) == '"vadd"'
    assert str(stmt.body.value.args[1]) == "X"
    assert str(stmt.body.value.args[2]) == "Z"
    assert s[Z].iter_var_attrs[xi].tensor_intrin == intrin
    assert s[Z].iter_var_attrs[xi].iter_type == tvm.te.schedule.IterVar.Tensorized


def test_region_and_matched_body_as_tvm_infers_them():
    # TVM's test_tensorize_vadd `check`: the scope covers 16 elements from xo * 16.
    x = te.placeholder((128,), name="x")
    y = te.placeholder((128,), name="y")
    z = te.compute(x.shape, lambda i: x[i] + y[i], name="z")
    s = te.create_schedule(z.op)
    xo, xi = s[z].split(z.op.axis[0], factor=16)
    vadd = _intrin_vadd(16)
    s[z].tensorize(xi, vadd)
    s = s.normalize()
    dom_map = tvm.te.schedule.InferBound(s)
    out_dom, in_dom = tvm.get_global_func("test.op.InferTensorizeRegion")(s[z], dom_map)
    tvm.ir.assert_structural_equal(out_dom[z.op.axis[0]].extent, tvm.tir.const(16, "int32"))
    tvm.ir.assert_structural_equal(out_dom[z.op.axis[0]].min, xo * 16)
    assert in_dom.items()[0][1][0].extent.value == 16
    body = tvm.get_global_func("test.op.MatchTensorizeBody")(s[z], out_dom, in_dom, vadd)
    ana = tvm.arith.Analyzer()
    tvm.ir.assert_structural_equal(ana.simplify(body[0]), ana.simplify(vadd.op.body[0]))


def test_tensorized_vadd_runs_and_binds_each_slice():
    packed = _register_packed()
    n, factor = 64, 16
    A = te.placeholder((n,), name="A")
    B = te.placeholder((n,), name="B")
    C = te.compute((n,), lambda i: A[i] + B[i], name="C")
    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=factor)
    s[C].tensorize(xi, _intrin_vadd(factor, "t_vadd"))
    text = str(tvm.lower(s, [A, B, C], simple_mode=True))
    # One call per tile, each array starting at the tile's first element.
    assert "for (i.outer, 0, 4)" in text, text
    assert "tvm_call_packed" in text and "i.outer*16" in text, text
    f = tvm.build(s, [A, B, C], "llvm")
    a = np.random.uniform(size=n).astype("float32")
    b = np.random.uniform(size=n).astype("float32")
    c = tvm.nd.array(np.zeros(n, "float32"))
    f(tvm.nd.array(a), tvm.nd.array(b), c)
    np.testing.assert_allclose(c.numpy(), a + b, rtol=1e-6)
    assert packed == [("vadd", (16,))] * 4


def _matmul(n, l):
    A = te.placeholder((n, l), name="A")
    B = te.placeholder((n, l), name="B")
    k = te.reduce_axis((0, l), name="k")
    C = te.compute((n, n), lambda i, j: te.sum(B[j, k] * A[i, k], axis=k), name="C")
    return A, B, C


def _run_matmul(s, A, B, C, n, l):
    f = tvm.build(s, [A, B, C], "llvm")
    a = np.random.uniform(size=(n, l)).astype("float32")
    b = np.random.uniform(size=(n, l)).astype("float32")
    c = tvm.nd.array(np.zeros((n, n), "float32"))
    f(tvm.nd.array(a), tvm.nd.array(b), c)
    np.testing.assert_allclose(c.numpy(), a @ b.T, rtol=1e-5)


def test_gemv_over_the_whole_reduction_runs_with_strided_rows():
    packed = _register_packed()
    # TVM's test_tensorize_matmul `check`: the intrinsic's W has variable row stride (ldw),
    # bound to the 1024-wide... here 32-wide rows of B.
    n, l, factor = 16, 32, 8
    A, B, C = _matmul(n, l)
    s = te.create_schedule(C.op)
    x, y = C.op.axis
    yo, yi = s[C].split(y, factor=factor)
    s[C].tensorize(yi, _intrin_gemv(factor, l))
    text = str(tvm.lower(s, [A, B, C], simple_mode=True))
    assert "t_gemv" in text and "t_gemv_add" not in text, text
    _run_matmul(s, A, B, C, n, l)
    assert packed == [("gemv", (factor, l))] * (n * n // factor)


def _split_gemv(with_reset):
    """TVM's check_rfactor: the reduce loop is split and its outer part stays outside the
    tensorized scope."""
    n, l, factor, rfactor = 16, 32, 8, 8
    A, B, C = _matmul(n, l)
    s = te.create_schedule(C.op)
    x, y = C.op.axis
    (rk,) = C.op.reduce_axis
    yo, yi = s[C].split(y, factor=factor)
    ro, ri = s[C].split(rk, factor=rfactor)
    s[C].reorder(yo, ro, yi, ri)
    s[C].tensorize(yi, _intrin_gemv(factor, rfactor, with_reset=with_reset))
    text = str(tvm.lower(s, [A, B, C], simple_mode=True))
    _run_matmul(s, A, B, C, n, l)
    tiles, steps = n * n // factor, l // rfactor
    return text, tiles, steps


def test_gemv_split_reduction_resets_then_updates():
    # Each output tile is reset once (reduce_init) and updated per outer reduce iteration.
    packed = _register_packed()
    text, tiles, steps = _split_gemv(with_reset=True)
    assert text.index("t_fill_zero") < text.index("for (k.outer"), text
    assert packed.count(("fill_zero", (8,))) == tiles
    assert packed.count(("gemv_add", (8, 8))) == tiles * steps


def test_gemv_split_reduction_without_reset_uses_the_body_first():
    # TVM's check_rfactor_no_reset: no reduce_init, so the first outer reduce iteration calls
    # the body (which overwrites) and the others the update (TVM's TransformUpdate).
    packed = _register_packed()
    text, tiles, steps = _split_gemv(with_reset=False)
    assert "likely((0 < k.outer))" in text, text
    assert packed.count(("gemv", (8, 8))) == tiles
    assert packed.count(("gemv_add", (8, 8))) == tiles * (steps - 1)


def test_a_different_computation_is_refused_at_the_tensorize_line():
    A = te.placeholder((64,), name="A")
    B = te.placeholder((64,), name="B")
    C = te.compute((64,), lambda i: A[i] * B[i], name="C")
    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=16)
    s[C].tensorize(xi, _intrin_vadd(16))
    _raises("which is not the intrinsic's", lambda: tvm.lower(s, [A, B, C]))


def test_an_uneven_split_inside_the_scope_is_refused():
    # TVM: "split condition relies on var defined inside tensorize scope".
    A = te.placeholder((60,), name="A")
    B = te.placeholder((60,), name="B")
    C = te.compute((60,), lambda i: A[i] + B[i], name="C")
    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=16)
    s[C].tensorize(xi, _intrin_vadd(16))
    _raises("uses a loop inside the tensorized scope", lambda: tvm.lower(s, [A, B, C]))


def test_a_compact_buffer_over_a_strided_region_is_refused():
    # The intrinsic's W has no strides, so it cannot be bound to 8 rows of a 32-wide B read
    # 8 columns at a time.
    n, l = 16, 32
    A, B, C = _matmul(n, l)
    s = te.create_schedule(C.op)
    x, y = C.op.axis
    (rk,) = C.op.reduce_axis
    yo, yi = s[C].split(y, factor=8)
    ro, ri = s[C].split(rk, factor=8)
    s[C].reorder(yo, ro, yi, ri)
    w = te.placeholder((8, 8), name="w")
    v = te.placeholder((8,), name="v")
    k = te.reduce_axis((0, 8), name="k")
    z = te.compute((8,), lambda i: te.sum(w[i, k] * v[k], axis=k), name="z")
    intrin = te.decl_tensor_intrin(
        z.op, lambda ins, outs: (tvm.tir.call_packed("g", *ins, outs[0]), None,
                                 tvm.tir.call_packed("g", *ins, outs[0])))
    s[C].tensorize(yi, intrin)
    _raises("not contiguous", lambda: tvm.lower(s, [A, B, C]))


# TensorComputeOp: te.compute whose fcompute calls a tensor intrinsic on regions of tensors.


def _vadd_stage(m=8, factor=16, name="t_vadd", scope=""):
    vadd = _intrin_vadd(factor, name, scope)
    A = te.placeholder((m, factor), name="A")
    B = te.placeholder((m, factor), name="B")
    C = te.compute((m, factor), lambda i: vadd(A[i, 0:factor], B[i, 0:factor]), name="C")
    return A, B, C


def _run_vadd(s, A, B, C):
    f = tvm.build(s, [A, B, C], "llvm")
    shape = tuple(int(d) for d in A.shape)
    a = np.random.uniform(size=shape).astype("float32")
    b = np.random.uniform(size=shape).astype("float32")
    c = tvm.nd.array(np.zeros(shape, "float32"))
    f(tvm.nd.array(a), tvm.nd.array(b), c)
    np.testing.assert_allclose(c.numpy(), a + b, rtol=1e-6)


def test_tensor_compute_op_calls_the_intrinsic_per_row_and_runs():
    packed = _register_packed()
    A, B, C = _vadd_stage()
    assert isinstance(C.op, te.TensorComputeOp)
    assert [iv.var.name for iv in C.op.axis] == ["i", "ax0"]
    assert C.op.axis[1].iter_type == tvm.te.schedule.IterVar.DimInfo
    s = te.create_schedule(C.op)
    # Only i is a loop: ax0 is the intrinsic's own axis.
    assert [iv.var.name for iv in s[C].leaf_iter_vars] == ["i"]
    text = str(tvm.lower(s, [A, B, C], simple_mode=True))
    assert "for (i, 0, 8)" in text and "i*16" in text, text
    _run_vadd(s, A, B, C)
    assert packed == [("vadd", (16,))] * 8


def test_tensor_compute_op_bounds_its_producer_by_its_regions():
    # TVM's test_bound_tensor_compute_op: iteration i of C reads rows [i, 10) of B, so over
    # C's loop (i in [0, 10)) B is needed over rows [0, 10).
    m1, n1 = te.var("m1"), te.var("n1")
    a = te.placeholder((m1, n1), name="a")
    c = te.compute((1, n1), lambda i, j: a[0, j] + a[1, j] + a[2, j], name="c")
    Ab = tvm.tir.decl_buffer(a.shape, name="Abuf", offset_factor=1)
    Cb = tvm.tir.decl_buffer(c.shape, name="Cbuf", offset_factor=1)

    def intrin_func(ins, outs):
        return tvm.tir.call_extern("int32", "test", outs[0].access_ptr("w"), ins[0].access_ptr("r"))

    intrin = te.decl_tensor_intrin(c.op, intrin_func, binds={a: Ab, c: Cb})
    A = te.placeholder((20, 20), name="A")
    B = te.compute(A.shape, lambda i, j: A[i, j], name="B")
    C = te.compute((10, 20), lambda i: intrin(B[i:10, 0:20]), name="C")
    s = te.create_schedule(C.op)
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[B.op.axis[0]].extent.value == 10
    # The trace shows the region the call reads, not one index.
    from boundscope.te import bound_trace  # Boundscope's own: the BoundTrace as JSON

    trace = bound_trace(s)
    assert '[i, +(10 - i))' in trace, trace


def test_tensor_compute_op_with_a_reduction_resets_then_updates():
    # TVM's test_tensor_compute2: a gemm intrinsic called per (i, j) tile and k step.
    packed = _register_packed()
    m, l, factor = 4, 4, 8

    def intrin_gemm(n, l):
        k = te.reduce_axis((0, l), name="kk")
        x = te.placeholder((n, l), name="x")
        y = te.placeholder((n, l), name="y")
        z = te.compute((n, n), lambda i, j: te.sum(x[i, k] * y[j, k], axis=k), name="z")

        def intrin_func(ins, outs):
            body = tvm.tir.call_packed("t_gemm", ins[0], ins[1], outs[0])
            reset = tvm.tir.call_packed("t_fill_zero", outs[0])
            update = tvm.tir.call_packed("t_gemm_add", ins[0], ins[1], outs[0])
            return body, reset, update

        return te.decl_tensor_intrin(z.op, intrin_func, default_buffer_params={"offset_factor": 1})

    @tvm.register_func("t_gemm_add", override=True)
    def gemm_add(x, y, z):
        packed.append(("gemm_add", x.shape))
        z.copyfrom(z.numpy() + x.numpy() @ y.numpy().T)

    gemm = intrin_gemm(factor, factor)
    A = te.placeholder((m, l, factor, factor), name="A")
    B = te.placeholder((m, l, factor, factor), name="B")
    k = te.reduce_axis((0, l), name="k")
    C = te.compute((m, m, factor, factor),
                   lambda i, j: gemm(A[i, k, 0:factor, 0:factor], B[j, k, 0:factor, 0:factor],
                                     reduce_axis=k), name="C")
    s = te.create_schedule(C.op)
    text = str(tvm.lower(s, [A, B, C], simple_mode=True))
    assert text.index("t_fill_zero") < text.index("for (k, 0, 4)") < text.index("t_gemm_add"), text
    f = tvm.build(s, [A, B, C], "llvm")
    a = np.random.uniform(size=(m, l, factor, factor)).astype("float32")
    b = np.random.uniform(size=(m, l, factor, factor)).astype("float32")
    c = tvm.nd.array(np.zeros((m, m, factor, factor), "float32"))
    f(tvm.nd.array(a), tvm.nd.array(b), c)
    expected = np.einsum("ikxr,jkyr->ijxy", a, b)
    np.testing.assert_allclose(c.numpy(), expected, rtol=1e-5)
    assert packed.count(("fill_zero", (factor, factor))) == m * m
    assert packed.count(("gemm_add", (factor, factor))) == m * m * l


def test_tensor_compute_op_passes_scalar_arguments():
    # TVM's test_tensor_intrin_scalar_params.
    n = te.size_var("n")
    x = te.placeholder((n,), name="x")
    v = te.size_var("v")
    w = te.size_var("w")
    z = te.compute((n,), lambda i: x[i] * v + w, name="z")

    def intrin_func(ins, outs, sp):
        assert sp[0] == v and sp[1] == w
        return tvm.tir.call_packed("hw_func", ins[0].data, outs[0].data, sp[0], sp[1])

    intrin = te.decl_tensor_intrin(z.op, intrin_func, scalar_params=[v, w],
                                   default_buffer_params={"offset_factor": 1})
    assert tuple(intrin.scalar_params) == (v, w)
    A = te.placeholder((10, 10), name="A")
    C = te.compute((10, 10), lambda i, j: intrin(i * i, A[i, j], i + j), name="C")
    s = te.create_schedule(C.op)
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert 'tvm_call_packed("hw_func", A, C, (i*i), (i + j))' in text, text


def test_tensor_compute_op_with_caches_and_compute_at_runs():
    # TVM's test_schedule_tensor_compute2 and 3: cache_read of its inputs, cache_write of its
    # output (the cache calls the intrinsic, the stage copies), and a producer computed at it.
    # As TVM's test, the intrinsic's buffers are "local", where the caches are.
    packed = _register_packed()
    A, B, C = _vadd_stage(scope="local")
    s = te.create_schedule(C.op)
    AL = s.cache_read(A, "local", C)
    BL = s.cache_read(B, "local", C)
    CL = s.cache_write(C, "local")
    assert isinstance(CL.op, te.TensorComputeOp) and isinstance(s[C].op, te.ComputeOp)
    _run_vadd(s, A, B, C)
    assert len(packed) == 8
    factor = 16
    vadd = _intrin_vadd(factor, "t_vadd")
    A = te.placeholder((8, factor), name="A")
    B = te.placeholder((8, factor), name="B")
    Bi = te.compute((8, factor), lambda i, j: B[i, j] + 5, name="Bi")
    C = te.compute((8, factor), lambda i: vadd(A[i, 0:factor], Bi[i, 0:factor]), name="C")
    s = te.create_schedule(C.op)
    s[Bi].compute_at(s[C], C.op.axis[0])
    text = str(tvm.lower(s, [A, B, C], simple_mode=True))
    assert "allocate Bi[float32 * 16]" in text, text
    f = tvm.build(s, [A, B, C], "llvm")
    a = np.random.uniform(size=(8, factor)).astype("float32")
    b = np.random.uniform(size=(8, factor)).astype("float32")
    c = tvm.nd.array(np.zeros((8, factor), "float32"))
    f(tvm.nd.array(a), tvm.nd.array(b), c)
    np.testing.assert_allclose(c.numpy(), a + b + 5, rtol=1e-6)


def test_tensorize_has_no_effect_on_a_tensor_compute_op():
    # TVM's test_tensorize_tensor_compute_op: the loop stays.
    A, B, C = _vadd_stage()
    s = te.create_schedule(C.op)
    s[C].tensorize(C.op.axis[0], _intrin_vadd(16, "multivadd"))
    stmt = tvm.te.schedule.ScheduleOps(s.normalize(), tvm.te.schedule.InferBound(s.normalize()))
    assert "for (i, 0, 8)" in str(stmt), str(stmt)


def test_inlining_what_a_tensor_compute_op_reads_is_refused():
    factor = 16
    vadd = _intrin_vadd(factor)
    A = te.placeholder((8, factor), name="A")
    B = te.placeholder((8, factor), name="B")
    Bi = te.compute((8, factor), lambda i, j: B[i, j] + 5, name="Bi")
    C = te.compute((8, factor), lambda i: vadd(A[i, 0:factor], Bi[i, 0:factor]), name="C")
    s = te.create_schedule(C.op)
    s[Bi].compute_inline()
    _raises("passes it to a tensor intrinsic", lambda: tvm.lower(s, [A, B, C]))


def test_a_different_dtype_is_refused():
    A = te.placeholder((64,), "float16", name="A")
    B = te.placeholder((64,), "float16", name="B")
    C = te.compute((64,), lambda i: A[i] + B[i], name="C")
    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=16)
    s[C].tensorize(xi, _intrin_vadd(16))
    _raises("input A is float16, the intrinsic's vx is float32", lambda: tvm.lower(s, [A, B, C]))


def test_a_consumer_of_part_of_the_intrinsic_output_still_gets_it_whole():
    # The intrinsic writes its 16 columns whatever D reads: C is realized 16 wide.
    packed = _register_packed()
    A, B, C = _vadd_stage()
    D = te.compute((8, 8), lambda i, j: C[i, j] * 2.0, name="D")
    s = te.create_schedule(D.op)
    text = str(tvm.lower(s, [A, B, D], simple_mode=True))
    assert "allocate C[float32 * 128]" in text, text
    f = tvm.build(s, [A, B, D], "llvm")
    a = np.random.uniform(size=(8, 16)).astype("float32")
    b = np.random.uniform(size=(8, 16)).astype("float32")
    d = tvm.nd.array(np.zeros((8, 8), "float32"))
    f(tvm.nd.array(a), tvm.nd.array(b), d)
    np.testing.assert_allclose(d.numpy(), ((a + b) * 2)[:, :8], rtol=1e-6)
    assert len(packed) == 8


def test_cache_write_of_a_split_tensor_compute_op_is_refused():
    A, B, C = _vadd_stage()
    s = te.create_schedule(C.op)
    s[C].split(C.op.axis[0], factor=2)
    _raises("were split or fused", lambda: s.cache_write(C, "local"))


def test_offset_factor_is_asserted_when_the_offset_depends_on_a_shape():
    # Row i of A starts at element i * w: a multiple of the intrinsic's offset_factor 16 only
    # for some w, so the kernel checks it when it runs (TVM's binder assert).
    packed = _register_packed()
    w = te.size_var("w")
    A = te.placeholder((4, w), name="A")
    B = te.placeholder((4, 16), name="B")
    vadd = _intrin_vadd(16, "t_vadd")
    C = te.compute((4, 16), lambda i: vadd(A[i, 0:16], B[i, 0:16]), name="C")
    s = te.create_schedule(C.op)
    text = str(tvm.lower(s, [A, B, C], simple_mode=True))
    assert "assert" in text and "offset_factor 16" in text, text
    f = tvm.build(s, [A, B, C], "llvm")
    b = np.random.uniform(size=(4, 16)).astype("float32")
    for width, ok in ((32, True), (20, False)):
        a = np.random.uniform(size=(4, width)).astype("float32")
        c = tvm.nd.array(np.zeros((4, 16), "float32"))
        try:
            f(tvm.nd.array(a), tvm.nd.array(b), c)
        except tvm.TVMError as e:
            assert not ok and "not a multiple of offset_factor 16" in str(e), str(e)
            continue
        assert ok, "the misaligned row was not caught"
        np.testing.assert_allclose(c.numpy(), a[:, :16] + b, rtol=1e-6)


def test_a_buffer_declared_in_another_scope_is_refused():
    # The intrinsic works on registers ("local"); A, B and C are in global memory.
    x = te.placeholder((16,), name="vx")
    y = te.placeholder((16,), name="vy")
    z = te.compute((16,), lambda i: x[i] + y[i], name="z")
    binds = {t: tvm.tir.decl_buffer(t.shape, t.dtype, name="L" + t.op.name, offset_factor=1,
                                    scope="local") for t in (x, y, z)}
    intrin = te.decl_tensor_intrin(
        z.op, lambda ins, outs: tvm.tir.call_packed("t_vadd", ins[0], ins[1], outs[0]),
        binds=binds)
    A = te.placeholder((64,), name="A")
    B = te.placeholder((64,), name="B")
    C = te.compute((64,), lambda i: A[i] + B[i], name="C")
    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=16)
    s[C].tensorize(xi, intrin)
    _raises("declared in scope 'local' but A is stored in 'global'", lambda: tvm.lower(s, [A, B, C]))


def test_access_ptr_prints_as_tvm():
    Ab = tvm.tir.decl_buffer((16,), "float32", name="Ab", offset_factor=1)
    ptr = Ab.access_ptr("r")
    text = str(ptr)
    assert "tvm_access_ptr" in text and "Ab_elem_offset" in text and ", 1)" in text, text


if __name__ == "__main__":
    tvm.testing.main()
