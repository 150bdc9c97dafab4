# A prefetch in a loop of one iteration: refused at the prefetch line when lowered (TVM refuses it).
import tvm
from tvm import te

A = te.placeholder((32, 64), name="A")
B = te.compute((32, 64), lambda i, j: A[i, j] * 2.0, name="B")
s = te.create_schedule(B.op)
io, ii = s[B].split(B.op.axis[0], factor=32)
s[B].prefetch(A, io, 1)
print(tvm.lower(s, [A, B], simple_mode=True))
