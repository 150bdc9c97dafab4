# Ex. 1 of the InferBound document: no compute_at. InferBound gives C its full (5, 16) range,
# because its consumer D reads every element of C outside any of D's loops.
import tvm

C = tvm.compute((5, 16), lambda i, j: tvm.const(5), name='C')
D = tvm.compute((5, 16), lambda i, j: C[i, j] * 2, name='D')
s = tvm.create_schedule(D.op)
