"""tvm.testing: the helpers TVM's own tests use, and `tvm.testing.main()` to run a test file's
`test_*` functions (TVM's calls pytest; this runs them itself: each test in definition order,
each pytest parametrization as a test, a traceback per failure, a summary, and exit status 1
when any failed)."""

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


class _Mark:
    """A pytest-style mark (`name`, `args`, `kwargs`) that tvm.testing.main() honours."""

    def __init__(self, name, args=(), kwargs=None):
        self.name = name
        self.args = args
        self.kwargs = kwargs or {}


def _requires(skip, reason):
    """A decorator that skips the test when `skip()` is true (asked when the test runs)."""

    def decorate(test):
        class _Lazy:
            def __bool__(self):
                return bool(skip())

        test.pytestmark = list(getattr(test, "pytestmark", [])) + [
            _Mark("skipif", (_Lazy(),), {"reason": reason})]
        return test

    return decorate


def _no_cuda():
    from .nd import cuda
    return not cuda(0).exist


# As TVM's: tests that need a CUDA GPU are skipped without one. Tensor cores need float16
# kernels, which Boundscope's CUDA code generator does not emit: always skipped.
requires_cuda = _requires(_no_cuda, "needs a CUDA GPU (there is none here)")
requires_gpu = requires_cuda
requires_tensorcore = _requires(lambda: True, "needs tensor cores (float16 kernels), which "
                                              "Boundscope does not generate")


def _selected(name, patterns):
    return not patterns or any(p in name for p in patterns)


def _cases(name, test):
    """The calls pytest would make of `test`: one per combination of its
    `@pytest.mark.parametrize` values (named `test[a-b]`, as pytest names them), none when a
    `skip` or true `skipif` mark skips it. Yields (name, kwargs) or (name, None) for a skip."""
    import itertools

    marks = list(getattr(test, "pytestmark", []))
    for mark in marks:
        if mark.name == "skip" or (mark.name == "skipif" and mark.args and mark.args[0]):
            yield name, None
            return
    axes = []
    for mark in reversed(marks):  # the decorator nearest the function varies slowest
        if mark.name != "parametrize":
            continue
        argnames, argvalues = mark.args[0], mark.args[1]
        if isinstance(argnames, str):
            argnames = [a.strip() for a in argnames.split(",") if a.strip()]
        rows = [v if len(argnames) > 1 else (v,) for v in argvalues]
        axes.append([(dict(zip(argnames, row)), "-".join(str(x) for x in row)) for row in rows])
    if not axes:
        yield name, {}
        return
    for combination in itertools.product(*axes):
        kwargs = {}
        for values, _ in combination:
            kwargs.update(values)
        yield "%s[%s]" % (name, "-".join(label for _, label in reversed(combination))), kwargs


def main():
    """Runs the `test_*` functions of `__main__` (those whose name contains one of the
    arguments, when the script is given some), each `@pytest.mark.parametrize` combination as a
    test of its own and `skip`/`skipif` marks honoured, and exits with status 1, naming the
    failed tests, when one of them failed."""
    module = _sys.modules["__main__"]
    patterns = [a for a in _sys.argv[1:] if not a.startswith("-")]
    tests = [(name, value) for name, value in vars(module).items()
             if name.startswith("test_") and callable(value) and _selected(name, patterns)]
    failed = []
    ran = skipped = 0
    for name, test in tests:
        for case, kwargs in _cases(name, test):
            if kwargs is None:
                skipped += 1
                print("SKIPPED %s" % case)
                continue
            ran += 1
            try:
                test(**kwargs)
            except Exception:  # noqa: BLE001 - every failing test is reported, then the next runs
                failed.append(case)
                print("FAILED %s" % case)
                _traceback.print_exc(file=_sys.stdout)
    print("%d passed, %d failed" % (ran - len(failed), len(failed)) +
          (", %d skipped" % skipped if skipped else ""))
    if failed:
        _sys.exit("%d of %d tests failed: %s" % (len(failed), ran, ", ".join(failed)))


__getattr__ = _missing("tvm.testing")
