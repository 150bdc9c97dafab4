# Stage.prefetch (TVM's prefetch_data / prefetch_offset, InjectPrefetch and StorageFlatten's
# cache-line loop): in each iteration of the loop, the part of the tensor that the iteration
# `offset` ahead reads is prefetched, one `prefetch(address_of(...), 0, 3, 1)` per 64-byte line.
# A hint: results are unchanged (checked against numpy), the CPU code calls llvm.prefetch, and
# what cannot be prefetched is said at the script line.
import numpy as np

import tvm
import tvm.testing
from tvm import te


def _rows(n=32, m=64):
    A = te.placeholder((n, m), name="A")
    B = te.compute((n, m), lambda i, j: A[i, j] * 2.0, name="B")
    s = te.create_schedule(B.op)
    return A, B, s


def test_prefetch_records_the_tensor_and_offset():
    A, B, s = _rows()
    i, j = B.op.axis
    s[B].prefetch(A, i, 1)
    attrs = s[B].iter_var_attrs[i]
    assert list(attrs.prefetch_data) == [A]
    assert [o.value for o in attrs.prefetch_offset] == [1]
    # after ScheduleOps: the attr inside the loop, as TVM's MakeLoopNest puts it
    ops = str(tvm.lower(s, [A, B], after="schedule_ops"))
    assert "// attr [placeholder(A" in ops and "prefetch_scope = 1" in ops, ops
    assert ops.index("for (i, 0, 32)") < ops.index("prefetch_scope"), ops


def test_prefetch_is_a_loop_over_the_cache_lines_of_the_next_row():
    A, B, s = _rows()
    i, j = B.op.axis
    s[B].prefetch(A, i, 1)
    text = str(tvm.lower(s, [A, B], simple_mode=True))
    # a row of 64 float32 is 4 lines of 16: the loop steps by 16 over row i + 1
    assert "for (prefetch.A.1, 0, 4) {" in text, text
    assert "prefetch(address_of(A[(((i*64) + (prefetch.A.1*16)) + 64)]), 0, 3, 1)" in text, text
    assert text.index("prefetch(") < text.index("B[") , text


def test_small_trailing_dimensions_share_a_line():
    # rows of 4 float32 (16 bytes): 4 rows per line, the loop steps over rows by 4
    A = te.placeholder((64, 8, 4), name="A")
    B = te.compute((64, 8, 4), lambda i, j, k: A[i, j, k] + 1.0, name="B")
    s = te.create_schedule(B.op)
    s[B].prefetch(A, B.op.axis[0], 2)
    text = str(tvm.lower(s, [A, B], simple_mode=True))
    assert "for (prefetch.A.1, 0, 2) {" in text, text
    assert "prefetch.A.0" not in text, text


def test_results_are_unchanged_and_the_cpu_code_prefetches():
    A, B, s = _rows()
    io, ii = s[B].split(B.op.axis[0], factor=4)
    s[B].prefetch(A, io, 1)
    s[B].vectorize(B.op.axis[1])
    f = tvm.build(s, [A, B], "llvm")
    assert "@llvm.prefetch" in f.get_source(), f.get_source()
    a = np.random.uniform(size=(32, 64)).astype("float32")
    b = tvm.nd.array(np.zeros((32, 64), "float32"))
    f(tvm.nd.array(a), b)
    tvm.testing.assert_allclose(b.numpy(), a * 2.0, rtol=1e-6)


def test_nothing_is_prefetched_where_the_loop_does_not_read_the_tensor():
    A, B, s = _rows()
    C = te.placeholder((32, 64), name="C")
    s[B].prefetch(C, B.op.axis[0], 1)
    text = str(tvm.lower(s, [A, B], simple_mode=True))
    assert "prefetch(" not in text, text


def _error(fn):
    try:
        fn()
    except tvm.error.TVMError as e:
        return str(e)
    return "no error"


def test_what_cannot_be_prefetched_is_said_at_its_line():
    A, B, s = _rows()
    io, ii = s[B].split(B.op.axis[0], factor=32)  # io has one iteration
    s[B].prefetch(A, io, 1)
    msg = _error(lambda: tvm.lower(s, [A, B]))
    assert "prefetch of loop 'i.outer' in stage 'B'" in msg and "one iteration" in msg, msg
    # a non-leaf IterVar
    A, B, s = _rows()
    i = B.op.axis[0]
    s[B].split(i, factor=4)
    msg = _error(lambda: s[B].prefetch(A, i, 1))
    assert "prefetch" in msg and "'i'" in msg, msg
    # one output of a multi-output stage
    A, B, s = _rows()
    T0, T1 = te.compute((32, 64), lambda i, j: (A[i, j], A[i, j] + 1.0), name="T")
    C = te.compute((32, 64), lambda i, j: T0[i, j] + T1[i, j], name="C")
    s = te.create_schedule(C.op)
    msg = _error(lambda: s[C].prefetch(T1, C.op.axis[0], 1))
    assert "several outputs" in msg, msg


if __name__ == "__main__":
    tvm.testing.main()
