# A prefetch in a loop whose body binds blocks and threads: the region covers every thread.
# prefetch on a serial loop whose body holds a thread binding (loop outside the kernel's bindings)
import tvm
from tvm import te
A = te.placeholder((64, 64), name="A")
B = te.compute((64, 64), lambda i, j: A[i, j] * 2.0, name="B")
s = te.create_schedule(B.op)
io, ii = s[B].split(B.op.axis[0], factor=8)
jo, ji = s[B].split(B.op.axis[1], factor=32)
s[B].reorder(io, jo, ii, ji)
s[B].bind(jo, te.thread_axis("blockIdx.x"))
s[B].bind(ji, te.thread_axis("threadIdx.x"))
s[B].prefetch(A, io, 1)
print(tvm.lower(s, [A, B], simple_mode=True))
