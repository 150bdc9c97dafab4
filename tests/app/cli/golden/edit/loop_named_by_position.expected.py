# edit: C.vectorize(i.inner)
# xi is taken by D's split, so C's i.inner is named by its position, valid only after C's
# reorder: the edit goes to the end of the schedule's primitives (its first place, replacing
# the unroll, would vectorize i.outer), checked by running the edited script.
import tvm
from tvm import te

A = te.placeholder((64, 64), name="A")
C = te.compute((64, 64), lambda i, j: A[i, j] + 1, name="C")
D = te.compute((64, 64), lambda i, j: C[i, j] * 2, name="D")
s = te.create_schedule(D.op)
xo, xi = s[C].split(C.op.axis[0], factor=8)
s[C].reorder(xi, xo)
xo, xi = s[D].split(D.op.axis[0], factor=4)
s[C].vectorize(s[C].leaf_iter_vars[0])
print(tvm.lower(s, [A, D], simple_mode=True))
