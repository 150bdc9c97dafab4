# edit: C.split(xo, factor=2)
# xo is split away: the split comes after the compute_at that still names xo.
import tvm
from tvm import te

A = te.placeholder((64,), name="A")
B = te.compute((64,), lambda i: A[i] * 2, name="B")
C = te.compute((64,), lambda i: B[i] + 1, name="C")
s = te.create_schedule(C.op)
xo, xi = s[C].split(C.op.axis[0], factor=8)
s[B].compute_at(s[C], xo)
i_outer_outer, i_outer_inner = s[C].split(xo, factor=2)
print(tvm.lower(s, [A, C], simple_mode=True))
