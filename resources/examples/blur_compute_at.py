# A 2-D 3x3 box blur as two passes (horizontal into Bx, then vertical), Halide's classic example.
# Bx is computed at C's tile loop, so only the rows a 32x32 tile needs are computed: InferBound
# gives Bx a 34x32 region per tile (2 extra rows for the vertical pass).
import tvm
from tvm import te

H, W = 2048, 2048
A = te.placeholder((H + 2, W + 2), name="A")
Bx = te.compute((H + 2, W), lambda y, x: (A[y, x] + A[y, x + 1] + A[y, x + 2]) / 3.0, name="Bx")
C = te.compute((H, W), lambda y, x: (Bx[y, x] + Bx[y + 1, x] + Bx[y + 2, x]) / 3.0, name="C")

s = te.create_schedule(C.op)
yo, xo, yi, xi = s[C].tile(C.op.axis[0], C.op.axis[1], 32, 32)
s[Bx].compute_at(s[C], xo)
s[C].vectorize(xi)
s[Bx].vectorize(s[Bx].op.axis[1])
s[C].parallel(yo)
