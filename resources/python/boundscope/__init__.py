"""Boundscope's Python API: the engine's tensor-expression IR, exposed with TVM's names.

Scripts usually use the `tvm` compatibility package beside this one (`from tvm import te`),
which re-exports these objects where TVM has them; `import boundscope` gives the same objects
under Boundscope's own names. Inside the Boundscope CLI and app this package runs in the embedded
interpreter; with PYTHONPATH=build/python any python3 can import it.

Expressions follow TVM's Python semantics: `+ - *` build arithmetic (constants fold), `//` is
floordiv, `%` floormod, `/` on two integers raises (use floordiv or truncdiv), `a == b` is an EQ
expression that, used as a bool, tells whether a and b are the same object.
"""

import os as _os

import _boundscope as _core

# Frames from this directory (the boundscope and tvm packages) are never "the user's line" when
# the engine records which script line created an object.
_core._add_library_path(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))))

from .expr import *  # noqa: E402,F401,F403
from .expr import __all__ as _expr_all  # noqa: E402
from .te import *  # noqa: E402,F401,F403
from .te import __all__ as _te_all  # noqa: E402
from . import te  # noqa: E402,F401
from . import arith  # noqa: E402,F401
from . import stmt, ir_module, intrin  # noqa: E402,F401
from .container import Map, Array  # noqa: E402,F401
from .tc import tc, TcProgram, TcWarning  # noqa: E402,F401
from .graph import graph, Graph  # noqa: E402,F401

TVMError = _core.TVMError
InternalError = _core.InternalError
save_json = _core.save_json
load_json = _core.load_json

__all__ = list(_expr_all) + list(_te_all) + ["TVMError", "InternalError", "Map", "Array", "save_json",
                                                 "load_json", "graph", "Graph"]
__version__ = "0.1.0"
