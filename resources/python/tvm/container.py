"""tvm.container (TVM 0.6-0.7; later tvm.ir.container): Map and Array."""

from boundscope.container import Map, Array  # noqa: F401

from ._placeholder import missing as _missing

__getattr__ = _missing("tvm.container")
