# A vectorize too wide for the CPU target, in a script that holds B in `Bv` and its schedule in
# `sch`: run's fix is written in those names.
import tvm
from tvm import te

A = te.placeholder((65536,), name="A")
Bv = te.compute((65536,), lambda i: A[i] + 1.0, name="B")
sch = te.create_schedule(Bv.op)
sch[Bv].vectorize(Bv.op.axis[0])
