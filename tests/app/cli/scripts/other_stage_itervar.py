# split of an IterVar that belongs to another stage: the message names both stages and a fix.
import tvm
from tvm import te
A = te.placeholder((16, 12), name="A")
B = te.compute((16, 12), lambda i, j: A[i, j] * 2.0, name="B")
C = te.compute((16, 12), lambda i, j: B[i, j] + 1.0, name="C")
s = te.create_schedule(C.op)
xo, xi = s[C].split(B.op.axis[0], factor=4)
