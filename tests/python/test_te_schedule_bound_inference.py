# InferBound through TVM's Python API, in the style of TVM's
# tests/python/unittest/test_te_schedule_bound_inference.py: every expected extent is the one TVM
# gives for the same schedule. TVM's tests of scan and tensor intrinsics are not here (the engine
# has neither yet); its group tests are in test_te_group.py.
import tvm
import tvm.testing
from tvm import te


def _copy_chain(shape):
    """A -> A1 (copy) -> A2 (A1 + 3), the pipeline most of TVM's bound tests schedule."""
    A = te.placeholder(shape, name="A")
    A1 = te.compute(shape, lambda i, j: A[i, j], name="A1")
    A2 = te.compute(shape, lambda i, j: A1[i, j] + 3, name="A2")
    return A, A1, A2


def test_bound1():
    m, l = te.var("m"), te.var("l")
    _, A1, A2 = _copy_chain((m, l))
    s = te.create_schedule([A2.op])
    xo, xi = s[A2].split(s[A2].op.axis[0], 8)
    s[A1].compute_at(s[A2], xo)
    bounds = tvm.te.schedule.InferBound(s)
    assert isinstance(bounds, tvm.container.Map)
    assert bounds[A1.op.axis[0]].extent.value == 8


def test_bound2_tile_with_normalize_in_between():
    m, l = te.var("m"), te.var("l")
    _, A1, A2 = _copy_chain((m, l))
    s = te.create_schedule(A2.op)
    xo, yo, xi, yi = s[A2].tile(A2.op.axis[0], A2.op.axis[1], 8, 8)
    _ = s.normalize()  # a normalized copy must not change s
    s[A1].compute_at(s[A2], yo)
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[A1.op.axis[0]].extent.value == 8
    assert bounds[A1.op.axis[1]].extent.value == 8


def test_bound3_shared_scope_relaxes_the_thread_loop():
    m, l = te.var("m"), te.var("l")
    _, A1, A2 = _copy_chain((m, l))
    s = te.create_schedule(A2.op)
    s[A1].set_scope("shared")
    xo, xi = s[A2].split(A2.op.axis[0], 32)
    xi0, xi1 = s[A2].split(xi, nparts=16)
    s[A2].bind(xi0, te.thread_axis("threadIdx.x"))
    yo, yi = s[A2].split(A2.op.axis[1], 16)
    _ = s.normalize()
    s[A2].reorder(xo, xi0, yo, xi1, yi)
    s[A1].compute_at(s[A2], yo)
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[A1.op.axis[0]].extent.value == 32
    assert bounds[A1.op.axis[1]].extent.value == 16


def _split_of_small_loop(**split_args):
    m = 8
    I = te.placeholder((m,), name="I")
    EF = te.compute((m,), lambda i: I[i] * 2, name="EF")
    E = te.compute((m,), lambda i: EF[i] * 2, name="E")
    s = te.create_schedule([E.op])
    xo, xi = s[E].split(s[E].op.axis[0], **split_args)
    s[EF].compute_at(s[E], xo)
    return m, xo, xi, tvm.te.schedule.InferBound(s)


def test_bound_split_ext_less_than_factor():
    m, _, xi, bounds = _split_of_small_loop(factor=32)
    assert bounds[xi].extent.value == m


def test_bound_split_ext_less_than_nparts():
    m, xo, _, bounds = _split_of_small_loop(nparts=32)
    assert bounds[xo].extent.value == m


def test_bound_split_divisible():
    m, l = te.var("m"), te.var("l")
    A = te.placeholder((8 * m, l), name="A")
    B = te.compute((8 * m, l), lambda i, j: A[i, j], name="B")
    s = te.create_schedule(B.op)
    xo, xi = s[B].split(B.op.axis[0], 8)
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[xo].extent == m
    assert bounds[xi].extent.value == 8


def test_bound_tile_divisible():
    m, l = te.var("m"), te.var("l")
    shape = (8 * m, 32 * l)
    A = te.placeholder(shape, name="A")
    B = te.compute(shape, lambda i, j: A[i, j], name="B")
    s = te.create_schedule(B.op)
    xo, yo, xi, yi = s[B].tile(B.op.axis[0], B.op.axis[1], 8, 32)
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[xo].extent == m
    assert bounds[xi].extent.value == 8
    assert bounds[yo].extent == l
    assert bounds[yi].extent.value == 32


def test_bound_fusesplit1_symbolic():
    m, l, split1 = te.var("m"), te.var("l"), te.var("s")
    _, A1, A2 = _copy_chain((m, l))
    s = te.create_schedule(A2.op)
    fused = s[A2].fuse(A2.op.axis[0], A2.op.axis[1])
    xo, xi = s[A2].split(fused, split1)
    s[A1].compute_at(s[A2], xo)
    bounds = tvm.te.schedule.InferBound(s)
    idxdiv = tvm.tir.indexdiv
    tvm.testing.assert_prim_expr_equal(bounds[A1.op.axis[0]].min, idxdiv(xo * split1, l))
    expected = idxdiv((xo + 1) * split1 - 1, l) - idxdiv(xo * split1, l) + 1
    for i in range(1, 6):
        for j in range(1, 6):
            for k in range(1, 6):
                vmap = tvm.runtime.convert({split1: tvm.tir.const(i, "int32"),
                                            l: tvm.tir.const(j, "int32"),
                                            xo.var: tvm.tir.const(k, "int32")})
                tvm.testing.assert_prim_expr_equal(
                    tvm.tir.stmt_functor.substitute(bounds[A1.op.axis[0]].extent, vmap),
                    tvm.tir.stmt_functor.substitute(expected, vmap))
    tvm.testing.assert_prim_expr_equal(bounds[A1.op.axis[1]].extent, l)


def test_bound_fusesplit2_constant():
    m = te.var("m")
    l = tvm.runtime.convert(6)
    split = tvm.runtime.convert(3)
    _, A1, A2 = _copy_chain((m, l))
    s = te.create_schedule(A2.op)
    fused = s[A2].fuse(A2.op.axis[0], A2.op.axis[1])
    xo, xi = s[A2].split(fused, split)
    s[A1].compute_at(s[A2], xo)
    bounds = tvm.te.schedule.InferBound(s)
    at5 = tvm.runtime.convert({xo.var: tvm.tir.const(5, "int32")})

    def value_at_xo5(expr):
        return tvm.tir.stmt_functor.substitute(expr, at5)

    # Iteration xo = 5 computes the fused elements 15..17: row 2, columns 3..5.
    tvm.testing.assert_prim_expr_equal(value_at_xo5(bounds[A1.op.axis[0]].min), 2)
    tvm.testing.assert_prim_expr_equal(value_at_xo5(bounds[A1.op.axis[1]].min), 3)
    tvm.testing.assert_prim_expr_equal(value_at_xo5(bounds[A1.op.axis[0]].extent), 1)
    tvm.testing.assert_prim_expr_equal(value_at_xo5(bounds[A1.op.axis[1]].extent), 3)


def test_bound_warp():
    m, l = te.var("m"), te.var("l")
    _, A1, A2 = _copy_chain((m, l))
    s = te.create_schedule(A2.op)
    s[A1].set_scope("warp")
    xo, xi = s[A2].split(A2.op.axis[0], 32)
    xi0, xi1 = s[A2].split(xi, factor=16)
    tx = te.thread_axis("threadIdx.x")
    s[A2].bind(xi1, tx)
    s[A2].bind(xi0, te.thread_axis("threadIdx.y"))
    s[A1].compute_at(s[A2], s[A2].op.axis[1])
    _, xi = s[A1].split(s[A1].op.axis[0], factor=16)
    s[A1].bind(xi, tx)
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[A1.op.axis[0]].extent.value == 16


def test_bound_conv1d():
    n = te.var("n")
    A = te.compute((n + 2), lambda i: 1, name="A")

    def compute_b(ii):
        i = ii + 1
        return A[i - 1] + A[i] + A[i + 1]

    B = te.compute(n, compute_b, name="B")
    s = te.create_schedule(B.op)
    s[A].compute_at(s[B], B.op.axis[0])
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[A.op.axis[0]].extent.value == 3


def test_bound_blur():
    n = tvm.runtime.convert(12)
    A = te.compute((n, n), lambda i, j: 1, name="A")

    def compute_b(ii, jj):
        i, j = ii + 1, jj + 1  # the centre of the 3x3 cross
        return A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j + 1] + A[i][j - 1]

    B = te.compute((n - 2, n - 2), compute_b, name="B")
    s = te.create_schedule(B.op)
    s[A].compute_at(s[B], B.op.axis[1])
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[A.op.axis[0]].extent.value == 3
    assert bounds[A.op.axis[1]].extent.value == 3


def test_bound_rfactor():
    n = te.var("n")
    A = te.placeholder((n,), name="A")
    k = te.reduce_axis((0, n))
    B = te.compute((1,), lambda i: te.sum(A[k], axis=k, where=(i > 1)), name="B")
    s = te.create_schedule(B.op)
    kf, _ = s[B].split(k, nparts=4)
    BF = s.rfactor(B, kf)
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[BF.op.axis[0]].extent.value == 4
    assert bounds[BF.op.axis[1]].extent.value == 1


def test_bound_nest_thread():
    m = te.var("m")
    A = te.placeholder((m), name="A")
    A1 = te.compute((m,), lambda i: A[i], name="A1")
    A2 = te.compute((m,), lambda i: A1[i] + 2, name="A2")
    A3 = te.compute((m,), lambda i: A2[i] + 3, name="A3")
    s = te.create_schedule(A3.op)
    s[A2].set_scope("shared")
    s[A1].set_scope("local")
    thread_x = te.thread_axis("threadIdx.x")
    bx, tx = s[A3].split(A3.op.axis[0], factor=32)
    s[A3].bind(bx, te.thread_axis("blockIdx.x"))
    s[A3].bind(tx, thread_x)
    s[A2].compute_at(s[A3], tx)
    _, xi = s[A2].split(A2.op.axis[0], nparts=1)
    s[A2].bind(xi, thread_x)
    s[A1].compute_at(s[A3], tx)
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[A1.op.axis[0]].extent.value == 1
    assert bounds[A2.op.axis[0]].extent.value == 32
    assert bounds[A3.op.axis[0]].extent == m


def test_gemm_bound():
    n = tvm.runtime.convert(1024)
    A = te.placeholder((n, n), name="A")
    B = te.placeholder((n, n), name="B")
    k = te.reduce_axis((0, n), name="k")
    C = te.compute((n, n), lambda ii, jj: te.sum(A[ii, k] * B[jj, k], axis=k), name="CC")
    s = te.create_schedule(C.op)
    num_thread = 8
    block_factor = 8 * num_thread
    thread_x, thread_y = te.thread_axis("threadIdx.x"), te.thread_axis("threadIdx.y")
    CC = s.cache_write(C, "local")
    AA = s.cache_read(A, "shared", [CC])
    BB = s.cache_read(B, "shared", [CC])
    by, yi = s[C].split(C.op.axis[0], factor=block_factor)
    bx, xi = s[C].split(C.op.axis[1], factor=block_factor)
    s[C].reorder(by, bx, yi, xi)
    s[C].bind(by, te.thread_axis("blockIdx.y"))
    s[C].bind(bx, te.thread_axis("blockIdx.x"))
    ty, yi = s[C].split(yi, nparts=num_thread)
    tx, xi = s[C].split(xi, nparts=num_thread)
    s[C].reorder(ty, tx, yi, xi)
    s[C].bind(ty, thread_y)
    s[C].bind(tx, thread_x)
    yo, xo = CC.op.axis
    s[CC].reorder(k, yo, xo)
    s[CC].compute_at(s[C], tx)
    s[AA].compute_at(s[CC], k)
    s[BB].compute_at(s[CC], k)
    for cached in (AA, BB):
        ty, xi = s[cached].split(s[cached].op.axis[0], nparts=num_thread)
        tx, xi = s[cached].split(xi, nparts=num_thread)
        s[cached].bind(ty, thread_y)
        s[cached].bind(tx, thread_x)
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[BB.op.axis[0]].extent.value == 64
    assert bounds[AA.op.axis[0]].extent.value == 64
    assert bounds[CC.op.axis[0]].extent.value == 8
    assert bounds[CC.op.axis[1]].extent.value == 8


def test_bound_simplification_failure():
    # Index expressions the simplifier cannot fold must not widen A's bound past its 2 elements.
    A = te.compute((2,), lambda j: j, "A")

    def check(B):
        s = te.create_schedule(B.op)
        s = s.normalize()
        bounds = tvm.te.schedule.InferBound(s)
        stmt = tvm.lower(s, [B, A], simple_mode=True)
        assert bounds[A.op.axis[0]].extent.value <= 2, str(stmt)

    tdiv = tvm.tir.truncdiv
    check(te.compute((10,), lambda i: A[tvm.te.min(3 * i, 4 * i) + tvm.te.min(-3 * i, -2 * i)]))
    check(te.compute((10,), lambda i: A[tvm.te.min(3 * i, 4 * i) + tvm.te.max(-3 * i, -4 * i)]))
    check(te.compute((10,), lambda i: A[-2 * tdiv(i, 2) - tvm.te.min(i, 0 - i)]))
    check(te.compute((10,), lambda i: A[i + (0 - i)]))
    check(te.compute((10,), lambda i: A[i]))  # out of bounds, yet A's bound stays 2


if __name__ == "__main__":
    tvm.testing.main()
