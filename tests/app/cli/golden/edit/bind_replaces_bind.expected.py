# edit: C.bind(xo, te.thread_axis("blockIdx.y"))
# Binding a loop again replaces its bind.
import tvm
from tvm import te

A = te.placeholder((1024,), name="A")
C = te.compute((1024,), lambda i: A[i] + 1, name="C")
s = te.create_schedule(C.op)
bx = te.thread_axis("blockIdx.x")
tx = te.thread_axis("threadIdx.x")
xo, xi = s[C].split(C.op.axis[0], factor=64)
s[C].bind(xo, te.thread_axis("blockIdx.y"))
s[C].bind(xi, tx)
print(tvm.lower(s, [A, C], simple_mode=True))
