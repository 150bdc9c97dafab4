# tvm.te.schedule's graph helpers, in the style of TVM's tests/python/te/test_te_schedule_graph.py
# (its scan tests are in test_te_scan.py): CreateReadGraph, PostDFSOrder and CreateAttachPath.
import tvm
import tvm.testing
from tvm import te


def test_create_read_graph():
    # TVM's own.
    m = te.var("m")
    l = te.var("l")
    A = te.placeholder((m, l), name="A")
    A1 = te.compute((m, l), lambda i, j: A[i, j])
    A2 = te.compute((m, l), lambda i, j: A1[i, j] + 3)

    g = tvm.te.schedule.CreateReadGraph([A2.op])

    assert g[A2.op][0] == A1
    assert g[A1.op][0] == A
    post_order = tvm.te.schedule.PostDFSOrder([A2.op], g)
    assert post_order[0] == A.op
    assert post_order[1] == A1.op


def test_create_attach_path_follows_compute_at_and_groups():
    A = te.placeholder((16, 8), name="A")
    A1 = te.compute((16, 8), lambda i, j: A[i, j], name="A1")
    A2 = te.compute((16, 8), lambda i, j: A1[i, j] + 3, name="A2")
    s = te.create_schedule(A2.op)
    xo, xi = s[A2].split(A2.op.axis[0], 4)
    s[A1].compute_at(s[A2], xi)
    path = tvm.te.schedule.CreateAttachPath(s)
    # Innermost first: the attach point, then the loops outside it.
    assert [iv.var.name for iv in path[A1.op]] == ["i.inner", "i.outer"]
    assert list(path[A2.op]) == []
    # A stage at the root of a group is where the group is.
    s = te.create_schedule(A2.op)
    g = s.create_group(outputs=A1, inputs=A)
    g.compute_at(s[A2], A2.op.axis[0])
    assert [iv.var.name for iv in tvm.te.schedule.CreateAttachPath(s)[A1.op]] == ["i"]


if __name__ == "__main__":
    tvm.testing.main()
