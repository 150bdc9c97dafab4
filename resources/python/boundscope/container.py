"""TVM's containers as Python sees them: `Map` (what InferBound and `convert(dict)` return) and
`Array` (lists: the engine hands sequences to Python as lists)."""


class Map(dict):
    """TVM's `tvm.ir.container.Map`: a dict keyed by engine objects (by identity, as in TVM)."""

    def __repr__(self):
        return "{" + ", ".join("%s: %s" % (k, v) for k, v in self.items()) + "}"

    __str__ = __repr__

    def items(self):
        """A list of (key, value) pairs, as TVM's Map.items() (indexable)."""
        return list(super().items())


Array = list  # TVM's tvm.ir.container.Array: engine sequences arrive as Python lists

__all__ = ["Map", "Array"]
