# split(..., disable_predication=True), as TVM's test_split_disable_predicate of
# tests/python/te/test_te_schedule.py checks it (TVM's vscale factor aside: no scalable vectors
# here): a split that does not divide its loop gets a bound check unless predication is disabled,
# and the relation says so.
import tvm
import tvm.testing
from tvm import te
from tvm.driver.build_module import schedule_to_module


def _predicates(split_factor, disable_predication):
    A = te.placeholder((43,), name="A")
    B = te.compute(A.shape, lambda i: A[i] + 2, name="C")
    sch = te.create_schedule(B.op)
    (i,) = sch[B].op.axis
    _, _ = sch[B].split(i, factor=split_factor, disable_predication=disable_predication)
    mod = schedule_to_module(sch, [A, B], "main")
    predicates = []

    def _find_predicates(stmt):
        if isinstance(stmt, tvm.tir.stmt.IfThenElse):
            predicates.append(stmt)

    tvm.tir.stmt_functor.post_order_visit(mod["main"].body, _find_predicates)
    return sch[B], predicates


def test_split_disable_predicate():
    for split_factor in (4, 8):
        for disable_predication in (True, False):
            stage, predicates = _predicates(split_factor, disable_predication)
            assert bool(len(predicates)) != disable_predication, (split_factor, disable_predication)
            assert stage.relations[0].disable_predication == disable_predication


def test_nparts_split_disables_predication_too():
    A = te.placeholder((43,), name="A")
    B = te.compute(A.shape, lambda i: A[i] + 2, name="C")
    s = te.create_schedule(B.op)
    s[B].split(B.op.axis[0], nparts=5, disable_predication=True)
    text = str(tvm.lower(s, [A, B], simple_mode=True))
    assert "likely" not in text, text


def test_scalable_split_factor_lowers_and_build_says_why_not():
    # TVM's test_split_disable_predicate splits by 4 * vscale(): the loops and the guard are
    # symbolic in vscale, which no target here can compile.
    A = te.placeholder((43,), name="A")
    B = te.compute(A.shape, lambda i: A[i] + 2, name="C")
    s = te.create_schedule(B.op)
    s[B].split(B.op.axis[0], factor=4 * tvm.tir.vscale())
    text = str(tvm.lower(s, [A, B], simple_mode=True))
    assert "for (i.inner, 0, (vscale()*4))" in text, text
    assert "likely" in text
    try:
        tvm.build(s, [A, B])
        assert False
    except tvm.error.TVMError as e:
        assert "unknown intrinsic 'vscale'" in str(e)


if __name__ == "__main__":
    tvm.testing.main()
