# tvm.lower(s, [A, B, m]): the Var argument m is kept as a parameter (issue 13).
import tvm
from tvm import te
n = te.var("n")
A = te.placeholder((n,), name="A")
B = te.compute((n,), lambda i: A[i] * 2, name="B")
s = te.create_schedule(B.op)
m = te.var("m")
xo, xi = s[B].split(B.op.axis[0], factor=m)
print(tvm.lower(s, [A, B, m], simple_mode=True))
