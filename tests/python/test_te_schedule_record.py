# Schedule records (TVM's te.keep_schedule_record in a PassContext, s.schedule_record and
# s.primitive_record), in the style of TVM's test_te_schedule_ops.py test_schedule_record_*:
# TVM's assertions, then what a record holds (copies of the schedule at each step, each one
# lowerable), and tvm.transform.PassContext itself.
import tvm
import tvm.testing
from tvm import te


def _gemm(n=64):
    k = te.reduce_axis((0, n), "k")
    A = te.placeholder((n, n), name="A")
    B = te.placeholder((n, n), name="B")
    C = te.compute((n, n), lambda m, j: te.sum(A[m, k] * B[k, j], axis=k), name="C")
    return A, B, C, k


def test_schedule_record_gemm():
    with tvm.transform.PassContext(config={"te.keep_schedule_record": True}):
        A, B, C, k = _gemm(1024)
        s = te.create_schedule(C.op)
        assert len(s.schedule_record) == 1
        mo, no, mi, ni = s[C].tile(C.op.axis[0], C.op.axis[1], 32, 32)
        ko, ki = s[C].split(k, factor=8)
        s[C].reorder(mo, ko, no, mi, ki, ni)
        s[C].vectorize(ni)
        s[C].parallel(mo)
        assert len(s.schedule_record) == 8
        assert list(s.primitive_record) == ["vanilla", "split", "split", "reorder", "split",
                                            "reorder", "vectorize", "parallel"]


def test_schedule_record_misc():
    s = te.create_schedule([])
    assert len(s.schedule_record) == 0
    with tvm.transform.PassContext(config={"te.keep_schedule_record": True}):
        s = te.create_schedule([])
        assert len(s.schedule_record) == 1
        stg = te.compute((), lambda *args: 0, name="empty_op")
        s = te.create_schedule(stg.op)
        assert len(s.schedule_record) == 1


def test_records_are_copies_of_each_step():
    A, B, C, k = _gemm()
    with tvm.transform.PassContext(config={"te.keep_schedule_record": True}):
        s = te.create_schedule(C.op)
    assert s.keep_schedule_record
    xo, xi = s[C].split(C.op.axis[0], factor=8)
    s[C].reorder(xi, xo)
    records = s.schedule_record
    assert [len(r[C].leaf_iter_vars) for r in records] == [3, 4, 4]
    assert [r[C].leaf_iter_vars[0].var.name for r in records] == ["m", "m.outer", "m.inner"]
    # A copy keeps no record of its own, and each step lowers.
    assert not records[1].keep_schedule_record and len(records[1].schedule_record) == 0
    assert "for (m.outer, 0, 8)" in str(tvm.lower(records[1], [A, B, C], simple_mode=True))
    # A primitive that fails changes nothing and records nothing.
    try:
        s[C].split(xi, factor=0)
        assert False
    except tvm.error.TVMError:
        pass
    assert len(s.schedule_record) == 3
    # Stage primitives of other stages and of a cache are recorded with TVM's names.
    AA = s.cache_read(A, "shared", [C])
    s[AA].compute_at(s[C], xo)
    assert list(s.primitive_record)[-1] == "compute_at"


def test_no_record_outside_the_context():
    A, B, C, k = _gemm()
    s = te.create_schedule(C.op)
    s[C].split(C.op.axis[0], factor=8)
    assert not s.keep_schedule_record
    assert len(s.schedule_record) == 0 and len(s.primitive_record) == 0


def test_pass_context():
    outer = tvm.transform.PassContext.current()
    with tvm.transform.PassContext(opt_level=3, config={"tir.noalias": True}) as ctx:
        assert tvm.transform.PassContext.current() is ctx
        assert ctx.opt_level == 3
        with tvm.transform.PassContext(config={"tir.debug_keep_trivial_loop": True}):
            A = te.placeholder((4, 1), name="A")
            B = te.compute((4, 1), lambda i, j: A[i, j] + 1, name="B")
            text = str(tvm.lower(te.create_schedule(B.op), [A, B], simple_mode=True))
            assert "for (j, 0, 1)" in text, text
        assert tvm.transform.PassContext.current() is ctx
    assert tvm.transform.PassContext.current() is outer
    assert tvm.ir.transform.PassContext is tvm.transform.PassContext
    try:
        tvm.transform.PassContext(config={"te.keep_schedule_recrod": True})
        assert False
    except AttributeError as e:
        assert "Invalid config option 'te.keep_schedule_recrod'" in str(e)


if __name__ == "__main__":
    tvm.testing.main()
