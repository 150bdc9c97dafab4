"""tvm.autotvm, as much as TOPI's templates need without tuning: `register_topi_compute` and
`register_topi_schedule` give a template its configuration when it is called without one, and
that configuration is always TVM's fallback (FallbackConfigEntity): each split and knob takes
the first entity of its space unless the template sets its own fallback (`cfg.is_fallback`).
There is no tuner, no tuning log and no TopHub here."""

import functools

from . import task  # noqa: F401
from .task.space import FallbackConfigEntity
from .._placeholder import missing as _missing


def _with_fallback_config(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if args and isinstance(args[0], FallbackConfigEntity):
            return fn(*args, **kwargs)
        return fn(FallbackConfigEntity(), *args, **kwargs)

    return wrapper


def register_topi_compute(task_name, func=None):
    """TVM's decorator of a template's compute `f(cfg, *args)`: callable as `f(*args)`."""
    del task_name
    return _with_fallback_config if func is None else _with_fallback_config(func)


def register_topi_schedule(task_name, func=None):
    """TVM's decorator of a template's schedule `f(cfg, outs)`: callable as `f(outs)`."""
    del task_name
    return _with_fallback_config if func is None else _with_fallback_config(func)


__getattr__ = _missing("tvm.autotvm")
