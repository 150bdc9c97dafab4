# The first GPU schedule everyone writes: a vector add split into blocks of 64 threads. The split
# does not divide n = 1000, so TVM guards the last block with a likely() bound check.
import tvm
from tvm import te

n = 1000
A = te.placeholder((n,), name="A")
B = te.placeholder((n,), name="B")
C = te.compute((n,), lambda i: A[i] + B[i], name="C")

s = te.create_schedule(C.op)
bx, tx = s[C].split(C.op.axis[0], factor=64)
s[C].bind(bx, te.thread_axis("blockIdx.x"))
s[C].bind(tx, te.thread_axis("threadIdx.x"))
