# A scan on the GPU (TVM's scan tutorial): the running sum of X's rows, each row's columns spread
# over blocks of 256 threads. The scan's loop over the rows stays on the host, and each step
# launches a kernel for its row: the init is kernel 0, the update kernel 1, which takes the step
# (scan_idx) as a parameter. InferBound gives the update one row per step (t = scan.idx + 1),
# its columns the whole row; the split's remainder (300 is not a multiple of 256) is guarded.
import tvm
from tvm import te

m, n = 16, 300
X = te.placeholder((m, n), name="X")
s_state = te.placeholder((m, n), name="s_state")
s_init = te.compute((1, n), lambda _, i: X[0, i], name="s_init")
s_update = te.compute((m, n), lambda t, i: s_state[t - 1, i] + X[t, i], name="s_update")
s_scan = te.scan(s_init, s_update, s_state, inputs=[X], name="s_scan")

s = te.create_schedule(s_scan.op)
num_thread = 256
block_x = te.thread_axis("blockIdx.x")
thread_x = te.thread_axis("threadIdx.x")
xo, xi = s[s_init].split(s_init.op.axis[1], factor=num_thread)
s[s_init].bind(xo, block_x)
s[s_init].bind(xi, thread_x)
xo, xi = s[s_update].split(s_update.op.axis[1], factor=num_thread)
s[s_update].bind(xo, block_x)
s[s_update].bind(xi, thread_x)

print(tvm.lower(s, [X, s_scan], simple_mode=True))
