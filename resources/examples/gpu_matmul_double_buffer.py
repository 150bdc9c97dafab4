# gpu_matmul_shared.py with its shared tiles double-buffered (double_buffer): each 16x16 tile of
# A and B gets two halves in shared memory. Before the loop over ko the block loads tile 0; in
# iteration ko it loads tile ko + 1 into the other half while the multiply reads tile ko, so the
# loads of the next tile overlap the arithmetic on this one. InferBound's regions are unchanged
# (16 x 16 per tile); lowering allocates each tile twice (alloc: x2, double-buffer).
import tvm
from tvm import te

M = N = K = 256
A = te.placeholder((M, K), name="A")
B = te.placeholder((K, N), name="B")
k = te.reduce_axis((0, K), name="k")
C = te.compute((M, N), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")

s = te.create_schedule(C.op)
AS = s.cache_read(A, "shared", [C])
BS = s.cache_read(B, "shared", [C])

by, bx, ty, tx = s[C].tile(C.op.axis[0], C.op.axis[1], 16, 16)
s[C].bind(by, te.thread_axis("blockIdx.y"))
s[C].bind(bx, te.thread_axis("blockIdx.x"))
s[C].bind(ty, te.thread_axis("threadIdx.y"))
s[C].bind(tx, te.thread_axis("threadIdx.x"))
ko, ki = s[C].split(k, factor=16)
s[C].reorder(by, bx, ty, tx, ko, ki)

for cache in (AS, BS):
    s[cache].compute_at(s[C], ko)
    cy, cx = s[cache].op.axis
    s[cache].bind(cy, te.thread_axis("threadIdx.y"))
    s[cache].bind(cx, te.thread_axis("threadIdx.x"))
    s[cache].double_buffer()

print(tvm.lower(s, [A, B, C], simple_mode=True))
