# P and Q keep te.compute's default name, and each is named by a schedule of its own
# first, so the schedule of R holds two stages called `compute` (CliEdit.*OneName*).
import tvm
from tvm import te
A = te.placeholder((8,), name="A")
P = te.compute((8,), lambda i: A[i] + 1.0)
Q = te.compute((8,), lambda i: A[i] * 2.0)
te.create_schedule(P.op)   # a throwaway schedule, e.g. to print P alone
te.create_schedule(Q.op)
R = te.compute((8,), lambda i: P[i] + Q[i], name="R")
s = te.create_schedule(R.op)
s[P].compute_at(s[R], R.op.axis[0])
