# Every name DESIGN.md's "The front end" lists, called the way TVM's documentation calls it
# (keyword arguments included), and the TVM 0.6 spellings the seeds use. Each test checks what
# the call did, not only that it exists.
import tvm
import tvm.testing
from tvm import te


def _elementwise(n=64):
    A = te.placeholder(shape=(n, n), dtype="float32", name="A")
    B = te.compute(shape=(n, n), fcompute=lambda i, j: A[i, j] + 1.0, name="B", tag="ewise")
    C = te.compute((n, n), lambda i, j: B[i][j] * 2.0, name="C")
    return A, B, C


def test_placeholder_compute_and_tensor_access():
    A, B, C = _elementwise()
    assert A.dtype == "float32" and A.name == "A" and len(A.shape) == 2
    assert isinstance(A.op, te.PlaceholderOp) and isinstance(B.op, te.ComputeOp)
    assert B.op.tag == "ewise"
    assert [iv.var.name for iv in B.op.axis] == ["i", "j"]
    assert B.shape[0].value == 64
    # A[i, j] and A[i][j] build the same load
    i, j = C.op.axis
    assert str(A[i, j]) == str(A[i][j])
    assert C.op.input_tensors[0] == B


def test_variables_and_reductions():
    n = te.var("n")
    m = te.size_var(name="m", dtype="int32")
    assert n.dtype == "int32" and m.name == "m"
    A = te.placeholder((n, m), name="A")
    k = te.reduce_axis((0, m), name="k")
    assert k.iter_type == tvm.tir.IterVar.CommReduce and k.dom.extent.same_as(m)
    S = te.compute((n,), lambda i: te.sum(A[i, k], axis=k), name="S")
    k2 = te.reduce_axis((0, m), name="k2")
    M = te.compute((n,), lambda i: te.max(A[i, k2], axis=k2, where=A[i, k2] > 0), name="M")
    k3 = te.reduce_axis((0, m), name="k3")
    N = te.compute((n,), lambda i: te.min(A[i, k3], axis=[k3]), name="N")
    for T, name in ((S, "sum"), (M, "max"), (N, "min")):
        body = T.op.body[0]
        assert isinstance(body, tvm.tir.Reduce), name
    assert not isinstance(M.op.body[0].condition, tvm.tir.IntImm)
    # with two expressions the reducers combine elementwise, as TVM's do
    assert isinstance(te.max(n, m), tvm.tir.Max)
    assert isinstance(te.min(n, 3), tvm.tir.Min)


def test_thread_axis_forms():
    tx = te.thread_axis("threadIdx.x")
    assert tx.thread_tag == "threadIdx.x" and tx.dom is None
    bx = te.thread_axis((0, 32), "blockIdx.x")
    assert bx.dom.extent.value == 32
    vt = te.thread_axis(tag="vthread", name="vx")
    assert vt.var.name == "vx" and vt.iter_type == tvm.tir.IterVar.ThreadIndex


def test_split_keyword_forms():
    A, B, C = _elementwise()
    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=8)
    yo, yi = s[C].split(parent=C.op.axis[1], nparts=4)
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[xi].extent.value == 8 and bounds[xo].extent.value == 8
    assert bounds[yo].extent.value == 4 and bounds[yi].extent.value == 16


def test_tile_fuse_reorder_with_keywords():
    A, B, C = _elementwise()
    s = te.create_schedule([C.op])
    xo, yo, xi, yi = s[C].tile(x_parent=C.op.axis[0], y_parent=C.op.axis[1],
                               x_factor=16, y_factor=4)
    s[C].reorder(xi, yo)
    assert tuple(s[C].leaf_iter_vars) == (xo, xi, yo, yi)
    f = s[C].fuse(yo, yi)
    assert tuple(s[C].leaf_iter_vars) == (xo, xi, f)
    bounds = tvm.te.schedule.InferBound(s.normalize())
    assert bounds[f].extent.value == 64


def test_compute_at_root_inline():
    A, B, C = _elementwise()
    s = te.create_schedule(C.op)
    s[B].compute_at(parent=s[C], scope=C.op.axis[0])
    assert s[B].attach_type == 4 and s[B].attach_stage == s[C]
    bounds = tvm.te.schedule.InferBound(s.normalize())
    assert bounds[B.op.axis[0]].extent.value == 1
    s[B].compute_root()
    assert s[B].attach_type == 1
    s[B].compute_inline()
    assert s[B].attach_type == 2
    assert s.normalize()[B].attach_type == 3
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert "B[" not in text and "A[" in text, text


def test_bind_set_scope_and_loop_kinds():
    A, B, C = _elementwise()
    s = te.create_schedule(C.op)
    bx, tx = te.thread_axis("blockIdx.x"), te.thread_axis("threadIdx.x")
    s[C].bind(ivar=C.op.axis[0], thread_ivar=bx)
    s[C].bind(C.op.axis[1], tx)
    s[B].set_scope(scope="shared")
    s[B].compute_at(s[C], C.op.axis[0])
    assert s[B].scope == "shared"
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert "thread_extent = 64" in text, text
    s2 = te.create_schedule(C.op)
    xo, xi = s2[C].split(C.op.axis[1], factor=4)
    s2[C].vectorize(var=xi)
    s2[C].unroll(xo)
    s2[C].parallel(C.op.axis[0])
    kinds = {iv.var.name: attr.iter_type for iv, attr in s2[C].iter_var_attrs.items()}
    assert kinds == {"i": tvm.tir.IterVar.Parallelized, "j.outer": tvm.tir.IterVar.Unrolled,
                     "j.inner": tvm.tir.IterVar.Vectorized}, kinds


def test_cache_read_cache_write_rfactor():
    n = 128
    A = te.placeholder((n, n), name="A")
    k = te.reduce_axis((0, n), name="k")
    C = te.compute((n,), lambda i: te.sum(A[i, k], axis=k), name="C")
    s = te.create_schedule(C.op)
    CL = s.cache_write(tensor=C, scope="local")
    AS = s.cache_read(tensor=A, scope="shared", readers=[CL])
    assert [st.op.name for st in s.stages] == ["A", "A.shared", "C.local", "C"]
    assert s[AS].scope == "shared" and s[CL].scope == "local"
    s2 = te.create_schedule(C.op)
    ko, ki = s2[C].split(k, factor=16)
    CF = s2.rfactor(tensor=C, axis=ki, factor_axis=0)
    assert CF.shape[0].value == 16 and CF.shape[1].value == n


def test_normalize_infer_bound_and_lower():
    A, B, C = _elementwise(16)
    s = te.create_schedule(C.op)
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    assert isinstance(bounds, tvm.container.Map) and isinstance(bounds, tvm.ir.Map)
    assert all(isinstance(r, tvm.ir.Range) for r in bounds.values())
    assert bounds[C.op.axis[0]].min.value == 0 and bounds[C.op.axis[0]].extent.value == 16
    lowered = tvm.lower(s, [A, C], simple_mode=True)
    text = str(lowered)
    assert "for (i, 0, 16)" in text and "for (j, 0, 16)" in text, text


def test_analysis_helpers():
    x, y = te.var("x"), te.var("y")
    ana = tvm.arith.Analyzer()
    assert ana.simplify(x * 4 + 2 - x * 4).value == 2
    tvm.testing.assert_prim_expr_equal(tvm.tir.indexdiv(x * 8 + 3, 8), x)
    tvm.testing.assert_prim_expr_equal(tvm.tir.indexmod(x * 8 + 3, 8), 3)
    try:
        tvm.testing.assert_prim_expr_equal(x, y)
        assert False, "x and y compared equal"
    except ValueError as err:
        assert str(err) == "x and y are not equal"
    ana.bind(y, tvm.ir.Range(0, 8))
    bound = ana.const_int_bound(y * 2 + 1)
    assert (bound.min_value, bound.max_value) == (1, 15)
    assert ana.can_prove(y < 8) and not ana.can_prove(y < 7)
    assert ana.modular_set(x * 6 + 4).coeff == 6 and ana.modular_set(x * 6 + 4).base == 4
    with ana.constraint_scope(x > 10):
        assert ana.can_prove(x > 5)
    assert not ana.can_prove(x > 5)
    z = te.var("z")
    ana.update(z, tvm.arith.ConstIntBound(-4, 4))
    try:
        ana.bind(z, tvm.ir.Range(0, 2))
        assert False, "z was bound twice"
    except tvm.error.TVMError as err:
        assert "already bound" in str(err), err
    assert ana.const_int_bound(z * z).max_value == 16
    assert str(ana.canonical_simplify(z * 2 + z)) == "(z*3)"
    assert str(ana.rewrite_simplify(tvm.tir.max(z, 5))) == "5"
    # substitute does not fold, as in TVM: simplify (or assert_prim_expr_equal) does
    replaced = tvm.tir.stmt_functor.substitute(x + y * 2, {x: 3, y: x})
    assert str(replaced) == "(3 + (x*2))", replaced
    tvm.testing.assert_prim_expr_equal(tvm.tir.stmt_functor.substitute(x + y, {x: 3, y: 4}), 7)


def test_tvm_06_spellings():
    n = tvm.var("n")
    A = tvm.placeholder((n,), name="A")
    k = tvm.reduce_axis((0, n), name="k")
    S = tvm.compute((1,), lambda i: tvm.sum(A[k], axis=k), name="S")
    M = tvm.compute((1,), lambda i: tvm.max(A[k], axis=k), name="M")
    s = tvm.create_schedule(S.op)
    tx = tvm.thread_axis("threadIdx.x")
    s[S].bind(S.op.axis[0], tx)
    assert tvm.const(3).dtype == "int32" and tvm.const(1.5, "float64").dtype == "float64"
    assert isinstance(tvm.max(n, 1), tvm.expr.Max) and isinstance(M.op.body[0], tvm.expr.Reduce)
    bounds = tvm.schedule.InferBound(s.normalize())
    assert bounds[S.op.axis[0]].extent.value == 1
    assert tvm.ir_pass.Simplify(n + 1 - n).value == 1
    assert tvm.ir_pass.Simplify(tvm.ir_pass.Substitute(n * 2, {n: 5})).value == 10


def test_assert_allclose_as_tvm_testing_has_it():
    import numpy as np

    a = tvm.nd.array(np.arange(6, dtype="float32").reshape(2, 3))
    tvm.testing.assert_allclose(a, np.arange(6).reshape(2, 3))
    tvm.testing.assert_allclose([1.0, 2.0], [1.0, 2.0 + 1e-9])
    for actual, desired in (([1.0, 2.0], [1.0, 2.1]), ([1.0, 2.0], [[1.0, 2.0]])):
        try:
            tvm.testing.assert_allclose(actual, desired)
        except AssertionError:
            continue
        assert False, "assert_allclose accepted %s for %s" % (actual, desired)


def test_operations_keep_their_attrs():
    A = te.placeholder((8,), name="A")
    B = te.compute((8,), lambda i: A[i] + 1, name="B", attrs={"layout": "N", "pad": 2})
    assert B.op.attrs["layout"] == "N" and B.op.attrs["pad"].value == 2
    assert dict(A.op.attrs) == {} and dict(te.compute((8,), lambda i: B[i], name="C").op.attrs) == {}
    E = te.extern((8,), [B], lambda ins, outs: tvm.tir.call_packed("f", ins[0], outs[0]),
                  name="E", attrs={"k": 1.5})
    assert abs(E.op.attrs["k"].value - 1.5) < 1e-6


def test_missing_engine_features_say_so():
    A, B, C = _elementwise()
    s = te.create_schedule(C.op)
    for owner, name in ((te, "create_prim_func"),
                        (s[C], "rolling_buffer")):
        assert not hasattr(owner, name), name
        try:
            getattr(owner, name)
        except AttributeError as err:
            assert "has no attribute '%s' (not available in Boundscope yet)" % name in str(err)


if __name__ == "__main__":
    tvm.testing.main()
