"""tvm.testing: the helpers TVM's own tests use, and `tvm.testing.main()` to run a test file's
`test_*` functions (TVM's calls pytest; Boundscope's interpreter has no pytest, so this runs
them itself: each test in definition order, a traceback per failure, a summary, and exit
status 1 when any failed)."""

import sys as _sys
import traceback as _traceback

from .arith import Analyzer as _Analyzer
from .tir import IntImm as _IntImm
from ._placeholder import missing as _missing


def assert_prim_expr_equal(lhs, rhs):
    """Raises ValueError unless `lhs - rhs` simplifies to the constant 0 (as TVM's does)."""
    res = _Analyzer().simplify(lhs - rhs)
    if not (isinstance(res, _IntImm) and res.value == 0):
        raise ValueError("{} and {} are not equal".format(lhs, rhs))


def assert_allclose(actual, desired, rtol=1e-7, atol=1e-7):
    """TVM's: the shapes must agree, then numpy.testing.assert_allclose with TVM's tolerances.
    tvm.nd arrays are compared by their values."""
    import numpy as np

    def values(x):
        return x.numpy() if hasattr(x, "numpy") else np.asanyarray(x)

    actual, desired = values(actual), values(desired)
    np.testing.assert_allclose(actual.shape, desired.shape)
    np.testing.assert_allclose(actual, desired, rtol=rtol, atol=atol, verbose=True)


def _selected(name, patterns):
    return not patterns or any(p in name for p in patterns)


def main():
    """Runs the `test_*` functions of `__main__` (those whose name contains one of the
    arguments, when the script is given some) and exits with status 1, naming the failed
    tests, when one of them failed."""
    module = _sys.modules["__main__"]
    patterns = [a for a in _sys.argv[1:] if not a.startswith("-")]
    tests = [(name, value) for name, value in vars(module).items()
             if name.startswith("test_") and callable(value) and _selected(name, patterns)]
    failed = []
    for name, test in tests:
        try:
            test()
        except Exception:  # noqa: BLE001 - every failing test is reported, then the next runs
            failed.append(name)
            print("FAILED %s" % name)
            _traceback.print_exc(file=_sys.stdout)
    print("%d passed, %d failed" % (len(tests) - len(failed), len(failed)))
    if failed:
        _sys.exit("%d of %d tests failed: %s" % (len(failed), len(tests), ", ".join(failed)))


__getattr__ = _missing("tvm.testing")
