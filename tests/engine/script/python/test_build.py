"""tvm.build on the CPU behaves as TVM's (issue 6, item 2): compiled functions take tvm.nd.arrays
or numpy arrays, compute what numpy computes, bind symbolic sizes from the arrays' shapes, and
refuse bad arguments with a TVMError naming the argument.

Runs under `boundscope script` (the embedded interpreter) and under plain python3 with
PYTHONPATH=build/python (the extension module); both must pass. On a build without LLVM only
the error of tvm.build is checked.
"""


import numpy as np

import _boundscope
import tvm
import tvm.testing
from tvm import te

HAS_LLVM = _boundscope._has_llvm


def expect_error(fn, *fragments):
    try:
        fn()
    except tvm.error.TVMError as err:
        for fragment in fragments:
            assert fragment in str(err), "%r not in %r" % (fragment, str(err))
        return str(err)
    raise AssertionError("no TVMError raised (expected %s)" % (fragments,))


def matmul(m, k, n):
    A = te.placeholder((m, k), name="A")
    B = te.placeholder((k, n), name="B")
    r = te.reduce_axis((0, k), name="r")
    C = te.compute((m, n), lambda i, j: te.sum(A[i, r] * B[r, j], axis=r), name="C")
    return A, B, C


def vector_add():
    n = te.var("n")
    A = te.placeholder((n,), name="A")
    B = te.placeholder((n,), name="B")
    C = te.compute(A.shape, lambda i: A[i] + B[i], name="C")
    return n, A, B, C


def random(shape, seed):
    return np.random.RandomState(seed).uniform(-1, 1, size=shape).astype("float32")


def test_matmul_matches_numpy():
    A, B, C = matmul(64, 48, 40)
    s = te.create_schedule(C.op)
    f = tvm.build(s, [A, B, C], target="llvm", name="mmult")
    a, b = random((64, 48), 1), random((48, 40), 2)
    c = tvm.nd.empty((64, 40), "float32", tvm.cpu(0))
    f(tvm.nd.array(a), tvm.nd.array(b), c)
    np.testing.assert_allclose(c.numpy(), a @ b, rtol=1e-5, atol=1e-5)
    assert f.entry_name == "mmult"
    assert "define" in f.get_source() and "mmult" in f.get_source()


def test_scheduled_matmul_on_numpy_arrays():
    A, B, C = matmul(96, 64, 80)
    s = te.create_schedule(C.op)
    xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], 32, 16)
    ko, ki = s[C].split(C.op.reduce_axis[0], factor=4)
    s[C].reorder(xo, yo, ko, xi, ki, yi)
    s[C].vectorize(yi)
    s[C].parallel(xo)
    f = tvm.build(s, [A, B, C])
    a, b = random((96, 64), 3), random((64, 80), 4)
    c = np.zeros((96, 80), dtype="float32")
    f(a, b, c)  # numpy arrays, the output written in place
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)


def test_symbolic_vector_add_binds_n_per_call():
    n, A, B, C = vector_add()
    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=16)
    s[C].vectorize(xi)
    f = tvm.build(s, [A, B, C], "llvm", name="myadd")
    for size in (1, 100, 1027):
        a, b = random((size,), size), random((size,), size + 1)
        c = tvm.nd.array(np.zeros(size, dtype="float32"))
        f(tvm.nd.array(a), b, c)
        np.testing.assert_allclose(c.asnumpy(), a + b, rtol=1e-6)
        assert c.shape == (size,) and c.dtype == "float32"


def test_time_evaluator_reports_seconds():
    n, A, B, C = vector_add()
    f = tvm.build(te.create_schedule(C.op), [A, B, C])
    a = tvm.nd.array(random((4096,), 5))
    c = tvm.nd.empty((4096,))
    result = f.time_evaluator(f.entry_name, tvm.cpu(0), number=5, repeat=2)(a, a, c)
    assert result.mean > 0 and len(result.results) == 2
    np.testing.assert_allclose(c.numpy(), 2 * a.numpy())
    assert set(f.timings) == {"lower_ms", "codegen_ms", "optimize_ms", "machine_code_ms"}


def test_scalar_arguments():
    n, A, B, C = vector_add()
    D = te.compute(A.shape, lambda i: A[i] * 2.5, name="D")
    f = tvm.build(te.create_schedule(D.op), [A, D, n])  # n passed explicitly, as in TVM
    a, d = random((10,), 6), np.zeros(10, dtype="float32")
    f(a, d, 10)
    np.testing.assert_allclose(d, a * 2.5, rtol=1e-6)
    expect_error(lambda: f(a, d, 11), "argument 0 ('A') dimension 0: 'n' is 10 here but 11")
    expect_error(lambda: f(a, d, 2.5), "argument 2 ('n') expects a int32 scalar, got float")
    expect_error(lambda: f(a, d, 1 << 40), "does not fit its type int32")


def test_bad_arguments_name_the_argument():
    n, A, B, C = vector_add()
    f = tvm.build(te.create_schedule(C.op), [A, B, C], name="add")
    a = np.zeros(8, dtype="float32")
    expect_error(lambda: f(a, a), "add takes 3 arguments (A, B, C), got 2")
    expect_error(lambda: f(a, a.astype("float64"), np.zeros(8, "float32")),
                 "argument 1 ('B') expects dtype float32, got float64")
    expect_error(lambda: f(a, np.zeros(9, "float32"), np.zeros(8, "float32")),
                 "argument 1 ('B')", "'n' is 9 here but 8 in argument 0 ('A') dimension 0")
    expect_error(lambda: f(a, np.zeros((8, 1), "float32"), np.zeros(8, "float32")),
                 "expects 1 dimensions, got an array of shape (8, 1)")
    expect_error(lambda: f(a, [0.0] * 8, np.zeros(8, "float32")),
                 "expects a tvm.nd.array or a numpy array, got list")
    expect_error(lambda: f(a, np.zeros(16, "float32")[::2], np.zeros(8, "float32")),
                 "must be C-contiguous")
    out = np.zeros(8, dtype="float32")
    out.setflags(write=False)
    expect_error(lambda: f(a, a, out), "argument 2 ('C') is an output", "writable")
    expect_error(lambda: f(a, np.zeros(8, "float32"), a), "share memory")


def test_static_shape_mismatch():
    A, B, C = matmul(8, 4, 2)
    f = tvm.build(te.create_schedule(C.op), [A, B, C])
    expect_error(lambda: f(np.zeros((8, 4), "float32"), np.zeros((4, 3), "float32"),
                           np.zeros((8, 2), "float32")),
                 "argument 1 ('B') expects shape (4, 2), got (4, 3)")


def test_unsupported_targets_and_arrays():
    A, B, C = matmul(4, 4, 4)
    s = te.create_schedule(C.op)
    expect_error(lambda: tvm.build(s, [A, B, C], target="metal"), "Target kind \"metal\" is not defined")
    expect_error(lambda: tvm.build(s, [A, B, C], target="c"), "target 'c' is not supported")
    expect_error(lambda: tvm.build(s, [A, B, C], target="cuda"), "binds no loop to a GPU thread")
    expect_error(lambda: tvm.nd.empty((2, "x")), "shape must be a tuple of ints")
    expect_error(lambda: tvm.nd.empty((2,), "complex9"), "unknown dtype")
    x = tvm.nd.array([[1, 2], [3, 4]], dtype="int32")
    assert x.shape == (2, 2) and x.dtype == "int32" and x.device == tvm.cpu(0)
    x.copyfrom(np.ones((2, 2), dtype="int32"))
    assert int(x.numpy().sum()) == 4


def test_build_without_llvm_says_so():
    A, B, C = matmul(4, 4, 4)
    expect_error(lambda: tvm.build(te.create_schedule(C.op), [A, B, C]),
                 "built without LLVM")


if __name__ == "__main__":
    # With LLVM every test but the one that checks the message of a build without it runs.
    for _name in [n for n in list(globals()) if n.startswith("test_")]:
        if (_name == "test_build_without_llvm_says_so") == HAS_LLVM:
            del globals()[_name]
    tvm.testing.main()
