# Stage.double_buffer (TVM's double_buffer_scope and InjectDoubleBuffer): a stage computed at a
# loop gets two halves; iteration 0's producer runs before the loop, and each iteration fills the
# next one's half while its consumers read its own. Lowered shapes as TVM's pass makes them,
# results against numpy, and the allocation report's two halves.
import numpy as np

import tvm
import tvm.testing
from tvm import te


def _tiled(n=64, m=16, factor=8):
    A = te.placeholder((n, m), name="A")
    B = te.compute((n, m), lambda i, j: A[i, j] * 2.0, name="B")
    C = te.compute((n, m), lambda i, j: B[i, j] + 1.0, name="C")
    s = te.create_schedule(C.op)
    io, ii = s[C].split(C.op.axis[0], factor=factor)
    s[B].compute_at(s[C], io)
    return A, B, C, s, io


def test_double_buffer_lowers_as_tvm():
    A, B, C, s, io = _tiled()
    s[B].double_buffer()
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    # Two halves of the 8x16 tile, allocated before the loop over i.outer.
    assert "allocate B[float32 * 256]" in text, text
    assert text.index("allocate B") < text.index("for (i.outer"), text
    # Tile 0 before the loop; in the loop (all but the last iteration, TVM's split_loop 1, so
    # its `i.outer + 1 < 8` guard simplifies away) the next tile goes into the other half while
    # C reads this one's; the last iteration reads half 1 and loads nothing.
    assert text.index("B[cse_var_1] = (A[cse_var_1]*2.000000f)") < text.index("for (i.outer"), text
    assert "for (i.outer, 0, 7)" in text, text
    assert "// attr [B] double_buffer_write = 1" in text, text
    assert "B[(((floormod((i.outer + 1), 2)*128)" in text, text
    assert "(B[(((floormod(i.outer, 2)*128)" in text, text
    assert "C[(cse_var_4 + 896)] = (B[(cse_var_4 + 128)] + 1.000000f)" in text, text
    f = tvm.build(s, [A, C], "llvm")
    a = np.random.uniform(size=(64, 16)).astype("float32")
    c = tvm.nd.array(np.zeros((64, 16), "float32"))
    f(tvm.nd.array(a), c)
    tvm.testing.assert_allclose(c.numpy(), a * 2 + 1, rtol=1e-6)


def test_uneven_loop_and_symbolic_sizes():
    # 60 rows in tiles of 8: the last tile is partial, its prefetch guarded like the rest.
    A, B, C, s, io = _tiled(n=60)
    s[B].double_buffer()
    f = tvm.build(s, [A, C], "llvm")
    a = np.random.uniform(size=(60, 16)).astype("float32")
    c = tvm.nd.array(np.zeros((60, 16), "float32"))
    f(tvm.nd.array(a), c)
    tvm.testing.assert_allclose(c.numpy(), a * 2 + 1, rtol=1e-6)


def test_outside_a_loop_nothing_changes():
    A = te.placeholder((16,), name="A")
    B = te.compute((16,), lambda i: A[i] + 1.0, name="B")
    C = te.compute((16,), lambda i: B[i] * 2.0, name="C")
    s = te.create_schedule(C.op)
    s[B].double_buffer()
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert "allocate B[float32 * 16]" in text, text
    assert "double_buffer" not in text, text


def test_errors():
    A, B, C, s, io = _tiled()
    try:
        s[C].double_buffer()
        assert False
    except tvm.error.TVMError as e:
        assert "Cannot apply double buffer on output" in str(e), str(e)


def _lower_error(s, args):
    try:
        tvm.lower(s, args)
    except tvm.error.TVMError as e:
        return str(e)
    return "lowered"


def test_rewritten_stages_keep_their_double_buffer():
    # An inlined producer and a cache_read rewrite B's op: the mark follows it (TVM's PostProc).
    A = te.placeholder((16, 8), name="A")
    P = te.compute((16, 8), lambda i, j: A[i, j] + 1.0, name="P")
    B = te.compute((16, 8), lambda i, j: P[i, j] * 2.0, name="B")
    C = te.compute((16, 8), lambda i, j: B[i, j] + 1.0, name="C")
    s = te.create_schedule(C.op)
    s[P].compute_inline()
    io, ii = s[C].split(C.op.axis[0], factor=4)
    s[B].compute_at(s[C], io)
    s[B].double_buffer()
    s[B].storage_align(B.op.axis[0], 16, 1)
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert "allocate B[float32 * 136]" in text, text  # 2 halves of 4 rows of 17
    f = tvm.build(s, [A, C], "llvm")
    a = np.random.uniform(size=(16, 8)).astype("float32")
    c = tvm.nd.array(np.zeros((16, 8), "float32"))
    f(tvm.nd.array(a), c)
    tvm.testing.assert_allclose(c.numpy(), (a + 1) * 2 + 1, rtol=1e-6)


def test_what_cannot_be_prefetched_is_refused():
    # D's producer reads B, computed in the same iteration: its prefetch would read this
    # iteration's B.
    A = te.placeholder((8, 4), name="A")
    B = te.compute((8, 4), lambda i, j: A[i, j] * 2.0, name="B")
    D = te.compute((8, 4), lambda i, j: B[i, j] + 3.0, name="D")
    C = te.compute((8, 4), lambda i, j: D[i, j] + 1.0, name="C")
    s = te.create_schedule(C.op)
    io, ii = s[C].split(C.op.axis[0], factor=2)
    s[B].compute_at(s[C], io)
    s[D].compute_at(s[C], io)
    s[D].double_buffer()
    assert "its producer uses 'B', which is defined inside the loop 'i.outer'" in _lower_error(s, [A, C])
    # Doubling B too makes the chain legal: each prefetch reads the next iteration's half.
    s[B].double_buffer()
    f = tvm.build(s, [A, C], "llvm")
    a = np.random.uniform(size=(8, 4)).astype("float32")
    c = tvm.nd.array(np.zeros((8, 4), "float32"))
    f(tvm.nd.array(a), c)
    tvm.testing.assert_allclose(c.numpy(), a * 2 + 4, rtol=1e-6)
    # A stage with two outputs.
    T0, T1 = te.compute((8, 4), lambda i, j: (A[i, j], A[i, j] * 2.0), name="T")
    try:
        te.create_schedule(te.compute((8, 4), lambda i, j: T0[i, j] + T1[i, j]).op)[T0].double_buffer()
        assert False
    except tvm.error.TVMError as e:
        assert "several outputs cannot be double-buffered" in str(e), str(e)


def test_a_loop_of_one_iteration_keeps_one_buffer():
    A, B, C, s, io = _tiled(n=8, factor=8)
    s[B].double_buffer()
    text = str(tvm.lower(s, [A, C], simple_mode=True))
    assert "allocate B[float32 * 128]" in text, text


if __name__ == "__main__":
    tvm.testing.main()
