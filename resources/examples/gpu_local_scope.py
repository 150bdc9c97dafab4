# Storage scope "local": B is computed at C's innermost thread loop, so its attach path holds a
# threadIdx axis and its scope is inferred as local. Thread axes are not relaxed for local
# storage, so each thread keeps just the elements it needs: B([blockIdx.x*64 + threadIdx.x, 1]).
import tvm
from tvm import te

n = 1024
A = te.placeholder((n,), name="A")
B = te.compute((n,), lambda i: A[i] * 2.0, name="B")
C = te.compute((n,), lambda i: B[i] + 1.0, name="C")

s = te.create_schedule(C.op)
bx, tx = s[C].split(C.op.axis[0], factor=64)
s[C].bind(bx, te.thread_axis("blockIdx.x"))
s[C].bind(tx, te.thread_axis("threadIdx.x"))
s[B].compute_at(s[C], tx)
