# The chained attach example of the InferBound document: C is attached at D, and D at E.
# C's attach path continues through D's own attachment: {dj, di, ej, ei}; D's is {ej, ei}.
import tvm

C = tvm.compute((5, 16), lambda i, j: tvm.const(5), name='C')
D = tvm.compute((5, 16), lambda di, dj: C[di, dj] * 2, name='D')
E = tvm.compute((5, 16), lambda ei, ej: D[ei, ej] * 4, name='E')
s = tvm.create_schedule(E.op)
s[C].compute_at(s[D], D.op.axis[1])
s[D].compute_at(s[E], E.op.axis[1])
