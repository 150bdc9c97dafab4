# rfactor: a sum over 1024 elements split by 16, the inner part factored out into B.rf so that
# 16 partial sums are computed independently (a vectorizable first stage) and then combined.
import tvm
from tvm import te

n = 1024
A = te.placeholder((n,), name="A")
k = te.reduce_axis((0, n), name="k")
B = te.compute((1,), lambda i: te.sum(A[k], axis=k), name="B")

s = te.create_schedule(B.op)
ko, ki = s[B].split(k, factor=16)
BF = s.rfactor(B, ki)
s[BF].vectorize(BF.op.axis[0])
