# From the InferBound document: C is not attached anywhere, but its consumer D is attached in E.
# D's attach path {ej, ei} goes into the relax set when C's bounds are inferred, so C is still
# computed in full: (5, 16).
import tvm

C = tvm.compute((5, 16), lambda i, j: tvm.const(5), name='C')
D = tvm.compute((5, 16), lambda i, j: C[i, j] * 2, name='D')
E = tvm.compute((5, 16), lambda i, j: D[i, j] + 4, name='E')
s = tvm.create_schedule(E.op)
s[D].compute_at(s[E], E.op.axis[1])
