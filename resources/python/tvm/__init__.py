"""TVM's Python API, reproduced by Boundscope.

Inside the Boundscope CLI and app `import tvm` always resolves here (a real TVM installation is
never used), so scripts written for TVM's tensor-expression API run unchanged: `from tvm import
te`, `tvm.tir.floordiv`, `tvm.error.TVMError`, and the older TVM 0.6 spellings used in the seed
documents (`tvm.var`, `tvm.const`, ...). Everything is re-exported from the `boundscope` package.
Names Boundscope does not offer yet raise AttributeError saying so.
"""

import boundscope as _bs

from . import error, ir, runtime, tir, te, arith, testing, nd, container, ir_pass, transform  # noqa: F401
from . import target  # noqa: F401
from ._placeholder import missing as _missing
from .error import TVMError  # noqa: F401
from .ir import Range, PrimExpr, IRModule  # noqa: F401
from .runtime import const, convert  # noqa: F401
from .driver import build, cpu, cuda, device  # noqa: F401 - tvm.build (LLVM, CUDA)
from .nd import gpu, opencl, cl  # noqa: F401
from ._ffi import register_func, get_global_func  # noqa: F401
from . import contrib  # noqa: F401

__version__ = "0.0.0+boundscope." + _bs.__version__
__boundscope__ = True

# TVM 0.6 spellings (the seeds use them): tvm.var, tvm.floordiv, ...
var = _bs.var
size_var = _bs.size_var
floordiv = _bs.floordiv
floormod = _bs.floormod
truncdiv = _bs.truncdiv
truncmod = _bs.truncmod
indexdiv = _bs.indexdiv
indexmod = _bs.indexmod
if_then_else = _bs.if_then_else
all = _bs.all  # noqa: A001 - TVM's name
any = _bs.any  # noqa: A001 - TVM's name
exp = _bs.exp
log = _bs.log
sqrt = _bs.sqrt
expr = tir  # tvm.expr.Var in TVM 0.6
stmt = tir  # tvm.stmt.For in TVM 0.6

# tvm.lower and the TVM 0.6 tensor-expression spellings of the seeds (tvm.placeholder, ...).
lower = _bs.lower
placeholder = _bs.placeholder
compute = _bs.compute
reduce_axis = _bs.reduce_axis
thread_axis = _bs.thread_axis
create_schedule = _bs.create_schedule
# In TVM 0.6 tvm.sum/min/max are reducers that also combine two expressions elementwise.
sum = _bs.te.sum  # noqa: A001 - TVM's name
min = _bs.te.min  # noqa: A001 - TVM's name
max = _bs.te.max  # noqa: A001 - TVM's name
comm_reducer = _bs.comm_reducer
schedule = te.schedule

__getattr__ = _missing("tvm")
