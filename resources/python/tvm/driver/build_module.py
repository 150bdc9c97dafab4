"""tvm.driver.build_module, where TVM's TE tests import from: `schedule_to_module`, `lower` and
`build`.

    mod = schedule_to_module(s, [A, B])      # the IR ScheduleOps makes, before the passes
    assert isinstance(mod["main"], tvm.tir.PrimFunc)
"""

from boundscope.te import lower
from . import build  # noqa: F401 - tvm.driver.build_module.build is tvm.build


def schedule_to_module(sch, args=None, name="main", binds=None):
    """The schedule as an IRModule of one PrimFunc `name` whose body is the loop nest
    ScheduleOps builds (realize, produce, the loops and guards), before flattening and the
    other passes: what TVM's schedule_to_module hands to its lowering passes."""
    if binds:
        raise ValueError("schedule_to_module: binds (explicit buffers) are not available in "
                         "Boundscope yet")
    return lower(sch, args, name=name, after="schedule_ops")
