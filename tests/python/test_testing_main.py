# tvm.testing.main() runs a file's tests as pytest would for the marks TVM's tests use: each
# `@pytest.mark.parametrize` combination is a test (two decorators multiply), `skip` and a true
# `skipif` skip. The last test checks the calls the others recorded.
import pytest

import tvm
import tvm.testing

calls = []


@pytest.mark.parametrize("factor", [4, 8])
@pytest.mark.parametrize("flag", [True, False])
def test_two_parametrizations(factor, flag):
    calls.append(("two", factor, flag))


@pytest.mark.parametrize("a,b", [(1, 2), (3, 4)])
def test_tuple_parameters(a, b):
    calls.append(("tuple", a, b))


@pytest.mark.skip(reason="never runs")
def test_skipped():
    calls.append(("skipped",))


@pytest.mark.skipif(True, reason="never runs")
def test_skipped_if():
    calls.append(("skipped_if",))


@pytest.mark.skipif(False, reason="runs")
def test_not_skipped():
    calls.append(("not_skipped",))


@tvm.testing.requires_tensorcore
def test_needs_tensor_cores():
    # tvm.build compiles for the CPU only here, so TVM's GPU tests are skipped.
    calls.append(("tensorcore",))


def test_topi_conv2d_reference_matches_a_direct_sum():
    import numpy as np
    from tvm.topi.testing import conv2d_nhwc_python

    a = np.random.uniform(size=(1, 6, 6, 2))
    w = np.random.uniform(size=(3, 3, 2, 4))
    out = conv2d_nhwc_python(a, w, (2, 2), (1, 1))
    assert out.shape == (1, 3, 3, 4)
    padded = np.pad(a, ((0, 0), (1, 1), (1, 1), (0, 0)))
    for y in range(3):
        for x in range(3):
            window = padded[0, 2 * y:2 * y + 3, 2 * x:2 * x + 3, :]
            np.testing.assert_allclose(out[0, y, x], np.tensordot(window, w, axes=3))


def test_zz_every_case_ran_once():
    assert sorted(c for c in calls if c[0] == "two") == sorted(
        ("two", f, g) for f in (4, 8) for g in (True, False))
    assert [c for c in calls if c[0] == "tuple"] == [("tuple", 1, 2), ("tuple", 3, 4)]
    assert ("skipped",) not in calls and ("skipped_if",) not in calls
    assert ("not_skipped",) in calls
    assert ("tensorcore",) not in calls


if __name__ == "__main__":
    tvm.testing.main()
