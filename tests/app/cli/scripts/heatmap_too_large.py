# tiled_large.py at 8192 x 8192: 134 million stores and argument elements, past the limits of
# the heatmap and the animation, so `heatmap` and `animate` say so at once instead of running
# the interpreter for minutes and gigabytes.
import tvm
from tvm import te

N = 8192
A = te.placeholder((N, N), name="A")
B = te.compute((N, N), lambda i, j: A[i, j] * 2.0, name="B")
C = te.compute((N, N), lambda i, j: B[i, j] + B[i, (j + 1) % N], name="C")
s = te.create_schedule(C.op)
yo, yi = s[C].split(C.op.axis[0], factor=8)
s[B].compute_at(s[C], yo)
