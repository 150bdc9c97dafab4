# A matmul whose reduction is split and reordered between the data axes: `bounds` lists the
# leaves in loop order.
import tvm
from tvm import te

A = te.placeholder((64, 64), name="A")
k = te.reduce_axis((0, 64), name="k")
C = te.compute((64, 64), lambda x, y: te.sum(A[x, k] * A[k, y], axis=k), name="C")
s = te.create_schedule(C.op)
x, y = C.op.axis
ko, ki = s[C].split(k, factor=8)
s[C].reorder(ko, x, ki, y)
