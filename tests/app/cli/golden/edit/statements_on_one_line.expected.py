# edit: C.unroll(i)
# Two statements on one line: the line the engine recorded does not tell B from C, so C is
# named by its place in the schedule.
import tvm
from tvm import te

A = te.placeholder((64,), name="A")
B = te.compute((64,), lambda i: A[i] * 2, name="B"); C = te.compute((64,), lambda i: B[i] + 1, name="C")
s = te.create_schedule(C.op)
s.stages[2].unroll(s.stages[2].op.axis[0])
print(tvm.lower(s, [A, C], simple_mode=True))
