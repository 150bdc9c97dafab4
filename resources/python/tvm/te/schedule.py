"""tvm.te.schedule: schedules, stages, relations and InferBound."""

from boundscope.te import (  # noqa: F401
    Schedule, Stage, Split, Fuse, Rebase, Singleton, create_schedule, InferBound,
)
