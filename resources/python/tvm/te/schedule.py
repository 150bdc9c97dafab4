"""tvm.te.schedule: schedules, stages, relations, IterVar (with its kinds: `IterVar.Unrolled`),
InferBound, ScheduleOps and the AutoInline* helpers."""

from boundscope.buffer import Buffer  # noqa: F401 - tvm.te.schedule.Buffer is tvm.tir.Buffer
from boundscope.expr import IterVar  # noqa: F401
from boundscope.te import (  # noqa: F401
    Schedule, Stage, IterVarAttr, Split, Fuse, Rebase, Singleton, create_schedule, InferBound,
    ScheduleOps, AutoInlineElemWise, AutoInlineBroadcast, AutoInlineInjective, CreateReadGraph,
    PostDFSOrder, CreateAttachPath, ScanGetBody, ScanFixPointAnalysis,
)
from .._placeholder import missing as _missing

__getattr__ = _missing("tvm.te.schedule")
