# 2048 x 2048 computed in tiles of 8 rows: 8.4 M elements in all, past the interpreter's budget
# (4 M), so `alloc` counts the touched elements from the access sets (where ISL is built in;
# else it measures them on a sample of the tiles).
import tvm
from tvm import te

N = 2048
A = te.placeholder((N, N), name="A")
B = te.compute((N, N), lambda i, j: A[i, j] * 2.0, name="B")
C = te.compute((N, N), lambda i, j: B[i, j] + B[i, (j + 1) % N], name="C")
s = te.create_schedule(C.op)
yo, yi = s[C].split(C.op.axis[0], factor=8)
s[B].compute_at(s[C], yo)
