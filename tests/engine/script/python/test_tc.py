"""The TC front end and reverse_compute_inline from Python (issue 8): boundscope.tc builds
ordinary stages with the inferred ranges, reports preconditions as TcWarning and errors as
TVMError with the TC line and column; s[C].reverse_compute_inline() folds an epilogue into its
producer and refuses a reduction producer.

Runs under `boundscope script` and under plain python3 with PYTHONPATH=build/python.
"""

import warnings

import boundscope
import tvm
import tvm.testing
from tvm import te


def expect_error(fn, *fragments):
    try:
        fn()
    except tvm.error.TVMError as err:
        for fragment in fragments:
            assert fragment in str(err), "%r not in %r" % (fragment, str(err))
        return str(err)
    raise AssertionError("no TVMError raised (expected %s)" % (fragments,))


def test_matmul_ranges_and_schedule():
    prog = boundscope.tc(
        "def matmul(float(M, K) A, float(K, N) B) -> (C) {\n"
        "    C(m, n) +=! A(m, r_k) * B(r_k, n)\n"
        "}\n",
        M=16,
    )
    (C,) = prog
    assert C.name == "C"
    assert prog["A"].name == "A"
    ranges = [str(r) for r in prog.ranges["C(m, n) +=! A(m, r_k) * B(r_k, n)"]]
    assert ranges == ["0 <= m < 16", "0 <= n < N", "0 <= r_k < K"], ranges
    assert set(prog.sizes) == {"M", "K", "N"}
    text = prog.ranges_text().splitlines()
    assert text[:2] == ["C(m, n) +=! A(m, r_k) * B(r_k, n)", "    0 <= m < 16    (A(m, r_k))"], text
    s = te.create_schedule(C.op)
    mo, mi = s[C].split(C.op.axis[0], factor=4)
    text = str(tvm.lower(s, [prog["A"], prog["B"], C], simple_mode=True))
    assert "C[" in text or "C(" in text, text


def test_seed_ranges():
    inverted = boundscope.tc("def reverted(float(I) B) -> A { A(i) = B(10 - i) }")
    assert [str(r) for r in inverted.statements[0].ranges] == ["11 - I <= i < 11"]
    pool = boundscope.tc("def average_pool_2(float(I) B) -> A { A(i) +=! B(2*i + k) where k in 0:2 }")
    assert str(pool.statements[0].ranges[0]) == "0 <= i < I/2"


def test_precondition_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        boundscope.tc("def f(float(I) B, float(K) C, float(J) D) -> A {\n"
                      "    A(i, j) = B(i) * C(i + j) * D(j)\n}")
    messages = [str(w.message) for w in caught if issubclass(w.category, boundscope.TcWarning)]
    assert len(messages) == 1 and "unchecked precondition" in messages[0], messages


def test_errors_name_line_and_column():
    expect_error(lambda: boundscope.tc("def f(float(I) B, int(1) S) -> A {\n  A(i) = B(S(0)*i)\n}"),
                 "line 2: col 5: cannot infer the range of 'i'", "where i in LB:UB")
    expect_error(lambda: boundscope.tc("def f(float(I) B) -> A { A(i) = B(i) }", Q=3),
                 "'Q' is not a size of 'f'")


def test_reverse_compute_inline():
    A = te.placeholder((8, 6), name="A")
    bias = te.placeholder((6,), name="bias")
    B = te.compute((8, 6), lambda i, j: A[i, j] * 2.0, name="B")
    C = te.compute((8, 6), lambda i, j: B[i, j] + bias[j], name="C")
    s = te.create_schedule(C.op)
    s[C].reverse_compute_inline(s)
    assert [stage.op.name for stage in s.stages] == ["A", "bias", "C"]
    s2 = te.create_schedule(C.op)
    s2[C].reverse_compute_inline()  # the last schedule created
    assert len(s2.stages) == 3


def test_reverse_compute_inline_refuses_reduction_producer():
    A = te.placeholder((4, 8), name="A")
    W = te.placeholder((8, 6), name="W")
    k = te.reduce_axis((0, 8), name="k")
    MM = te.compute((4, 6), lambda i, j: te.sum(A[i, k] * W[k, j], axis=k), name="MM")
    C = te.compute((4, 6), lambda i, j: MM[i, j] + 1.0, name="C")
    s = te.create_schedule(C.op)
    expect_error(lambda: s[C].reverse_compute_inline(s), "the producer 'MM' is a reduction",
                 "compute_at")


if __name__ == "__main__":
    tvm.testing.main()
