# The GatherBound problem of the InferBound document: two consumers request disjoint regions of T,
# T[0:2, 0:2] and T[2:4, 2:4]. GatherBound takes the union dimension by dimension, so all 16 of T
# are computed, 8 used, under every rectangle rule; --rules compact packs the two boxes: 8.
import tvm
from tvm import te

A = te.placeholder((4, 4), name='A')
T = te.compute((4, 4), lambda i, j: A[i, j] + 1, name='T')
CA = te.compute((2, 2), lambda i, j: T[i, j] * 2, name='CA')
CB = te.compute((2, 2), lambda i, j: T[i + 2, j + 2] * 3, name='CB')
Out = te.compute((2, 2), lambda i, j: CA[i, j] + CB[i, j], name='Out')

s = te.create_schedule(Out.op)
