# edit: C.split(i, factor=4)
# The compute_at reads C's axis i inline (C.op.axis[0]), so the split of i must follow it.
import tvm
from tvm import te

A = te.placeholder((16, 16), name="A")
B = te.compute((16, 16), lambda i, j: A[i, j] * 2, name="B")
C = te.compute((16, 16), lambda i, j: B[i, j] + 1, name="C")
s = te.create_schedule(C.op)
i, j = s[C].op.axis
s[B].compute_at(s[C], C.op.axis[0])
print(tvm.lower(s, [A, C], simple_mode=True))
