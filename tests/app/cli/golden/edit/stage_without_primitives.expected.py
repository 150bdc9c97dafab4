# edit: B.compute_inline()
# B has no primitive yet: the edit ends the schedule's primitives, before the first use of the
# schedule (the print), not at the end of the file.
import tvm
from tvm import te

n = te.var("n")
A = te.placeholder((n,), name="A")
B = te.compute((n,), lambda i: A[i] + 1, name="B")
C = te.compute((n,), lambda i: B[i] * B[i], name="C")

s = te.create_schedule(C.op)
xo, xi = s[C].split(C.op.axis[0], factor=4)
s[C].unroll(xi)
s[B].compute_inline()

print(tvm.lower(s, [A, C], simple_mode=True))
mod = tvm.build(s, [A, C])
