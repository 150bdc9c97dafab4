# TVM's timing for attachments it cannot lower (TVM's test_te_schedule.py test_compute_at): a
# compute_at of an output, onto itself or closing a cycle is accepted by the call and refused by
# tvm.lower, with the message at the compute_at's line.
import inspect

import tvm
import tvm.testing
from tvm import te


def _add():
    shape = (16, 16)
    A = te.compute(shape, lambda *i: 1.0, name="A")
    B = te.compute(shape, lambda *i: 2.0, name="B")
    C = te.compute(shape, lambda *i: A(*i) + B(*i), name="C")
    return A, B, C


def _refused_by_lower(s, args, message):
    try:
        tvm.lower(s, args, simple_mode=True)
    except RuntimeError as e:
        assert message in str(e), str(e)
        return
    assert False, "lowered"


def test_compute_at_onto_itself():
    A, B, C = _add()
    s = te.create_schedule(C.op)
    s[C].compute_at(s[C], C.op.axis[0])
    _refused_by_lower(s, [A, B], "'C' is an output and must be computed at the root")


def test_compute_at_closing_a_cycle():
    A, B, C = _add()
    s = te.create_schedule(C.op)
    s[A].compute_at(s[C], C.op.axis[0])
    s[C].compute_at(s[A], A.op.axis[0])
    _refused_by_lower(s, [C], "must be computed at the root")


def test_a_cycle_of_two_producers_is_named_at_the_call_that_closed_it():
    A, B, C = _add()
    D = te.compute((16, 16), lambda *i: C(*i) * 2, name="D")
    s = te.create_schedule(D.op)
    s[A].compute_at(s[B], B.op.axis[0])
    line = inspect.currentframe().f_lineno + 1
    s[B].compute_at(s[A], A.op.axis[1])
    try:
        tvm.lower(s, [D], simple_mode=True)
        assert False, "lowered"
    except tvm.error.TVMError as e:
        text = "compute_at of stage 'B' at 'i1' of stage 'A': it makes an attach cycle B -> A -> B"
        assert text in str(e), str(e)
        # The error's line is the compute_at's that closed the cycle.
        assert e._bs_subject[7] == line, (line, e._bs_subject)


if __name__ == "__main__":
    tvm.testing.main()
