# TVM's test_local_stage_predicate, "local vs. vthread": B is private to each virtual thread.
import tvm
from tvm import te

A = te.placeholder((1, 3, 2), name="A")
B = te.compute((1, 3, 2), lambda i, j, k: A[i, j, k], name="B")
C = te.compute((1, 3, 2), lambda i, j, k: B[i, j, k], name="C")
s = te.create_schedule(C.op)
vthread = te.thread_axis("vthread")
s[B].compute_at(s[C], C.op.axis[0])
s[B].set_scope("local")
_, inner = s[B].split(B.op.axis[1], factor=3)
s[C].bind(C.op.axis[0], te.thread_axis("blockIdx.x"))
s[C].bind(C.op.axis[1], vthread)
s[B].bind(inner, vthread)
