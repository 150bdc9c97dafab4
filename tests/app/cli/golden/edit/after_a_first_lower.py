# edit: C.unroll(xi)
# The script lowers twice; C's last primitive is after the first lower, so the edit follows it.
import tvm
from tvm import te

A = te.placeholder((64,), name="A")
C = te.compute((64,), lambda i: A[i] + 1, name="C")
s = te.create_schedule(C.op)
print(tvm.lower(s, [A, C], simple_mode=True))
xo, xi = s[C].split(C.op.axis[0], factor=8)
print(tvm.lower(s, [A, C], simple_mode=True))
