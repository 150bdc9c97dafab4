# Ex. 4 of the InferBound document: C attached at dk of a 3-D D. The attach path of C is
# {dk, dj, di}: di is on the path although C does not use it. After ScheduleOps C is realized as
# C([dj, 1], [dk, 1]); with --keep-trivial-loops its extent-1 loops `for (i, 0, 1)` stay visible.
import tvm

C = tvm.compute((5, 16), lambda i, j: tvm.const(5), name='C')
D = tvm.compute((4, 5, 16), lambda di, dj, dk: C[dj, dk] * 2, name='D')
s = tvm.create_schedule(D.op)
s[C].compute_at(s[D], D.op.axis[2])
