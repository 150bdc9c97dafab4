"""tvm.topi.tag: the tags TOPI's operators carry, and the tests its schedules use."""

ELEMWISE = "elemwise"
BROADCAST = "broadcast"
INJECTIVE = "injective"
COMM_REDUCE = "comm_reduce"
COMM_REDUCE_IDX = "comm_reduce_idx"


def is_broadcast(tag):
    """Whether an operator with this tag is elementwise or broadcast."""
    return tag in (ELEMWISE, BROADCAST) or tag.startswith((ELEMWISE + ",", BROADCAST + ","))


def is_injective(tag):
    """Whether an operator with this tag is injective (elementwise and broadcast included)."""
    return is_broadcast(tag) or tag == INJECTIVE or tag.startswith(INJECTIVE + ",")
