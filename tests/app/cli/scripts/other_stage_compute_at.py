# compute_at given a loop of the stage being attached instead of one of the target's.
import tvm
from tvm import te
A = te.placeholder((16, 12), name="A")
B = te.compute((16, 12), lambda i, j: A[i, j] * 2.0, name="B")
C = te.compute((16, 12), lambda i, j: B[i, j] + 1.0, name="C")
s = te.create_schedule(C.op)
s[B].compute_at(s[C], B.op.axis[0])
