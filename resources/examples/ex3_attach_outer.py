# Ex. 3 of the InferBound document: C computed at axis i of D. C's attach path is {i}: D's j loop
# is inside the attach point, so it is relaxed and C is a vector of 16 elements per i.
import tvm

C = tvm.compute((5, 16), lambda i, j: tvm.const(5), name='C')
D = tvm.compute((5, 16), lambda i, j: C[i, j] * 2, name='D')
s = tvm.create_schedule(D.op)
s[C].compute_at(s[D], D.op.axis[0])
