"""tvm.build: a schedule lowered and compiled, for the CPU by Boundscope's LLVM backend or for
a CUDA GPU.

    f = tvm.build(s, [A, B, C], target="llvm", name="mmult")
    f(a, b, c)                      # tvm.nd.arrays or numpy arrays, written in place
    f.time_evaluator(f.entry_name, tvm.cpu(0), number=10)(a, b, c).mean

    g = tvm.build(s, [A, B], target="cuda", name="myexp")
    print(g.imported_modules[0].get_source())   # the CUDA C (no GPU needed)
    g(a, b)                         # runs on the GPU; without one, a TVMError saying why

Arguments are checked before the kernel runs (count, dtype, shape, symbolic sizes agreeing
across arrays, contiguity, outputs writable and not overlapping another argument); each failure
is a TVMError naming the argument. See engine/script/bindings/BindBuild.cpp. The intrinsic
lowering rules registered for the target (tvm.ir.register_intrin_lowering) are applied first.
"""

import collections

import _boundscope as _core

from ..error import TVMError
from boundscope.intrin import lowering_pass as _lowering_pass
from boundscope.te import pass_context_options as _pass_context_options

from ..nd import NDArray, cpu, cuda, device, opencl  # noqa: F401 - tvm.cpu / tvm.cuda / ...

ProfileResult = collections.namedtuple("ProfileResult", ["mean", "results"])


class CudaSourceModule:
    """The device module a cuda (or opencl) build's host module imports: `type_key` "cuda"
    ("opencl"), `get_source()` the CUDA C (OpenCL C) of its kernels."""

    imported_modules = []

    def __init__(self, built, type_key="cuda"):
        self._built = built
        self.type_key = type_key

    def _formats(self):
        return ("", "cu", "cuda") if self.type_key == "cuda" else ("", "cl", "opencl")

    def get_source(self, fmt=""):
        if fmt not in self._formats():
            raise TVMError("get_source: a %s module has its source (%r), not %r"
                           % (self.type_key, self._formats()[1], fmt))
        return self._built.cuda_source()

    def save(self, file_name, fmt=""):
        """Saves the source (`.cu`, or `.cl` for OpenCL)."""
        fmt = fmt or file_name.rsplit(".", 1)[-1]
        if fmt not in self._formats()[1:]:
            raise TVMError("save: a %s module is saved as its source ('.%s'), not %r"
                           % (self.type_key, self._formats()[1], fmt))
        _write_text(file_name, self.get_source())

    def __repr__(self):
        return "Module(%s, %s)" % (self.type_key, self._built.entry_name)


class _Function:
    """What calls a kernel as TVM's runtime.Module does: `f(a, b, c)`, `f[name]`,
    `f.time_evaluator(...)`."""

    type_key = "llvm"

    def __init__(self, built):
        self._built = built

    @property
    def entry_name(self):
        return self._built.entry_name

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

    def time_evaluator(self, func_name, dev=None, number=10, repeat=1, min_repeat_ms=0):
        """A function that runs the kernel `number` times per repeat and returns
        ProfileResult(mean seconds, per-repeat means), as TVM's time_evaluator. A cuda build
        measures device time."""
        del dev, min_repeat_ms  # the build's device; every repeat runs exactly `number` times
        function = self.get_function(func_name)

        def evaluator(*args):
            results = function._built._time(function._arguments(args), number, repeat)
            return ProfileResult(sum(results) / len(results), tuple(results))

        return evaluator


class Module(_Function):
    """What tvm.build returns: the compiled function, callable as TVM's runtime.Module is."""

    def __init__(self, built, device_module=None):
        super().__init__(built)
        self._device_module = device_module

    @property
    def imported_modules(self):
        """The device modules a host module imports: the CUDA module of a cuda build, none for
        a CPU (llvm) build."""
        return [self._device_module] if self._device_module is not None else []

    @property
    def timings(self):
        """Milliseconds spent lowering, building LLVM IR, optimizing and generating code."""
        return dict(self._built.timings)

    def get_source(self, fmt="ll"):
        """The LLVM IR (`ll`) or the lowered IR (`lowered`) of the function. The host module of
        a cuda build gives its host code (the kernel launches) as IR text."""
        if fmt == "lowered":
            return self._built.lowered_text()
        if fmt in ("ll", "llvm", ""):
            if self._device_module is not None:
                return self._built.host_text()
            return self._built.llvm_ir()
        raise TVMError("get_source: unknown format %r (expected 'll' or 'lowered')" % (fmt,))

    def save(self, file_name, fmt=""):
        """Saves the CPU kernel: an object file (`.o`, position-independent, to link with
        tvm.contrib.cc.create_shared and load with tvm.runtime.load_module) or its LLVM IR
        (`.ll`)."""
        fmt = fmt or file_name.rsplit(".", 1)[-1]
        if self._device_module is not None:
            raise TVMError("save: the host module of a cuda build has no CPU code to save; "
                           "save its device module (imported_modules[0].save(\"f.cu\"))")
        if fmt in ("o", "obj"):
            self._built.save(file_name)
        elif fmt in ("ll", "llvm"):
            _write_text(file_name, self._built.llvm_ir())
        else:
            raise TVMError("save: cannot save a module as %r (expected an object file '.o' or "
                           "LLVM IR '.ll')" % (fmt,))

    def export_library(self, file_name, fcompile=None, **kwargs):
        """The kernel as one shared library (`.so`): its object file linked by `fcompile`
        (tvm.contrib.cc.create_shared by default); tvm.runtime.load_module loads it."""
        import os
        import tempfile
        from ..contrib import cc
        if self._device_module is not None:
            raise TVMError("export_library: a cuda build cannot be exported as a library here; "
                           "its CUDA source is imported_modules[0].get_source()")
        if fcompile is None and not file_name.endswith(".so"):
            raise TVMError("export_library: %r: Boundscope exports a shared library ('.so'), "
                           "not an archive of objects" % (file_name,))
        with tempfile.TemporaryDirectory(prefix="boundscope_export_") as temp:
            obj = os.path.join(temp, "lib0.o")
            self.save(obj)
            (fcompile or cc.create_shared)(file_name, [obj], **kwargs)

    def __repr__(self):
        return "Module(llvm, %s)" % self.entry_name


class LoadedModule(_Function):
    """A kernel loaded by tvm.runtime.load_module from a shared library made by
    Module.export_library (or Module.save and tvm.contrib.cc.create_shared)."""

    type_key = "library"
    imported_modules = []

    def import_module(self, module):
        raise TVMError("import_module: a loaded CPU library imports no device module here")

    def __repr__(self):
        return "Module(library, %s)" % self.entry_name


def _write_text(file_name, text):
    import os
    temporary = file_name + ".tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, file_name)
    except OSError as err:
        raise TVMError("cannot write %r: %s" % (file_name, err.strerror)) from err


def load_module(path, fmt=""):
    """tvm.runtime.load_module: a shared library (`.so`) made by export_library or by
    create_shared from Module.save's object file."""
    fmt = fmt or path.rsplit(".", 1)[-1]
    if fmt != "so":
        raise TVMError("load_module: cannot load %r: Boundscope loads the shared libraries "
                       "(.so) of its CPU kernels" % (path,))
    return LoadedModule(_core._load_library(path))


def _check_target(target):
    """The target tvm.build compiles for: the given one (text, dict or tvm.target.Target), else
    the current one (`with tvm.target.Target(...)`), else llvm. llvm and cuda are built here."""
    from ..target import Target
    if target is None:
        target = Target.current() or "llvm"
    given = target if isinstance(target, str) else None
    target = target if isinstance(target, Target) else Target(target)
    if target.kind.name not in ("llvm", "cuda", "opencl"):
        raise TVMError("tvm.build: target %r is not supported; Boundscope builds for 'llvm' "
                       "(the CPU), 'cuda' and 'opencl'" % (given or str(target),))
    return target


def build(inputs, args=None, target=None, target_host=None, name="default_function",
          binds=None, rules="tvm"):
    """tvm.build(s, [A, B, C], target="llvm", name="f"): lowers and JIT-compiles for the CPU;
    target="cuda" builds the GPU module (its source needs no GPU; running it does);
    target="opencl" its OpenCL C (not run here)."""
    del target_host
    kind = _check_target(target).kind.name
    if binds:
        raise TVMError("tvm.build: binds are not supported by Boundscope")
    if not hasattr(inputs, "stages"):
        raise TVMError("tvm.build expects a schedule (te.create_schedule), got %s"
                       % type(inputs).__name__)
    if args is None:
        args = _core._default_args(inputs)
    _, disabled, user_passes = _pass_context_options(name)
    lower_intrinsics = _lowering_pass(kind)
    if lower_intrinsics is not None:
        user_passes.append(lower_intrinsics)
    if kind in ("cuda", "opencl"):
        built = _core._build_cuda(inputs, list(args), name, rules, disabled, user_passes, kind)
        return Module(built, CudaSourceModule(built, kind))
    return Module(_core._build(inputs, list(args), name, rules, disabled, user_passes))
