# edit: B.rfactor(ki)
# rfactor is written through the schedule, after the split that names ki.
import tvm
from tvm import te

n = 1024
A = te.placeholder((n,), name="A")
k = te.reduce_axis((0, n), name="k")
B = te.compute((1,), lambda i: te.sum(A[k], axis=k), name="B")
s = te.create_schedule(B.op)
ko, ki = s[B].split(k, factor=16)
B_rf = s.rfactor(B, ki)
print(tvm.lower(s, [A, B], simple_mode=True))
