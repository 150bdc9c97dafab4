# edit: C.vectorize(xi)
# vectorize, unroll and parallel on the same loop replace one another.
import tvm
from tvm import te

A = te.placeholder((1024,), name="A")
C = te.compute((1024,), lambda i: A[i] + 1, name="C")
s = te.create_schedule(C.op)
xo, xi = s[C].split(C.op.axis[0], factor=8)
s[C].unroll(xi)
s[C].parallel(xo)
print(tvm.lower(s, [A, C], simple_mode=True))
