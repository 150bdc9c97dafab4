# compute_at with no path to its consumer, found when the script lowers: the error is the
# compute_at's (line 11), with the fix in the script's own names (sch, Cst).
import tvm
from tvm import te
A = te.placeholder((16, 12), name="A")
B = te.compute((16, 12), lambda i, j: A[i, j] * 2.0, name="B")
Cst = te.compute((16, 12), lambda i, j: B[i, j] + 1.0, name="C")
k = te.reduce_axis((0, 12), name="k")
R = te.compute((16,), lambda i: te.sum(Cst[i, k], axis=k), name="R")
sch = te.create_schedule(R.op)
sch[Cst].compute_at(sch[B], B.op.axis[0])
print(tvm.lower(sch, [A, R], simple_mode=True))
