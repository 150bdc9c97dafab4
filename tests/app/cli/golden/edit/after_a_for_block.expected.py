# edit: AS.compute_at(C, ki)
# A loop sets up both caches; it calls the schedule's primitives without handing the schedule
# on, so the edit comes after it (before it, the loop would override the edit).
import tvm
from tvm import te

n = 64
A = te.placeholder((n, n), name="A")
B = te.placeholder((n, n), name="B")
k = te.reduce_axis((0, n), name="k")
C = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
s = te.create_schedule(C.op)
AS = s.cache_read(A, "shared", [C])
BS = s.cache_read(B, "shared", [C])
ko, ki = s[C].split(k, factor=8)
for cache in (AS, BS):
    s[cache].compute_at(s[C], ko)
s[AS].compute_at(s[C], ki)
print(tvm.lower(s, [A, B, C], simple_mode=True))
