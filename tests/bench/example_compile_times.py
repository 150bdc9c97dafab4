"""Lowering and JIT compilation time of every example (issue 6, item 4: at most 1 s each).

    PYTHONPATH=build-bench/python /usr/bin/python3 tests/bench/example_compile_times.py

Runs each resources/examples/*.py, takes the program the CLI would analyse (the last
`tvm.lower`/`boundscope.show` arguments, else the last schedule created with its default
arguments), builds it with `tvm.build` (lowering + LLVM IR + O3 + machine code) and prints the
milliseconds of each step. GPU schedules (threads bound to blockIdx/threadIdx) are not built for
the CPU; they are listed with the reason. Exits 1 when a CPU example takes more than 1 s.
"""

import contextlib
import glob
import io
import os
import runpy
import sys

import _boundscope
import boundscope
import tvm
from tvm import te

LIMIT_MS = 1000.0


class Capture:
    """Records the schedules and argument lists an example creates and shows."""

    def __init__(self):
        self.schedule = None
        self.args = None
        self._patched = []

    def _wrap(self, module, name, record):
        original = getattr(module, name)

        def wrapper(*args, **kwargs):
            result = original(*args, **kwargs)
            record(args, kwargs, result)
            return result

        self._patched.append((module, name, original))
        setattr(module, name, wrapper)

    def _created(self, args, kwargs, result):
        self.schedule, self.args = result, None

    def _shown(self, args, kwargs, result):
        self.schedule = args[0]
        shown = args[1] if len(args) > 1 else kwargs.get("args")
        self.args = list(shown) if shown is not None else None

    def __enter__(self):
        for module in (te, tvm, boundscope):
            if hasattr(module, "create_schedule"):
                self._wrap(module, "create_schedule", self._created)
        for module, name in ((tvm, "lower"), (boundscope, "lower"), (boundscope, "show")):
            if hasattr(module, name):
                self._wrap(module, name, self._shown)
        return self

    def __exit__(self, *exc):
        for module, name, original in reversed(self._patched):
            setattr(module, name, original)


def measure(path):
    """(timings dict, None) or (None, reason)."""
    with Capture() as capture, contextlib.redirect_stdout(io.StringIO()):
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit:
            pass
        except Exception as err:  # noqa: BLE001 - report and go on
            return None, "script failed: %s" % err
    if capture.schedule is None:
        return None, "no schedule"
    args = capture.args if capture.args is not None else _boundscope._default_args(capture.schedule)
    try:
        built = tvm.build(capture.schedule, args, name="example")
    except tvm.error.TVMError as err:
        if "GPU" in str(err):
            return None, "GPU schedule (threads bound to blockIdx/threadIdx)"
        return None, str(err).splitlines()[0][:90]
    return built.timings, None


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    examples = sorted(glob.glob(os.path.join(root, "resources", "examples", "*.py")))
    print("| example | lower ms | LLVM IR ms | O3 ms | machine code ms | total ms |")
    print("|---|---:|---:|---:|---:|---:|")
    slow = []
    for path in examples:
        name = os.path.basename(path)
        timings, reason = measure(path)
        if timings is None:
            print("| %s | not built: %s |||||" % (name, reason.replace("|", "/")))
            continue
        total = sum(timings.values())
        if total > LIMIT_MS:
            slow.append(name)
        print("| %s | %.1f | %.1f | %.1f | %.1f | %.1f |" % (
            name, timings["lower_ms"], timings["codegen_ms"], timings["optimize_ms"],
            timings["machine_code_ms"], total))
    print("\nover %.0f ms: %s" % (LIMIT_MS, ", ".join(slow) if slow else "none"))
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
