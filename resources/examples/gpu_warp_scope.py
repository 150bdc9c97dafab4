# Storage scope "warp": only threadIdx.x is relaxed for warp storage (the warp rule of TVM's
# NeedRelax), threadIdx.y is not. B is computed at C's threadIdx.y loop in warp scope, so its
# region covers the 32 lanes of threadIdx.x for one threadIdx.y.
import tvm
from tvm import te

A = te.placeholder((4, 32), name="A")
B = te.compute((4, 32), lambda i, j: A[i, j] + 1.0, name="B")
C = te.compute((4, 32), lambda i, j: B[i, j] * 2.0, name="C")

s = te.create_schedule(C.op)
i, j = C.op.axis
s[C].bind(i, te.thread_axis("threadIdx.y"))
s[C].bind(j, te.thread_axis("threadIdx.x"))
s[B].set_scope("warp")
s[B].compute_at(s[C], i)
bi, bj = s[B].op.axis
s[B].bind(bj, te.thread_axis("threadIdx.x"))
