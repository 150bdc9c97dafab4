"""TVM's error types. The engine's errors arrive as TVMError (a RuntimeError, as in TVM) with
the engine's message; the subclasses exist so scripts can raise and catch them by TVM's names."""

import boundscope as _bs

TVMError = _bs.TVMError


# A failed internal check of the engine (a Boundscope bug), as TVM's ICHECK raises it.
InternalError = _bs.InternalError


class OpError(TVMError):
    """TVM's OpError (a user error in an operator's use)."""


class OpNotImplemented(OpError, NotImplementedError):
    """TVM's OpNotImplemented."""


class OpAttributeRequired(OpError, AttributeError):
    """TVM's OpAttributeRequired."""


class OpAttributeInvalid(OpError, AttributeError):
    """TVM's OpAttributeInvalid."""


class OpAttributeUnImplemented(OpError, NotImplementedError):
    """TVM's OpAttributeUnImplemented."""


class DiagnosticError(TVMError):
    """TVM's DiagnosticError."""
