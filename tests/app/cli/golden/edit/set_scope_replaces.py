# edit: B.set_scope('local')
# set_scope overrides the earlier call: it replaces it in place.
import tvm
from tvm import te

A = te.placeholder((64,), name="A")
B = te.compute((64,), lambda i: A[i] * 2, name="B")
C = te.compute((64,), lambda i: B[i] + 1, name="C")
s = te.create_schedule(C.op)
s[B].set_scope("global")  # was global
xo, xi = s[C].split(C.op.axis[0], factor=8)
print(tvm.lower(s, [A, C], simple_mode=True))
