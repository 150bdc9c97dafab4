# Schedules that must lower, in the style of TVM's tests/python/unittest/test_te_schedule_ops.py:
# caches (also relayouting ones and multi-output ones), inlining (also of a multi-output
# reduction), pragmas and thread-bound local/shared stages, each through InferBound and
# ScheduleOps or tvm.lower. Where TVM inspects the statement tree (post_order_visit), these
# tests read the printed IR instead. (Scans, tensor intrinsics, auto-inline and schedule records
# have no counterpart in Boundscope.)
import numpy as np

import _boundscope
import tvm
import tvm.testing
from tvm import te


def _schedule_ops(s):
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    return str(tvm.te.schedule.ScheduleOps(s, bounds))


def test_const():
    x = tvm.te.const(1, "int32")
    assert x.dtype == "int32"
    assert isinstance(x, tvm.tir.IntImm)


def test_schedule1_pragma():
    m, l = te.var("m"), te.var("l")
    A = te.placeholder((m, l), name="A")
    A1 = te.compute((m, l), lambda i, j: A[i, j], name="A1")
    s = te.create_schedule(A1.op)
    xo, xi = s[A1].split(A1.op.axis[0], 8)
    s[A1].pragma(xo, "auto_unroll_max_step", 10)
    assert s[A1].iter_var_attrs[xo].pragma_values[0].value == 10
    text = str(tvm.lower(s, [A, A1], simple_mode=True))
    assert "pragma_auto_unroll_max_step" in text, text


def test_schedule2_compute_at():
    m, l = te.var("m"), te.var("l")
    A = te.placeholder((m, l), name="A")
    A1 = te.compute((m, l), lambda i, j: A[i, j], name="A1")
    A2 = te.compute((m, l), lambda i, j: A1[i, j] + 3, name="A2")
    s = te.create_schedule(A2.op)
    xo, xi = s[A2].split(A2.op.axis[0], 8)
    s[A1].compute_at(s[A2], xo)
    text = _schedule_ops(s)
    assert "realize A1([(i.outer*8), 8], [0, l])" in text, text


def test_inline_multi_reduce():
    def argmax_comp(x, y):
        idx = tvm.tir.Select((x[1] >= y[1]), x[0], y[0])
        val = tvm.tir.Select((x[1] >= y[1]), x[1], y[1])
        return idx, val

    def argmax_init(idx_typ, val_typ):
        return tvm.tir.const(-1, idx_typ), tvm.te.min_value(val_typ)

    argmax = te.comm_reducer(argmax_comp, argmax_init, name="argmax")
    m, n = te.var("m"), te.var("n")
    val = te.placeholder((m, n), name="val", dtype="float32")
    val1 = te.compute((m, n), lambda i, j: val[i, j] + 1, name="val1")
    val2 = te.compute((m, n), lambda i, j: te.exp(val1[i, j]), name="val2")
    k = te.reduce_axis((0, n), "k")
    T_idx, T_val = te.compute((m,), lambda i: argmax((k.var, val2[i, k]), axis=k), name="T")
    s = te.create_schedule(T_idx.op)
    s[val1].compute_inline()
    text = _schedule_ops(s)
    assert "val1" not in text and "val2(i, j) =exp((val(i, j) + 1.000000f))" in text, text
    assert "T.v0(i) =select((T.v1(i) >= val2(i, k)), T.v0(i), k)" in text, text


def test_schedule_const_bound():
    A = te.placeholder((128,), name="A")
    A1 = te.compute((128,), lambda i: A[i] + 1, name="A1")
    s = te.create_schedule(A1.op)
    s[A1].split(A1.op.axis[0], 8)
    bounds = tvm.te.schedule.InferBound(s)
    assert isinstance(bounds, tvm.container.Map)
    text = str(tvm.te.schedule.ScheduleOps(s, bounds))
    assert "for (i.outer, 0, 16)" in text and "likely" not in text, text


def _product(m, n):
    A = te.placeholder((m, n), name="A")
    B = te.placeholder((m, n), name="B")
    return A, B, te.compute((m, n), lambda i, j: A(i, j) * B(i, j), name="C")


def test_schedule_cache():
    A, B, C = _product(te.var("m"), te.var("n"))
    s = te.create_schedule(C.op)
    AA = s.cache_read(A, "shared", readers=[C])
    CC = s.cache_write(C, "shared")
    s[AA].compute_at(s[CC], CC.op.axis[0])
    text = _schedule_ops(s)
    assert "realize A.shared([i.c, 1], [0, n])" in text, text


def test_schedule_middle_cache():
    m, n = te.var("m"), te.var("n")
    A, B, C = _product(m, n)
    D = te.compute((m, n), lambda i, j: C(i, j), name="D")
    s = te.create_schedule(D.op)
    s.cache_read(A, "local", readers=[C])
    s.cache_read(B, "local", readers=[C])
    s.cache_read(C, "local", readers=[D])
    s.cache_write(D, "local")
    text = _schedule_ops(s)
    for name in ("A.local", "B.local", "C.local", "D.local"):
        assert "realize %s(" % name in text, (name, text)


def test_schedule_cache_relayout1():
    A, B, C = _product(te.var("m"), te.var("n"))
    s = te.create_schedule(C.op)
    s[C].reorder(C.op.axis[1], C.op.axis[0])
    s.cache_write(C, "global")
    text = _schedule_ops(s)
    # the cache keeps C's loop order, j outermost
    assert text.index("for (j.c, ") < text.index("for (i.c, "), text


def test_schedule_cache_relayout2():
    m, n = te.var("m"), te.var("n")
    A, B, C = _product(m * 4, n)
    s = te.create_schedule(C.op)
    x, y = C.op.axis
    xo, xi = s[C].split(x, factor=4)
    s[C].reorder(xo, y, xi)
    s.cache_write(C, "global")
    assert "realize C.global(" in _schedule_ops(s)


def test_schedule_cache_relayout3():
    m, n = te.var("m"), te.var("n")
    A = te.placeholder((m * 4, n), name="A")
    B = te.placeholder((m * 4, n), name="B")
    k = te.reduce_axis((0, n), "k")
    C = te.compute((A.shape[0],), lambda i: te.sum(A(i, k) * B(i, k), axis=k), name="C")
    s = te.create_schedule(C.op)
    s[C].split(C.op.axis[0], factor=4)
    s.cache_write(C, "global")
    assert "realize C.global(" in _schedule_ops(s)


def test_schedule_cache_relayout4_multi_output():
    m, n = te.var("m"), te.var("n")
    A = te.placeholder((m * 4, n), name="A")
    B = te.placeholder((m * 4, n), name="B")
    C1, C2 = te.compute(A.shape, lambda *index: (A(*index) + 1, B(*index) / 2), name="C")
    s = te.create_schedule([C1.op, C2.op])
    C1_cache, C2_cache = s.cache_write([C1, C2], "local")
    assert C1_cache.op.same_as(C2_cache.op)
    assert "realize C.local.v0(" in _schedule_ops(s)


def test_schedule_compute_inline_with_caches():
    shape = [10, 1024]
    A = te.placeholder(shape, name="A")
    B = te.placeholder(shape, name="B")
    C = te.compute(shape, lambda *index: A(*index) + B(*index), name="C")
    F, E = te.compute(shape, lambda *index: (C(*index), C(*index) * B(*index)), name="F")
    s = te.create_schedule([F.op, E.op])
    s.cache_read(A, "local", [C])
    s.cache_read(B, "local", [C, E])
    s.cache_write(C, "local")
    s.cache_write([F, E], "local")
    s[C].compute_inline()
    text = _schedule_ops(s)
    assert "realize C(" not in text and "realize C.local(" in text, text


def test_local_stage_predicate():
    A = te.placeholder((1, 3, 2), name="A")
    B = te.compute((1, 3, 2), lambda bi, bj, bk: A[bi, bj, bk], name="B")
    C = te.compute((1, 3, 2), lambda ci, cj, ck: B[ci, cj, ck], name="C")

    def schedule(thread_tag, mem_scope):
        s = te.create_schedule(C.op)
        s[B].compute_at(s[C], s[C].op.axis[0])
        s[B].set_scope(mem_scope)
        _, bni = s[B].split(s[B].op.axis[1], 3)
        s[C].bind(s[C].op.axis[0], te.thread_axis("blockIdx.x"))
        s[C].bind(s[C].op.axis[1], thread_tag)
        s[B].bind(bni, thread_tag)
        return s

    # A stage in local (shared) memory needs no guard for a thread (block) it is not relaxed over.
    for tag, scope in (("threadIdx.x", "local"), ("vthread", "local"), ("blockIdx.y", "shared")):
        text = str(tvm.lower(schedule(te.thread_axis(tag), scope), [A, C], simple_mode=True))
        assert "if (" not in text, (tag, scope, text)
    # Local storage is private to each virtual thread: B's region is one row per thread (TVM's
    # bounds), B's store adds the thread once, and each of the 3 threads gets its own row.
    s = schedule(te.thread_axis("vthread"), "local")
    text = _schedule_ops(s)
    assert "realize B([0, 1], [vthread, 1], [0, 2])" in text, text
    assert "B(0, vthread, bk) =A(0, vthread, bk)" in text, text
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert "allocate B[float32 * 6]" in text, text


def _local_stage_at_vthread_loops():
    # TVM's test_local_stage_predicate ("local vs. vthread") without the block binding, so that
    # it runs on the CPU, where a virtual thread is a serial loop.
    A = te.placeholder((2, 3, 4), name="A")
    B = te.compute((2, 3, 4), lambda i, j, k: A[i, j, k] * 2.0, name="B")
    C = te.compute((2, 3, 4), lambda i, j, k: B[i, j, k] + 1.0, name="C")
    s = te.create_schedule(C.op)
    vx = te.thread_axis("vthread", name="vx")
    s[B].compute_at(s[C], C.op.axis[0])
    s[B].set_scope("local")
    _, inner = s[B].split(B.op.axis[1], factor=3)
    s[C].bind(C.op.axis[1], vx)
    s[B].bind(inner, vx)
    return A, C, s


def test_local_stage_at_vthread_loops_runs():
    A, C, s = _local_stage_at_vthread_loops()
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert "if (" not in text, text
    assert "allocate B[float32 * 12]" in text, text
    if not _boundscope._has_llvm:
        return
    f = tvm.build(s, [A, C])
    a = np.random.uniform(size=(2, 3, 4)).astype("float32")
    c = np.zeros((2, 3, 4), dtype="float32")
    f(a, c)
    np.testing.assert_allclose(c, a * 2.0 + 1.0, rtol=1e-6)


def test_local_stage_at_vthread_loops_producer_relaxes_the_thread():
    # A global producer of the per-thread local stage, computed at the root (outside every
    # vthread loop), serves all the virtual threads: its region covers their rows. (TVM leaves
    # `vx` free in that region and rejects the program.)
    A = te.placeholder((2, 3, 4), name="A")
    P = te.compute((2, 3, 4), lambda i, j, k: A[i, j, k] - 1.0, name="P")
    B = te.compute((2, 3, 4), lambda i, j, k: P[i, j, k] * 2.0, name="B")
    C = te.compute((2, 3, 4), lambda i, j, k: B[i, j, k] + 1.0, name="C")
    s = te.create_schedule(C.op)
    vx = te.thread_axis("vthread", name="vx")
    s[B].compute_at(s[C], C.op.axis[0])
    s[B].set_scope("local")
    _, inner = s[B].split(B.op.axis[1], factor=3)
    s[C].bind(C.op.axis[1], vx)
    s[B].bind(inner, vx)
    bounds = tvm.te.schedule.InferBound(s.normalize())
    assert bounds[P.op.axis[1]].extent.value == 3
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert "allocate P[float32 * 24]" in text, text


def test_local_stage_predicate2():
    A = te.placeholder((128,), name="A")
    B = te.compute((128,), lambda bi: A[bi] + 1, name="B")
    C = te.compute((128,), lambda ci: B[ci] + 2, name="C")
    s = te.create_schedule(C.op)
    AA = s.cache_read(A, "local", [B])
    s[B].set_scope("shared")
    block_x = te.thread_axis("blockIdx.x")
    thread_x = te.thread_axis((0, 32), "threadIdx.x")
    oc, ic = s[C].split(s[C].op.axis[0], factor=64)
    ooc, ioc = s[C].split(oc, factor=2)
    oic, iic = s[C].split(ic, factor=32)
    s[C].bind(ooc, block_x)
    s[C].bind(iic, thread_x)
    s[B].compute_at(s[C], ioc)
    ob, ib = s[B].split(s[B].op.axis[0], factor=32)
    s[B].bind(ib, thread_x)
    s[AA].compute_root()
    s[AA].compute_at(s[C], ooc)
    oaa, iaa = s[AA].split(s[AA].op.axis[0], factor=32)
    s[AA].bind(iaa, thread_x)
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert "if (" not in text, text
    # TVM's check: an allocation of 97 elements (A.local over 2 iterations of 64, minus 31)
    assert "* 97]" in text, text


def test_loop_dep_reduce():
    X = te.placeholder(shape=(10,), name="x")

    def f(n):
        rv = te.reduce_axis((0, n))
        return te.sum(X[rv], axis=rv)

    Y = te.compute(X.shape, f, name="y")
    s = te.create_schedule([Y.op])
    text = str(tvm.lower(s, [X, Y], simple_mode=True))
    assert "for (rv, 0, n)" in text, text  # the reduction extent is the axis itself


def test_loop_dep_reduce_cache_write():
    X = te.placeholder(shape=(10,), name="x")

    def f(n):
        rv = te.reduce_axis((0, n))
        init = lambda dtype: tvm.tir.Select(n > 1, tvm.tir.const(0, dtype), n.astype(dtype))
        sum = te.comm_reducer(lambda x, y: tvm.te.max(x + y, n.astype("float32")), init,
                              name="sum")
        return sum(X[rv], axis=rv)

    Y = te.compute(X.shape, f, name="y")
    s = te.create_schedule([Y.op])
    s.cache_write(Y, "local")
    text = str(tvm.lower(s, [X, Y], simple_mode=True))
    # the cache's reducer uses the cache's own axis n.c, in its result and in its identity
    assert "y.local[n.c] = select((1 < n.c), 0.000000f, float32(n.c))" in text, text
    assert "y.local[n.c] = max((y.local[n.c] + x[rv]), float32(n.c))" in text, text


def test_reduction_and_dummy_fuse_split():
    n = 10
    X = te.placeholder(shape=(n,), dtype="int32", name="X")
    k = te.reduce_axis((0, n))
    Y = te.compute((), lambda: te.sum(X[k], k), name="Y")
    s = te.create_schedule([Y.op])
    ax = s[Y.op].fuse(*Y.op.axis)
    axo, axi = s[Y.op].split(ax, nparts=20)
    bounds = tvm.te.schedule.InferBound(s.normalize())
    assert bounds[axo].extent.value == 1 and bounds[axi].extent.value == 1


if __name__ == "__main__":
    tvm.testing.main()
