# A kernel with a float32 scalar parameter: `run` gives scalar parameters integer sizes only,
# and the CPU kernel read the integer's bits as a float (alpha = 2 ran as 3e-45).
import tvm
from tvm import te

A = te.placeholder((64,), name="A")
alpha = te.var("alpha", dtype="float32")
B = te.compute((64,), lambda i: A[i] * alpha, name="B")
s = te.create_schedule(B.op)
tvm.lower(s, [A, B, alpha])
