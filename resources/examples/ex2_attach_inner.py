# Ex. 2 of the InferBound document: C computed at axis j of D. C's attach path is {j, i}: both
# of D's loops contain C, so only a single element of C exists at a time (realize C([i, 1], [j, 1])).
import tvm

C = tvm.compute((5, 16), lambda i, j: tvm.const(5), name='C')
D = tvm.compute((5, 16), lambda i, j: C[i, j] * 2, name='D')
s = tvm.create_schedule(D.op)
s[C].compute_at(s[D], D.op.axis[1])
