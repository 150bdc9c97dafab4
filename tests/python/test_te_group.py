# Schedule groups (s.create_group), in the style of TVM's tests/python/te/test_te_group.py and
# the group tests of test_te_schedule_bound_inference.py: TVM's own assertions (membership,
# nesting, child counts, the compute_at rule inside a group, InferBound through a group), plus
# what the lowered program does with them and that the result is still right. TVM's
# test_scan_group is in test_te_scan.py.
import numpy as np

import tvm
import tvm.testing
from tvm import te


def _chain(m, n):
    x = te.compute((m, n), lambda i, j: tvm.tir.const(1, "float32"), name="x")
    x1 = te.compute(x.shape, lambda *i: x(*i) + 1, name="x1")
    x2 = te.compute(x.shape, lambda *i: x1(*i) + 2, name="x2")
    return x, x1, x2


def test_compute_group():
    x, x1, x2 = _chain(te.size_var("m"), te.size_var("n"))
    s = te.create_schedule(x2.op)
    g = s.create_group(outputs=x1, inputs=x, include_inputs=True)
    assert s[x1].group == g
    assert s[x].group == g
    g.compute_at(s[x2], x2.op.axis[1])
    assert g.attach_stage == s[x2]
    assert g.num_child_stages == 2


def test_nest_group():
    x, x1, x2 = _chain(te.size_var("m"), te.size_var("n"))
    s = te.create_schedule(x2.op)
    g1 = s.create_group(outputs=x1, inputs=x)
    g2 = s.create_group(outputs=x1, inputs=x, include_inputs=True)
    assert set(s.groups) == set([g1, g2])
    assert s[x].group == g2
    assert s[x1].group == g1
    assert g1.group == g2
    assert g2.num_child_stages == 2
    assert g1.num_child_stages == 1


def test_bound_group_schedule():
    m = te.var("m")
    n = te.var("n")
    x, x1, x2 = _chain(m, n)
    s = te.create_schedule(x2.op)
    g = s.create_group(outputs=x1, inputs=x, include_inputs=True)
    g.compute_at(s[x2], x2.op.axis[0])
    assert s[x1].group == g
    assert s[x].group == g
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[x.op.axis[0]].extent.value == 1
    assert bounds[x.op.axis[1]].extent == n


def test_bound_nest_group():
    m = te.var("m")
    n = te.var("n")
    x, x1, x2 = _chain(m, n)
    s = te.create_schedule(x2.op)
    g1 = s.create_group(outputs=x, inputs=x, include_inputs=True)
    g2 = s.create_group(outputs=x1, inputs=x, include_inputs=True)
    assert s[x].group == g1
    assert s[x1].group == g2
    g2.compute_at(s[x2], x2.op.axis[0])
    g1.compute_at(s[x1], s[x1].op.axis[1])
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[x.op.axis[0]].extent.value == 1
    assert bounds[x.op.axis[1]].extent.value == 1
    assert bounds[x1.op.axis[0]].extent.value == 1
    assert bounds[x1.op.axis[1]].extent == n


def test_compute_at_outside_the_group_is_refused():
    x, x1, x2 = _chain(8, 8)
    s = te.create_schedule(x2.op)
    s.create_group(outputs=x1, inputs=x, include_inputs=True)
    try:
        s[x].compute_at(s[x2], x2.op.axis[0])
        assert False, "compute_at out of the group was accepted"
    except tvm.error.TVMError as e:
        assert "same group" in str(e), str(e)
    # Inside the group it is fine.
    s[x].compute_at(s[x1], x1.op.axis[1])


def test_grouping_a_stage_attached_outside_moves_it_to_the_group_root():
    x, x1, x2 = _chain(8, 8)
    s = te.create_schedule(x2.op)
    s[x].compute_at(s[x2], x2.op.axis[0])
    g = s.create_group(outputs=x1, inputs=x, include_inputs=True)
    assert s[x].attach_stage is None
    assert s[x].group == g


def test_group_cutting_an_existing_group_is_refused():
    A = te.placeholder((8,), name="A")
    B = te.compute((8,), lambda i: A[i] + 1, name="B")
    C = te.compute((8,), lambda i: B[i] * 2, name="C")
    D = te.compute((8,), lambda i: C[i] - 1, name="D")
    s = te.create_schedule(D.op)
    s.create_group(outputs=C, inputs=A)  # B and C
    try:
        s.create_group(outputs=D, inputs=B)  # C and D: half of the first group
        assert False, "a group cutting another was accepted"
    except tvm.error.TVMError as e:
        assert "whole groups" in str(e), str(e)


def test_lowered_group_is_computed_inside_the_attach_loop_and_runs():
    A = te.placeholder((16, 16), name="A")
    B = te.compute((16, 16), lambda i, j: A[i, j] + 1, name="B")
    C = te.compute((16, 16), lambda i, j: B[i, j] * 2, name="C")
    D = te.compute((16, 16), lambda i, j: C[i, j] - 1, name="D")
    s = te.create_schedule(D.op)
    g = s.create_group(outputs=C, inputs=A)
    xo, xi = s[D].split(D.op.axis[0], factor=4)
    g.compute_at(s[D], xo)
    text = str(tvm.lower(s, [A, D], simple_mode=True))
    # B and C are realized per iteration of i.outer: 4 rows each, B before C.
    assert "allocate(B" in text or "B = T.allocate" in text or "B[" in text, text
    assert text.index("for (i.outer") < text.index("B[") < text.index("C["), text
    bounds = tvm.te.schedule.InferBound(s.normalize())
    assert bounds[B.op.axis[0]].extent.value == 4
    assert bounds[C.op.axis[0]].extent.value == 4
    f = tvm.build(s, [A, D], "llvm")
    a = tvm.nd.array(np.random.uniform(size=(16, 16)).astype("float32"))
    d = tvm.nd.array(np.zeros((16, 16), dtype="float32"))
    f(a, d)
    tvm.testing.assert_allclose(d.numpy(), (a.numpy() + 1) * 2 - 1, rtol=1e-6)


if __name__ == "__main__":
    tvm.testing.main()
