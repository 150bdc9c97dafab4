# edit: C.split(j, factor=16)
# Comments, blank lines and a call over several lines stay as written.
import tvm
from tvm import te

M, N = 128, 256  # sizes
A = te.placeholder((M, N), name="A")
C = te.compute(
    (M, N),
    lambda i, j: A[i, j] + 1.0,  # one add
    name="C",
)

s = te.create_schedule(C.op)
i, j = s[C].op.axis

# Tile the rows.
io, ii = s[C].split(i,
                    factor=32)
j_outer, j_inner = s[C].split(j, factor=16)

# Lower it.
print(tvm.lower(s, [A, C], simple_mode=True))
