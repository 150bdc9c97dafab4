# tvm.te.schedule.AutoInlineElemWise / AutoInlineBroadcast / AutoInlineInjective, with TVM's
# test_auto_inline of tests/python/te/test_te_schedule_ops.py and the cases it leaves out: a stage
# already scheduled, an output, a reduction and a read that is not element-wise stay as they are.
import tvm
import tvm.testing
from tvm import te

K_GROUP_ROOT = 1
K_INLINE = 2


def _elemwise():
    m = te.var("m")
    n = te.var("n")
    A = te.placeholder((m, n), name="A")
    B = te.placeholder((m, n), name="B")
    C = te.placeholder((m, n), name="C")
    T1 = te.compute((m, n), lambda i, j: A(i, j) * B(i, j), name="T1")
    T2 = te.compute((m, n), lambda i, j: T1(i, j) + C(i, j), name="T2")
    return te.create_schedule(T2.op), T1


def _broadcast():
    m = te.var("m")
    n = te.var("n")
    A = te.placeholder((1,), name="A")
    B = te.placeholder((m, n), name="B")
    C = te.placeholder((m, n), name="C")
    T1 = te.compute((m, n), lambda i, j: A(0) * B(i, j), name="T1", tag="broadcast")
    T2 = te.compute((m, n), lambda i, j: T1(i, j) + C(i, j), name="T2")
    return te.create_schedule(T2.op), T1


def _injective():
    m = te.var("m")
    n = te.var("n")
    A = te.placeholder((m,), name="A")
    B = te.placeholder((m, n), name="B")
    C = te.placeholder((m, n), name="C")
    T1 = te.compute((m, n), lambda i, j: A(i) * B(i, j), name="T1")
    T2 = te.compute((m, n), lambda i, j: T1(i, j) + C(i, j), name="T2")
    return te.create_schedule(T2.op), T1


def _check_auto_inline(schedule_func, auto_inline_func):
    s, T1 = schedule_func()
    assert s[T1].attach_type == K_GROUP_ROOT
    auto_inline_func(s)
    assert s[T1].attach_type == K_INLINE
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    stmt = tvm.te.schedule.ScheduleOps(s, bounds)
    assert "T1" not in str(stmt).replace("T2", ""), str(stmt)


def test_auto_inline():
    # TVM's own three cases.
    _check_auto_inline(_elemwise, tvm.te.schedule.AutoInlineElemWise)
    _check_auto_inline(_broadcast, tvm.te.schedule.AutoInlineBroadcast)
    _check_auto_inline(_injective, tvm.te.schedule.AutoInlineInjective)


def test_elemwise_leaves_a_read_at_other_indices():
    s, T1 = _injective()  # T1 reads A(i): not at its own axes (i, j)
    tvm.te.schedule.AutoInlineElemWise(s)
    assert s[T1].attach_type == K_GROUP_ROOT


def test_scheduled_stages_outputs_and_reductions_stay():
    s, T1 = _elemwise()
    s[T1].split(T1.op.axis[0], 4)
    tvm.te.schedule.AutoInlineInjective(s)
    assert s[T1].attach_type == K_GROUP_ROOT  # split: scheduled

    s, T1 = _elemwise()
    s[T1].reorder(T1.op.axis[1], T1.op.axis[0])
    tvm.te.schedule.AutoInlineInjective(s)
    assert s[T1].attach_type == K_GROUP_ROOT  # reordered: scheduled

    A = te.placeholder((8, 8), name="A")
    k = te.reduce_axis((0, 8), name="k")
    R = te.compute((8,), lambda i: te.sum(A[i, k], axis=k), name="R")
    S = te.compute((8,), lambda i: R[i] * 2, name="S")
    s = te.create_schedule(S.op)
    for f in (tvm.te.schedule.AutoInlineElemWise, tvm.te.schedule.AutoInlineBroadcast,
              tvm.te.schedule.AutoInlineInjective):
        f(s)
    assert s[R].attach_type == K_GROUP_ROOT  # a reduction
    assert s[S].attach_type == K_GROUP_ROOT  # the output


if __name__ == "__main__":
    tvm.testing.main()
