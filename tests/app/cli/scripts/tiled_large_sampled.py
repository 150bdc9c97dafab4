# tiled_large.py with C reading B at a column that is not quasi-affine ((j * j) % N): B's access
# sets cannot count its touched elements, so `alloc` measures them on a sample of the tiles
# (C, whose own writes are affine, is counted from its access sets where ISL is built in).
import tvm
from tvm import te

N = 2048
A = te.placeholder((N, N), name="A")
B = te.compute((N, N), lambda i, j: A[i, j] * 2.0, name="B")
C = te.compute((N, N), lambda i, j: B[i, j] + B[i, (j * j) % N], name="C")
s = te.create_schedule(C.op)
yo, yi = s[C].split(C.op.axis[0], factor=8)
s[B].compute_at(s[C], yo)
