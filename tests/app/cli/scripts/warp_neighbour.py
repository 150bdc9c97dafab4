# A warp-scope cache read by each lane's neighbour (TVM's LowerWarpMemory pattern): lane t
# writes AA[t] and reads AA[(t + 1) % 32], so the lanes must run in lock step.
import tvm
from tvm import te

m = 128
A = te.placeholder((m,), name="A")
B = te.compute((m,), lambda i: A[i] + A[(i // 32) * 32 + (i + 1) % 32], name="B")
s = te.create_schedule(B.op)
AA = s.cache_read(A, "warp", [B])
xo, xi = s[B].split(B.op.axis[0], 64)
xi0, xi1 = s[B].split(xi, factor=32)
tx = te.thread_axis("threadIdx.x")
s[B].bind(xi1, tx)
s[B].bind(xi0, te.thread_axis("threadIdx.y"))
s[B].bind(xo, te.thread_axis("blockIdx.x"))
s[AA].compute_at(s[B], xi0)
s[AA].bind(s[AA].op.axis[0], tx)
