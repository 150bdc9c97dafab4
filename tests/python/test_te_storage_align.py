# Stage.storage_align (TVM's buffer_dim_align): the stride of one dimension of a stage's buffer
# padded to factor * k + offset, as TVM's StorageFlatten pads it; the numbers checked against
# TVM's rule, the kernel against numpy, and the allocation report's padding cause.
import numpy as np

import tvm
import tvm.testing
from tvm import te


def _pipeline(m=8, l=16):
    A = te.placeholder((m, l), name="A")
    A1 = te.compute((m, l), lambda i, j: A[i, j], name="A1")
    A2 = te.compute((m, l), lambda i, j: A1[i, j] + 3, name="A2")
    return A, A1, A2


def test_storage_align_pads_the_stride():
    A, A1, A2 = _pipeline()
    s = te.create_schedule(A2.op)
    s[A1].storage_align(A1.op.axis[0], 16, 8)
    attr = s[A1].iter_var_attrs[A1.op.axis[0]]
    assert attr.dim_align_factor == 16 and attr.dim_align_offset == 8
    # Rows of 16 padded to a stride of 24 (16 * 1 + 8): 8 rows of 24.
    text = str(tvm.lower(s, [A, A2], simple_mode=True))
    assert "allocate A1[float32 * 192]" in text, text
    assert "A1[((i*24) + j)]" in text, text
    sn = s.normalize()
    stmt = tvm.te.schedule.ScheduleOps(sn, tvm.te.schedule.InferBound(sn))
    assert "buffer_dim_align" in str(stmt), str(stmt)


def test_strides_follow_tvms_rule():
    # stride + (factor + offset - stride % factor) % factor, innermost dimension first.
    for (m, l, factor, offset, stride) in ((8, 16, 16, 8, 24), (4, 30, 32, 1, 33), (4, 33, 32, 1, 33),
                                           (4, 32, 32, 0, 32), (3, 5, 4, 3, 7)):
        A, A1, A2 = _pipeline(m, l)
        s = te.create_schedule(A2.op)
        s[A1].storage_align(A1.op.axis[0], factor, offset)
        text = str(tvm.lower(s, [A, A2], simple_mode=True))
        assert "allocate A1[float32 * %d]" % (m * stride) in text, (factor, offset, text)


def test_aligned_kernel_computes_the_same():
    A, A1, A2 = _pipeline(8, 30)
    s = te.create_schedule(A2.op)
    s[A1].storage_align(A1.op.axis[0], 32, 1)
    xo, xi = s[A2].split(A2.op.axis[0], factor=2)
    s[A1].compute_at(s[A2], xo)
    text = str(tvm.lower(s, [A, A2], simple_mode=True))
    assert "allocate A1[float32 * 66]" in text, text  # 2 rows of 33
    f = tvm.build(s, [A, A2], "llvm")
    a = np.random.uniform(size=(8, 30)).astype("float32")
    c = tvm.nd.array(np.zeros((8, 30), "float32"))
    f(tvm.nd.array(a), c)
    tvm.testing.assert_allclose(c.numpy(), a + 3)


def test_bound_inference_is_unchanged():
    # TVM's test_bound_tile_mod: the alignment changes the layout, not the bounds.
    M = N = 256
    A = te.placeholder((N, M), name="A", dtype="float16")
    C = te.compute((N, M), lambda n, m: A[n, m], name="C")
    s = te.create_schedule(C.op)
    s.cache_write(C, "local")
    n, m = C.op.axis
    bn, bm, ni, mi = s[C].tile(n, m, 128, 128)
    nio, nii = s[C].split(ni, 2)
    s[C].fuse(nii, mi)
    C_shared = s.cache_write(C, "shared")
    bn, bm, ni, mi = C_shared.op.axis
    s[C_shared].storage_align(ni, 256, 8)
    n, m = s[C].op.axis
    bn, bm, ni, mi = s[C].tile(n, m, 128, 128)
    s[C].set_scope("global")
    niio, niii = s[C].split(ni, 32)
    s[C_shared].compute_at(s[C], niio)
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[s.stages[2].op.axis[2]].extent == 16


def test_errors():
    A, A1, A2 = _pipeline()
    s = te.create_schedule(A2.op)
    xo, xi = s[A1].split(A1.op.axis[1], factor=4)
    for call, text in ((lambda: s[A1].storage_align(xo, 16, 0), "'j.outer' is not a data axis of A1"),
                       (lambda: s[A1].storage_align(A1.op.axis[0], 0, 0), "factor must be positive"),
                       (lambda: s[A].storage_align(A1.op.axis[0], 16, 0), "only a compute stage")):
        try:
            call()
            assert False, text
        except tvm.error.TVMError as e:
            assert text in str(e), str(e)


if __name__ == "__main__":
    tvm.testing.main()
