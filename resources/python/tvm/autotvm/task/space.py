"""tvm.autotvm.task.space: a template's configuration, as TVM's FallbackConfigEntity gives it
when no tuning record exists: `define_split` takes the space's first entity (all factors 1,
the outer part the rest: [-1, 1, ..., 1]), `define_knob` its first candidate, unless the
template assigns its own (`cfg["tile_k"] = SplitEntity([-1, 64])`)."""

from ...error import TVMError


class SplitEntity:
    """A split of one axis into len(size) parts, outermost first; -1 is "the rest"."""

    def __init__(self, size):
        self.size = list(size)

    def apply(self, sch, op, axis):
        """Splits `axis` of stage `op` (a stage, operation or tensor) by the inner sizes;
        returns the parts, outermost first."""
        stage = sch[op]
        parts = []
        for factor in reversed(self.size[1:]):
            axis, inner = stage.split(axis, factor=int(factor))
            parts.append(inner)
        parts.append(axis)
        return list(reversed(parts))

    def __repr__(self):
        return "sp%s" % (self.size,)


class OtherOptionEntity:
    """A knob's chosen value (`.val`)."""

    def __init__(self, val):
        self.val = val

    def __repr__(self):
        return str(self.val)


def _extent(axis):
    if isinstance(axis, int):
        return axis
    dom = getattr(axis, "dom", None)
    extent = getattr(dom, "extent", None)
    value = getattr(extent, "value", None)
    if value is None:
        raise TVMError("define_split: the axis %r has no constant extent" % (axis,))
    return int(value)


class FallbackConfigEntity:
    """TVM's configuration of a template run without a tuning record."""

    is_fallback = True

    def __init__(self):
        self._entities = {}
        self._split_extents = {}
        self.flop = 0

    def define_split(self, name, axis, policy="factors", num_outputs=2, **kwargs):
        del policy, kwargs
        self._split_extents[name] = _extent(axis)
        self._entities.setdefault(name, SplitEntity([-1] + [1] * (num_outputs - 1)))

    def define_knob(self, name, candidates):
        if not candidates:
            raise TVMError("define_knob %r: no candidates" % (name,))
        self._entities.setdefault(name, OtherOptionEntity(candidates[0]))

    def fallback_split(self, name, constraints):
        """TVM's: from the innermost part out, each part the largest factor of what is left of
        the extent that is at most its constraint (-1: none)."""
        if name not in self._split_extents:
            raise TVMError("fallback_split: the split %r is not defined" % (name,))
        size = list(self._entities[name].size)
        if len(constraints) != len(size):
            raise TVMError("fallback_split %r: %d constraints for %d parts"
                           % (name, len(constraints), len(size)))
        left = self._split_extents[name]
        for i in reversed(range(len(size))):
            limit = constraints[i] if constraints[i] != -1 else left
            factors = [f for f in range(1, left + 1) if left % f == 0 and f <= limit]
            if not factors:
                raise TVMError("Cannot find feasible fallback split entity for node: " + name)
            size[i] = factors[-1]
            left //= factors[-1]
        self._entities[name] = SplitEntity(size)

    def add_flop(self, flop):
        self.flop += flop

    def __getitem__(self, name):
        if name not in self._entities:
            raise TVMError("the configuration has no entity %r (define it first)" % (name,))
        return self._entities[name]

    def __setitem__(self, name, entity):
        self._entities[name] = entity

    def __repr__(self):
        return "FallbackConfigEntity(%s)" % ", ".join(
            "%s=%r" % item for item in sorted(self._entities.items()))
