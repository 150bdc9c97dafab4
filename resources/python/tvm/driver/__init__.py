"""tvm.build: a schedule lowered and compiled for the CPU by Boundscope's LLVM backend.

    f = tvm.build(s, [A, B, C], target="llvm", name="mmult")
    f(a, b, c)                      # tvm.nd.arrays or numpy arrays, written in place
    f.time_evaluator(f.entry_name, tvm.cpu(0), number=10)(a, b, c).mean

Arguments are checked before the kernel runs (count, dtype, shape, symbolic sizes agreeing
across arrays, contiguity, outputs writable and not overlapping another argument); each failure
is a TVMError naming the argument. See engine/script/bindings/BindBuild.cpp.
"""

import collections

import _boundscope as _core

from ..error import TVMError
from boundscope.te import pass_context_options as _pass_context_options

from ..nd import NDArray, cpu, device  # noqa: F401 - tvm.cpu / tvm.device

ProfileResult = collections.namedtuple("ProfileResult", ["mean", "results"])


class Module:
    """What tvm.build returns: the compiled function, callable as TVM's runtime.Module is."""

    type_key = "llvm"

    def __init__(self, built):
        self._built = built

    @property
    def entry_name(self):
        return self._built.entry_name

    @property
    def imported_modules(self):
        """The device modules a host module imports: none for a CPU (llvm) build."""
        return []

    @property
    def timings(self):
        """Milliseconds spent lowering, building LLVM IR, optimizing and generating code."""
        return dict(self._built.timings)

    def _arguments(self, args):
        arrays = self._built.param_is_array
        return [a._array if isinstance(a, NDArray) and (i >= len(arrays) or arrays[i]) else a
                for i, a in enumerate(args)]

    def __call__(self, *args):
        self._built(*self._arguments(args))

    def get_function(self, name):
        if name != self.entry_name:
            raise AttributeError("module has no function '%s' (its function is '%s')"
                                 % (name, self.entry_name))
        return self

    __getitem__ = get_function

    def get_source(self, fmt="ll"):
        """The LLVM IR (`ll`) or the lowered IR (`lowered`) of the function."""
        if fmt in ("ll", "llvm", ""):
            return self._built.llvm_ir()
        if fmt == "lowered":
            return self._built.lowered_text()
        raise TVMError("get_source: unknown format %r (expected 'll' or 'lowered')" % (fmt,))

    def time_evaluator(self, func_name, dev=None, number=10, repeat=1, min_repeat_ms=0):
        """A function that runs the kernel `number` times per repeat and returns
        ProfileResult(mean seconds, per-repeat means), as TVM's time_evaluator."""
        del dev, min_repeat_ms  # the CPU; every repeat runs exactly `number` times
        function = self.get_function(func_name)

        def evaluator(*args):
            results = function._built._time(function._arguments(args), number, repeat)
            return ProfileResult(sum(results) / len(results), tuple(results))

        return evaluator

    def __repr__(self):
        return "Module(llvm, %s)" % self.entry_name


def _check_target(target):
    """The target tvm.build compiles for: the given one (text, dict or tvm.target.Target), else
    the current one (`with tvm.target.Target(...)`), else llvm. Only llvm is built here."""
    from ..target import Target
    if target is None:
        target = Target.current() or "llvm"
    given = target if isinstance(target, str) else None
    target = target if isinstance(target, Target) else Target(target)
    if target.kind.name != "llvm":
        raise TVMError("tvm.build: target %r is not supported; Boundscope builds for 'llvm' "
                       "(the CPU); `boundscope run --target cuda` runs GPU schedules"
                       % (given or str(target),))
    return target


def build(inputs, args=None, target=None, target_host=None, name="default_function",
          binds=None, rules="tvm"):
    """tvm.build(s, [A, B, C], target="llvm", name="f"): lowers and JIT-compiles for the CPU."""
    del target_host
    _check_target(target)
    if binds:
        raise TVMError("tvm.build: binds are not supported by Boundscope")
    if not hasattr(inputs, "stages"):
        raise TVMError("tvm.build expects a schedule (te.create_schedule), got %s"
                       % type(inputs).__name__)
    if args is None:
        args = _core._default_args(inputs)
    _, disabled, user_passes = _pass_context_options(name)
    return Module(_core._build(inputs, list(args), name, rules, disabled, user_passes))
