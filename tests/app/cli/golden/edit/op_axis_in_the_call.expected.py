# edit: C.vectorize(C.op.axis[1])
# The call names the loop as TVM scripts do, C.op.axis[1].
import tvm
from tvm import te

A = te.placeholder((64, 32), name="A")
C = te.compute((64, 32), lambda i, j: A[i, j] + 1, name="C")
s = te.create_schedule(C.op)
s[C].vectorize(s[C].op.axis[1])
print(tvm.lower(s, [A, C], simple_mode=True))
