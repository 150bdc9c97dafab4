# Ex. 7 of the InferBound thread: as Ex. 6, but B is attached at j of C, as the thread's text
# says (its code repeats Ex. 6's compute_at at i). Without the storage scope j would not be
# relaxed; B is "shared" and j is bound to threadIdx.x, so j is relaxed anyway and B is still
# realized as B([blockIdx.x, 1], [0, 200]).
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
s[B].compute_at(s[C], j)
ib, jb = s[B].op.axis
s[B].bind(jb, thread_x)
