# One thread IterVar bound to loops of 64 and of 32 iterations: refused at the bind that
# disagrees (InferBound visits C first, so B's bind is the one that disagrees).
import tvm
from tvm import te
A = te.placeholder((64,), name="A")
B = te.compute((64,), lambda i: A[i] * 2.0, name="B")
C = te.compute((32,), lambda i: B[i] + B[i + 32], name="C")
s = te.create_schedule(C.op)
tx = te.thread_axis("threadIdx.x")
s[B].bind(B.op.axis[0], tx)
s[C].bind(C.op.axis[0], tx)
