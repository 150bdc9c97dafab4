"""tvm.topi.generic: TVM's default schedules for the CPU (topi/generic): a schedule of the
outputs with the injective stages inlined where TVM inlines them."""

from tvm import te
from tvm.target import Target

from ..._placeholder import missing as _missing


def _default_schedule(outs, auto_inline):
    target = Target.current(allow_none=True)
    if target is not None and target.kind.name not in ("llvm", "c"):
        raise RuntimeError("schedule not registered for '%s'" % target)
    outs = [outs] if isinstance(outs, te.Tensor) else list(outs)
    s = te.create_schedule([x.op for x in outs])
    if auto_inline:
        te.schedule.AutoInlineInjective(s)
    return s


def schedule_injective_from_existing(sch, out):
    """TVM's: the output's axes fused into one loop."""
    sch[out].fuse(*sch[out].op.axis)
    return sch


def schedule_injective(outs):
    """TVM's generic.schedule_injective: the outputs' schedule, injective stages inlined, the
    first output's axes fused."""
    s = _default_schedule(outs, True)
    first = outs if isinstance(outs, te.Tensor) else outs[0]
    return schedule_injective_from_existing(s, first)


def schedule_reduce(outs):
    """TVM's generic.schedule_reduce: the outputs' schedule, injective stages inlined."""
    return _default_schedule(outs, True)


def schedule_conv2d_hwcn(outs):
    """TVM's generic.schedule_conv2d_hwcn: the outputs' schedule as created."""
    return _default_schedule(outs, False)


def schedule_conv2d_nchw(outs):
    """TVM's generic.schedule_conv2d_nchw: the outputs' schedule as created."""
    return _default_schedule(outs, False)


def schedule_softmax(outs):
    """TVM's generic.schedule_softmax: the outputs' schedule as created."""
    return _default_schedule(outs, False)


__getattr__ = _missing("tvm.topi.generic")
