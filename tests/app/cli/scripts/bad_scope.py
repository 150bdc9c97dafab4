# A misspelt storage scope: refused at its line, with the scope meant.
import tvm
from tvm import te
A = te.placeholder((16,), name="A")
B = te.compute((16,), lambda i: A[i] * 2.0, name="B")
C = te.compute((16,), lambda i: B[i] + 1.0, name="C")
s = te.create_schedule(C.op)
s[B].set_scope("sharde")
