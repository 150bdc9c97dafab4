# An extern stage (TVM's te.extern): a matrix product computed by BLAS, not by a loop nest.
# tvm.contrib.cblas.matmul makes a stage C whose body is one call, tvm_call_packed of
# "tvm.contrib.cblas.matmul", with A, B and C passed as arrays. InferBound cannot look into
# that call: C needs A and B whole, and C is realized whole, so P (which feeds A's place) is
# computed over all of its 64 x 32 elements even though D reads only the first rows of C.
import tvm
from tvm import te
from tvm.contrib import cblas

n, l, m = 64, 32, 48
A = te.placeholder((n, l), name="A")
P = te.compute((n, l), lambda i, k: A[i, k] * 2.0, name="P")
B = te.placeholder((l, m), name="B")
C = cblas.matmul(P, B)
D = te.compute((8, m), lambda i, j: C[i, j] + 1.0, name="D")

s = te.create_schedule(D.op)
print(tvm.lower(s, [A, B, D], simple_mode=True))
