# TVM's default names: two placeholders called `placeholder`, three computes called `compute`.
# The schedule names them apart as TVM's printers do: placeholder_1, compute_1, compute_2.
import tvm
from tvm import te

n = 32
X = te.placeholder((n, n))
Y = te.placeholder((n, n))
B = te.compute((n, n), lambda i, j: X[i, j] * 2)
C = te.compute((n, n), lambda i, j: B[i, j] + Y[i, j])
D = te.compute((n, n // 2), lambda i, j: C[i, j] + C[i, j + n // 2])
s = te.create_schedule(D.op)
io, ii = s[D].split(D.op.axis[0], factor=4)
s[C].compute_at(s[D], io)
print([t.op.name for t in (X, Y, B, C, D)])
