# edit: C.reorder(xi, xo)
# After C's last primitive, not at the end of the script.
import tvm
from tvm import te

n = 64
A = te.placeholder((n, n), name="A")
B = te.compute((n, n), lambda i, j: A[i, j] * 2, name="B")
C = te.compute((n, n), lambda i, j: B[i, j] + 1, name="C")

s = te.create_schedule(C.op)
xo, xi = s[C].split(C.op.axis[0], factor=8)
s[C].reorder(xi, xo)
s[B].compute_root()
s[B].parallel(B.op.axis[0])

func = tvm.build(s, [A, C])
print(func)
