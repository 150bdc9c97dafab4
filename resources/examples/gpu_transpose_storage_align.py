# A matrix transpose through shared memory, the tile's rows padded by storage_align: each 32x32
# thread block stages a tile of A in shared memory (cache_read at the block loop), then reads it
# by column. With 32-element rows a column read hits one shared-memory bank 32 times; storage_align
# pads each row to 33 elements (32 * 1 + 1), so the column spans all 32 banks. InferBound's region
# of AS is still 32x32: the padding shows in the allocation (32 x 33 = 1056 elements) and alloc
# lists it as the storage-align cause.
import tvm
from tvm import te

n = 256
A = te.placeholder((n, n), name="A")
B = te.compute((n, n), lambda i, j: A[j, i], name="B")

s = te.create_schedule(B.op)
AS = s.cache_read(A, "shared", [B])

by, bx, ty, tx = s[B].tile(B.op.axis[0], B.op.axis[1], 32, 32)
s[B].bind(by, te.thread_axis("blockIdx.y"))
s[B].bind(bx, te.thread_axis("blockIdx.x"))
s[B].bind(ty, te.thread_axis("threadIdx.y"))
s[B].bind(tx, te.thread_axis("threadIdx.x"))

s[AS].compute_at(s[B], bx)
ay, ax = s[AS].op.axis
s[AS].bind(ay, te.thread_axis("threadIdx.y"))
s[AS].bind(ax, te.thread_axis("threadIdx.x"))
s[AS].storage_align(ay, 32, 1)

print(tvm.lower(s, [A, B], simple_mode=True))
