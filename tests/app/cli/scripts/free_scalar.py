# A split factor that is a te.var: every command analyses it, with f as a parameter (issue 13).
import tvm
from tvm import te
n = 64
A = te.placeholder((n,), name="A")
B = te.compute((n,), lambda i: A[i] * 2, name="B")
C = te.compute((n,), lambda i: B[i] + 1, name="C")
s = te.create_schedule(C.op)
f = te.var("f")
xo, xi = s[C].split(C.op.axis[0], factor=f)
s[B].compute_at(s[C], xo)
