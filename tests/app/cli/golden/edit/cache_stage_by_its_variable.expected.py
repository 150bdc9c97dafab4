# edit: AA.compute_at(B, xo)
# The stage is named by the script's variable for the cache; the edit follows the cache_read.
import tvm
from tvm import te

A = te.placeholder((64, 64), name="A")
B = te.compute((64, 64), lambda i, j: A[i, j] * 2, name="B")
s = te.create_schedule(B.op)
AA = s.cache_read(A, "shared", [B])
xo, xi = s[B].split(B.op.axis[0], factor=8)
s[AA].compute_at(s[B], xo)
print(tvm.lower(s, [A, B], simple_mode=True))
