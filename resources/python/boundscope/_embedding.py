"""Set-up of the interpreter embedded in the Boundscope CLI and app (called once, at start).

`import tvm` must always mean Boundscope's compatibility package, even when a real TVM is
installed or on PYTHONPATH: our directory goes first on sys.path and both packages are imported
at once, so sys.modules answers every later `import tvm` with ours.
"""

import os
import sys


def _is_inside(path, directory):
    return bool(path) and os.path.abspath(path).startswith(directory + os.sep)


def install(directory):
    """Make `boundscope` and `tvm` resolve to the packages in `directory`."""
    directory = os.path.abspath(directory)
    for name in list(sys.modules):
        if name.split(".")[0] not in ("tvm", "boundscope"):
            continue
        if not _is_inside(getattr(sys.modules[name], "__file__", None), directory):
            del sys.modules[name]
    while directory in sys.path:
        sys.path.remove(directory)
    sys.path.insert(0, directory)

    import boundscope  # noqa: F401
    import tvm

    if not _is_inside(tvm.__file__, directory):
        raise ImportError("'import tvm' found %s instead of Boundscope's package in %s"
                          % (tvm.__file__, directory))
