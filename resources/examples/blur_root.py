# The same 2-D 3x3 blur with both passes at the root: Bx is computed in full before C.
import tvm
from tvm import te

H, W = 2048, 2048
A = te.placeholder((H + 2, W + 2), name="A")
Bx = te.compute((H + 2, W), lambda y, x: (A[y, x] + A[y, x + 1] + A[y, x + 2]) / 3.0, name="Bx")
C = te.compute((H, W), lambda y, x: (Bx[y, x] + Bx[y + 1, x] + Bx[y + 2, x]) / 3.0, name="C")

s = te.create_schedule(C.op)
