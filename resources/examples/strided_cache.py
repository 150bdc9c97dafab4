# A strided local cache: each thread of C reads B at tx, tx+32, tx+64 and tx+96. B is computed
# at C's thread loop into a local buffer. Every rectangle rule (tvm, tight) allocates the box
# B[tx : tx+97], 97 registers per thread of which 4 are read; the compact rules (--rules compact)
# store the lattice: 4 per thread, B(x) at (x - tx)/32, and compute those 4 only.
import tvm
from tvm import te

A = te.placeholder((128,), name='A')
B = te.compute((128,), lambda i: A[i] * 2.0, name='B')
k = te.reduce_axis((0, 4), name='k')
C = te.compute((32,), lambda i: te.sum(B[i + 32 * k], axis=k), name='C')

s = te.create_schedule(C.op)
s[B].set_scope('local')
s[C].bind(C.op.axis[0], te.thread_axis('threadIdx.x'))
s[B].compute_at(s[C], C.op.axis[0])
