"""tvm.contrib: libraries TVM calls through extern stages (cblas)."""
