# The split-remainder case of the InferBound document: extent 20 split by factor 16. The inner
# loop has extent 16 on both outer iterations, although the second needs only 4; TVM guards the
# extra iterations with a likely() bound check. --rules tight uses the document's proposal,
# min(16, 20 - outer*16), so the last iteration computes only its remainder.
import tvm
from tvm import te

A = te.placeholder((20,), name='A')
B = te.compute((20,), lambda i: A[i] * 2, name='B')
C = te.compute((20,), lambda i: B[i] + 1, name='C')

s = te.create_schedule(C.op)
xo, xi = s[C].split(C.op.axis[0], factor=16)
s[B].compute_at(s[C], xo)
