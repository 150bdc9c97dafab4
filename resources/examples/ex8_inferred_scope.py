# Ex. 8 of the InferBound thread: as Ex. 6, but B's storage scope is not set. It is inferred from
# B's attach path, which holds a blockIdx loop only, so B is "shared" and the bounds, the lowered
# IR and the kernel are those of Ex. 6.
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

# s[B].set_scope("shared")
s[B].compute_at(s[C], i)
ib, jb = s[B].op.axis
s[B].bind(jb, thread_x)
