# Boundscope's default example: Ex. 6 of the InferBound thread (the seed's GPU shared-scope
# example, also resources/examples/ex6_shared_scope.py).
#
# What it shows: B is computed at C's blockIdx.x loop i and stored in "shared" memory. C's j is
# bound to threadIdx.x and lies below the attach point, and a shared buffer is visible to every
# thread of a block, so InferBound relaxes j over its whole range: B is realized as
# B([blockIdx.x, 1], [0, 200]), one row of 200 elements per block, and the CUDA kernel declares
# `__shared__ float B[200]`.
#
# What to click: stage B in the Stage DAG; the InferBound Inspector then shows its trace: the
# leaf sets of phase 1, the relaxed attach loops (j, because of the shared scope), the root sets
# of phase 2 and the region requested of B. Then change B's scope to "global"
# (Set Storage Scope..., or edit `s[B].set_scope("shared")` below): a global buffer is shared by
# all blocks, so blockIdx.x is relaxed too and B grows to B([0, 100], [0, 200]), 20000 elements
# instead of 200. The Rules box compares TVM 0.6, TVM and the tight rules on the same schedule.
import tvm

A = tvm.placeholder((200, 400), name='A')
B = tvm.compute((200, 400), lambda i, j: 3.14 * A[i, j], name='B')
C = tvm.compute((100, 200), lambda i, j: 2.72 * B[i, j], name='C')

block_x = tvm.thread_axis("blockIdx.x")
thread_x = tvm.thread_axis("threadIdx.x")

s = tvm.create_schedule(C.op)
i, j = C.op.axis
s[C].bind(i, block_x)
s[C].bind(j, thread_x)

s[B].set_scope("shared")
s[B].compute_at(s[C], i)
ib, jb = s[B].op.axis
s[B].bind(jb, thread_x)

# The seed's listing is the IR right after ScheduleOps (the realize form); `tvm.lower` also makes
# (s, [A, C]) the program the app and the CLI analyse.
print(tvm.lower(s, [A, C], simple_mode=True, after="schedule_ops"))
