# Compact storage (issue 20) from Python: `rules="compact"` in tvm.lower and tvm.build stores a
# strided cache as the elements it reads, and the built kernel computes what numpy computes.
import numpy as np

import tvm
import tvm.testing
from tvm import te


def _strided(rows=16):
    A = te.placeholder((rows * 128,), name="A")
    B = te.compute((rows * 128,), lambda x: A[x] * 2.0 + 1.0, name="B")
    C = te.compute((rows, 32), lambda o, t: B[o * 128 + t] + B[o * 128 + t + 32] +
                   B[o * 128 + t + 64] + B[o * 128 + t + 96], name="C")
    s = te.create_schedule(C.op)
    s[B].compute_at(s[C], C.op.axis[1])
    return s, A, C


def test_compact_lowers_the_cache_to_the_lattice():
    s, A, C = _strided()
    tight = str(tvm.lower(s, [A, C], simple_mode=True, rules="tight"))
    compact = str(tvm.lower(s, [A, C], simple_mode=True, rules="compact"))
    assert "allocate B[float32 * 97]" in tight, tight
    assert "allocate B[float32 * 4]" in compact, compact


def test_compact_kernel_matches_numpy():
    rows = 16
    s, A, C = _strided(rows)
    f = tvm.build(s, [A, C], target="llvm", rules="compact")
    a = np.random.uniform(-1, 1, size=rows * 128).astype("float32")
    c = tvm.nd.array(np.zeros((rows, 32), "float32"))
    f(tvm.nd.array(a), c)
    b = a * 2.0 + 1.0
    expected = np.stack([b[o * 128:o * 128 + 128].reshape(4, 32).sum(axis=0) for o in range(rows)])
    np.testing.assert_allclose(c.numpy(), expected, rtol=1e-5, atol=1e-5)


def test_unknown_rules_name_the_four_rule_sets():
    s, A, C = _strided()
    try:
        tvm.lower(s, [A, C], rules="smallest")
    except Exception as e:  # noqa: BLE001 - the front end's error type
        assert "expected tvm, tvm-0.5, tight or compact" in str(e), str(e)
    else:
        raise AssertionError("an unknown rule set was accepted")


if __name__ == "__main__":
    tvm.testing.main()
