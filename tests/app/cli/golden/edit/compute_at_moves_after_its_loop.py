# edit: B.compute_at(C, xo)
# The compute_inline it replaces comes before xo exists: it goes, and compute_at follows the
# split that makes xo.
import tvm
from tvm import te

A = te.placeholder((64,), name="A")
B = te.compute((64,), lambda i: A[i] * 2, name="B")
C = te.compute((64,), lambda i: B[i] + 1, name="C")
s = te.create_schedule(C.op)
s[B].compute_inline()
xo, xi = s[C].split(C.op.axis[0], factor=8)
print(tvm.lower(s, [A, C], simple_mode=True))
