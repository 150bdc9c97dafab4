# An index mistake that reads far past the input: C[i] = A[i * 100000000]. The compiled kernel
# touches unmapped memory; `boundscope run` must report it, not crash.
import tvm
from tvm import te

A = te.placeholder((10,), name="A")
C = te.compute((10,), lambda i: A[i * 100000000], name="C")
s = te.create_schedule(C.op)
