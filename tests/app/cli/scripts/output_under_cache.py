# The output attached under its own cache: the attachment is the wrong way round.
import tvm
from tvm import te
A = te.placeholder((64, 64), name="A")
C = te.compute((64, 64), lambda i, j: A[i, j] + 1.0, name="C")
s = te.create_schedule(C.op)
CL = s.cache_write(C, "local")
s[C].compute_at(s[CL], CL.op.axis[0])
