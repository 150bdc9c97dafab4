"""tvm.autotvm.task: the configuration space classes TOPI's templates use (task.space)."""

from . import space  # noqa: F401
from .space import SplitEntity, OtherOptionEntity, FallbackConfigEntity  # noqa: F401
