# Symbolic shapes: n and m are te.var, so every bound InferBound derives is an expression in them.
# B is computed at C's outer loop after a split by 8: its region is [i.outer*8, 8) x [0, m) and
# the split of n gets the extent floordiv(n + 7, 8).
import tvm
from tvm import te

n = te.var("n")
m = te.var("m")
A = te.placeholder((n, m), name="A")
B = te.compute((n, m), lambda i, j: A[i, j] * 2.0, name="B")
C = te.compute((n, m), lambda i, j: B[i, j] + 1.0, name="C")

s = te.create_schedule(C.op)
xo, xi = s[C].split(C.op.axis[0], factor=8)
s[B].compute_at(s[C], xo)
