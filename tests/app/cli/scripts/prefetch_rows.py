# s[B].prefetch: each row of B first prefetches the row of A that the next iteration reads.
import tvm
from tvm import te

A = te.placeholder((64, 32), name="A")
B = te.compute((64, 32), lambda i, j: A[i, j] * 2.0 + 1.0, name="B")
s = te.create_schedule(B.op)
io, ii = s[B].split(B.op.axis[0], factor=8)
s[B].prefetch(A, io, 1)
s[B].vectorize(B.op.axis[1])
print(tvm.lower(s, [A, B], simple_mode=True))
