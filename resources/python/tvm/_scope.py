"""`with` contexts whose innermost instance is current, per thread (TVM's PassContext and
Target both work this way)."""

import threading as _threading


class ScopedContext:
    """Entering pushes the instance on its class's per-thread stack, leaving pops it;
    `_innermost()` is the top, None outside every `with` block."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._scope_state = _threading.local()

    @classmethod
    def _stack(cls):
        if not hasattr(cls._scope_state, "stack"):
            cls._scope_state.stack = []
        return cls._scope_state.stack

    @classmethod
    def _innermost(cls):
        stack = cls._stack()
        return stack[-1] if stack else None

    def __enter__(self):
        type(self)._stack().append(self)
        return self

    def __exit__(self, *exc):
        type(self)._stack().pop()
        return False
