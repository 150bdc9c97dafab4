# A prefetch in a loop whose body binds a virtual thread and threadIdx.x: every thread value is covered.
import tvm
from tvm import te
A = te.placeholder((64, 64), name="A")
B = te.compute((64, 64), lambda i, j: A[i, j] * 2.0, name="B")
s = te.create_schedule(B.op)
bx, ii = s[B].split(B.op.axis[0], factor=8)
jo, ji = s[B].split(B.op.axis[1], factor=16)
vo, vi = s[B].split(ji, nparts=2)
s[B].reorder(bx, ii, jo, vo, vi)
s[B].bind(bx, te.thread_axis("blockIdx.x"))
s[B].bind(vo, te.thread_axis("vthread"))
s[B].bind(vi, te.thread_axis("threadIdx.x"))
s[B].prefetch(A, jo, 1)
print(tvm.lower(s, [A, B], simple_mode=True))
