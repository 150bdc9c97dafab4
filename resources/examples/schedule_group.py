# A schedule group (TVM's s.create_group): B and C, everything between A and C, move together.
# The group is computed at D's outer loop, so each iteration of i.outer produces the 4 rows of B
# and C that its 4 rows of D read; inside the group, B is computed at C's rows, 1 row at a time.
# A stage of a group can only be attached inside its group; the group itself goes anywhere.
import tvm
from tvm import te

A = te.placeholder((16, 16), name="A")
B = te.compute((16, 16), lambda i, j: A[i, j] + 1, name="B")
C = te.compute((16, 16), lambda i, j: B[i, j] * 2, name="C")
D = te.compute((16, 16), lambda i, j: C[i, j] - 1, name="D")

s = te.create_schedule(D.op)
g = s.create_group(outputs=C, inputs=A)
io, ii = s[D].split(D.op.axis[0], factor=4)
g.compute_at(s[D], io)
s[B].compute_at(s[C], C.op.axis[0])

print(tvm.lower(s, [A, D], simple_mode=True))
