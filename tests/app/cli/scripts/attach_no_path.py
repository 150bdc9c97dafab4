# C is computed at a loop of B, but C is read by R, which does not run inside B (issue 13, repro 21).
import tvm
from tvm import te
A = te.placeholder((16, 12), name="A")
B = te.compute((16, 12), lambda i, j: A[i, j] * 2.0, name="B")
C = te.compute((16, 12), lambda i, j: B[i, j] + 1.0, name="C")
k = te.reduce_axis((0, 12), name="k")
R = te.compute((16,), lambda i: te.sum(C[i, k], axis=k), name="R")
s = te.create_schedule(R.op)
s[C].compute_at(s[B], B.op.axis[0])  # <-
