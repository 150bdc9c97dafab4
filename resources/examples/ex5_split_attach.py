# Ex. 5 of the InferBound document: compute_at after a split. C is attached at j.inner of D, so
# its attach path is {j.inner, j.outer, i} and one element of C is computed per iteration.
import tvm

C = tvm.compute((5, 16), lambda i, j: tvm.const(5), name='C')
D = tvm.compute((5, 16), lambda i, j: C[i, j] * 2, name='D')
s = tvm.create_schedule(D.op)
d_o, d_i = s[D].split(D.op.axis[1], factor=8)
s[C].compute_at(s[D], d_i)
