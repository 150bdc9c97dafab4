"""tvm.contrib.cc: the system C++ compiler, as TVM's: `create_shared(output, objects)` links
object files (Module.save's) into a shared library that tvm.runtime.load_module loads."""

import os
import shutil
import subprocess


def _compiler(cc):
    return cc or os.environ.get("CXX") or "g++"


def create_shared(output, objects, options=None, cc=None, cwd=None, ccache_env=None):
    """Links `objects` (a path or a list of paths) into the shared library `output`; raises
    RuntimeError with the compiler's output when it fails, as TVM does."""
    del ccache_env
    compiler = _compiler(cc)
    if shutil.which(compiler) is None:
        raise RuntimeError("Compilation error: the C++ compiler %r is not installed "
                           "(Debian: apt-get install g++)" % compiler)
    objects = [objects] if isinstance(objects, str) else list(objects)
    command = [compiler, "-shared", "-fPIC", "-o", output] + objects + list(options or [])
    proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd,
                          check=False)
    if proc.returncode != 0:
        raise RuntimeError("Compilation error:\n" + proc.stdout.decode("utf-8", "replace")
                           + "\nCommand line: " + " ".join(command))


create_shared.output_format = "so"


def cross_compiler(compile_func, options=None, output_format=None, get_target_triple=None,
                   add_files=None):
    """TVM's: `compile_func` with extra options (a compiler name runs create_shared with it)."""
    del get_target_triple, add_files
    base = (lambda output, objects, opts=None: create_shared(output, objects, opts,
                                                             cc=compile_func)) \
        if isinstance(compile_func, str) else compile_func

    def _fcompile(output, objects, options_=None, **kwargs):
        return base(output, objects, list(options or []) + list(options_ or []), **kwargs)

    _fcompile.output_format = output_format or "so"
    return _fcompile
