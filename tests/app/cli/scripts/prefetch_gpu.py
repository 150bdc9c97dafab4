# A prefetch in a serial loop inside a GPU kernel: CUDA has no such hint, so the kernel leaves it out.
import tvm
from tvm import te
A = te.placeholder((64, 64), name="A")
B = te.compute((64, 64), lambda i, j: A[i, j] * 2.0, name="B")
s = te.create_schedule(B.op)
bx, ii = s[B].split(B.op.axis[0], factor=8)
s[B].bind(bx, te.thread_axis("blockIdx.x"))
s[B].bind(B.op.axis[1], te.thread_axis("threadIdx.x"))
s[B].reorder(bx, B.op.axis[1], ii)
s[B].prefetch(A, ii, 1)
