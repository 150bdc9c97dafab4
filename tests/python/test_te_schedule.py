# The schedule primitives through TVM's Python API, in the style of TVM's
# tests/python/unittest/test_te_schedule.py: leaf order after split/tile/fuse/reorder, the
# relation objects, loop annotations, pragmas and rfactor. (TVM's JSON and pickle round trips
# and tensor intrinsics have no counterpart in Boundscope.)
import tvm
import tvm.testing
from tvm import te


def _two_d(name="T"):
    m, n = te.size_var("m"), te.size_var("n")
    A = te.placeholder((m, n), name="A")
    return m, n, A, te.compute((m, n), lambda i, j: A[i, j], name=name)


def test_schedule_create():
    m, n, l = te.size_var("m"), te.size_var("n"), te.size_var("l")
    A = te.placeholder((m, l), name="A")
    B = te.placeholder((n, l), name="B")
    AA = te.compute((m, l), lambda i, j: A[i, j])
    T = te.compute((m, n, l), lambda i, j, k: AA(i, k) * B(j, k))
    s = te.create_schedule(T.op)
    s[AA].set_scope("shared")
    xo, xi = s[T].split(T.op.axis[0], factor=10)
    xi1, xi2 = s[T].split(xi, factor=2)
    s[AA].compute_at(s[T], xi1)
    s[AA].split(AA.op.axis[0], factor=10)
    s[T].reorder(xi2, xi1)
    assert T.op.axis[1] in s[T].leaf_iter_vars
    assert isinstance(s, tvm.te.schedule.Schedule)
    assert s.outputs[0].same_as(T.op)
    assert str(s.outputs[0].body[0]) == str(T.op.body[0])
    assert s.stage_map[AA.op] == s[AA]
    assert s[AA].attach_stage == s[T] and s[AA].attach_ivar.same_as(xi1)


def test_reorder():
    m = te.size_var("m")
    A = te.placeholder((m,), name="A")
    T = te.compute(m, lambda i: A[i + 1])
    s = te.create_schedule(T.op)
    xo, xi = s[T].split(T.op.axis[0], factor=10)
    xi1, xi2 = s[T].split(xi, factor=2)
    order = (xi2, xi1, xo)
    assert tuple(s[T].leaf_iter_vars) != order
    s[T].reorder(*order)
    assert tuple(s[T].leaf_iter_vars) == order
    try:
        s[T].reorder(xi2, xi1, xi2)  # a duplicate IterVar must raise
        assert False, "reorder accepted a duplicate"
    except tvm.error.TVMError:
        pass
    assert tuple(s[T].leaf_iter_vars) == order  # and leave the stage unchanged


def test_split():
    m = te.size_var("m")
    A = te.placeholder((m,), name="A")
    T = te.compute((m,), lambda i: A[i])
    s = te.create_schedule(T.op)
    xo, xi = s[T].split(T.op.axis[0], factor=10)
    assert tuple(s[T].leaf_iter_vars) == (xo, xi)
    (split,) = s[T].relations
    assert isinstance(split, tvm.te.schedule.Split)
    assert split.parent.same_as(T.op.axis[0]) and split.outer.same_as(xo)
    assert split.factor.value == 10 and split.nparts is None


def test_split_nparts():
    m = te.size_var("m")
    A = te.placeholder((m,), name="A")
    T = te.compute((m,), lambda i: A[i])
    s = te.create_schedule(T.op)
    xo, xi = s[T].split(T.op.axis[0], nparts=4)
    (split,) = s[T].relations
    assert split.nparts.value == 4 and split.factor is None
    assert tuple(s[T].leaf_iter_vars) == (xo, xi)


def test_tile():
    _, _, _, T = _two_d()
    s = te.create_schedule(T.op)
    xo, yo, xi, yi = s[T].tile(T.op.axis[0], T.op.axis[1], x_factor=10, y_factor=5)
    assert tuple(s[T].leaf_iter_vars) == (xo, yo, xi, yi)


def test_fuse():
    _, _, _, T = _two_d()
    s = te.create_schedule(T.op)
    xo, yo, xi, yi = s[T].tile(T.op.axis[0], T.op.axis[1], x_factor=10, y_factor=5)
    fused = s[T].fuse(xo, yo)
    assert any(isinstance(x, tvm.te.schedule.Fuse) for x in s[T].relations)
    assert tuple(s[T].leaf_iter_vars) == (fused, xi, yi)


def test_fuse_with_split():
    _, _, _, T = _two_d()
    s = te.create_schedule(T.op)
    y = T.op.axis[1]
    xo, xi = s[T].split(T.op.axis[0], factor=10)
    fused = s[T].fuse(xi, y)
    assert any(isinstance(x, tvm.te.schedule.Fuse) for x in s[T].relations)
    assert tuple(s[T].leaf_iter_vars) == (xo, fused)


def test_fuse_with_out_of_order_axis():
    # TVM marks this xfail (it does not check); Boundscope rejects non-adjacent leaves.
    _, _, _, T = _two_d()
    s = te.create_schedule(T.op)
    xo, xi = s[T].split(T.op.axis[0], factor=10)
    try:
        s[T].fuse(xo, T.op.axis[1])
        assert False, "fuse of non-adjacent leaves was accepted"
    except tvm.error.TVMError:
        pass


def test_singleton():
    A = te.placeholder((), name="A")
    T = te.compute((), lambda: A() + 1)
    s = te.create_schedule(T.op)
    fused = s[T].fuse()
    assert any(isinstance(x, tvm.te.schedule.Singleton) for x in s[T].relations)
    assert tuple(s[T].leaf_iter_vars) == (fused,)


def test_vectorize():
    _, _, _, T = _two_d()
    s = te.create_schedule(T.op)
    xo, yo, xi, yi = s[T].tile(T.op.axis[0], T.op.axis[1], x_factor=10, y_factor=5)
    s[T].vectorize(yi)
    s[T].unroll(xi)
    s[T].parallel(xo)
    UNROLL = tvm.te.schedule.IterVar.Unrolled
    VECTORIZE = tvm.te.schedule.IterVar.Vectorized
    assert s[T].iter_var_attrs[xi].iter_type == UNROLL
    assert s[T].iter_var_attrs[yi].iter_type == VECTORIZE
    assert s[T].iter_var_attrs[xo].iter_type == tvm.te.schedule.IterVar.Parallelized
    assert yo not in s[T].iter_var_attrs


def test_pragma():
    A = te.placeholder((100,), name="A")
    T = te.compute((100,), lambda i: A[i])
    s = te.create_schedule(T.op)
    xo, xi = s[T].split(T.op.axis[0], factor=10)
    s[T].pragma(xo, "pragma1")
    s[T].pragma(xi, "vectorize")
    VECTORIZE = tvm.te.schedule.IterVar.Vectorized
    assert s[T].iter_var_attrs[xo].pragma_keys[0].value == "pragma1"
    assert s[T].iter_var_attrs[xi].iter_type == VECTORIZE


def test_bind_records_the_thread():
    _, _, _, T = _two_d()
    s = te.create_schedule(T.op)
    bx = te.thread_axis("blockIdx.x")
    s[T].bind(T.op.axis[0], bx)
    assert s[T].iter_var_attrs[T.op.axis[0]].bind_thread.same_as(bx)
    assert bx.thread_tag == "blockIdx.x"


def test_rfactor():
    n = te.size_var("n")
    k1 = te.reduce_axis((0, n), name="k1")
    k2 = te.reduce_axis((0, n), name="k2")
    A = te.placeholder((n, n, n), name="A")
    B = te.compute((n,), lambda i: te.sum(A[i, k1, k2], axis=[k1, k2]))
    # plain rfactor: BF keeps k2, B reduces over the new axis of extent n
    s = te.create_schedule(B.op)
    BF = s.rfactor(B, k1)
    assert tuple(BF.shape) == (n, n)
    assert set(BF.op.body[0].axis) == set([k2])
    assert s[B].op.body[0].axis[0].dom.extent == n
    assert len(s[B].all_iter_vars) == 2
    # rfactor of a split's inner axis
    s = te.create_schedule(B.op)
    ko, ki = s[B].split(k1, factor=4)
    s[B].split(B.op.axis[0], factor=8)
    BF = s.rfactor(B, ki)
    assert BF.shape[0].value == 4
    assert BF.shape[1] == n
    assert BF.op.body[0].axis[0] == k2
    assert BF.op.body[0].axis[1].var == ko.var
    assert s[B].op.body[0].axis[0].dom.extent.value == 4
    # factor_axis puts the factored axis second
    s = te.create_schedule(B.op)
    ko, ki = s[B].split(k1, factor=4)
    s[B].split(B.op.axis[0], factor=8)
    BF = s.rfactor(B, ki, 1)
    assert n == BF.shape[0]
    assert BF.shape[1].value == 4
    assert BF.op.body[0].axis[0] == k2
    assert BF.op.body[0].axis[1].var == ko.var
    assert s[B].op.body[0].axis[0].dom.extent.value == 4


def test_normalize_rebases_root_loops_and_keeps_the_schedule():
    m = te.size_var("m")
    A = te.placeholder((m,), name="A")
    T = te.compute((m,), lambda i: A[i], name="T")
    s = te.create_schedule(T.op)
    before = tuple(s[T].leaf_iter_vars)
    sn = s.normalize()
    assert tuple(s[T].leaf_iter_vars) == before  # normalize works on a copy
    rebases = [r for r in sn[T].relations if isinstance(r, tvm.te.schedule.Rebase)]
    assert len(rebases) == 1 and rebases[0].parent.same_as(T.op.axis[0])
    assert tuple(sn[T].leaf_iter_vars) == (rebases[0].rebased,)


if __name__ == "__main__":
    tvm.testing.main()
