# Matrix multiply with no schedule: three loops, C initialised before its reduction loop k.
import tvm
from tvm import te

M, N, K = 256, 256, 256
A = te.placeholder((M, K), name="A")
B = te.placeholder((K, N), name="B")
k = te.reduce_axis((0, K), name="k")
C = te.compute((M, N), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")

s = te.create_schedule(C.op)
