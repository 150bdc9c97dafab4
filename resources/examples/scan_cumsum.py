# A scan (TVM's te.scan): the running sum of X's rows. The state placeholder stands for the
# result's earlier rows: row 0 is the init, each later row t is the update, which reads row t - 1.
# The scan's one loop runs over t (scan.idx, from 1); the init is computed once before it, the
# update once per step, a row at a time: InferBound gives the update's t an extent of 1 at
# scan.idx + 1, and its columns the whole row. Init, update and state are one buffer, the scan's.
import tvm
from tvm import te

m, n = 64, 32
X = te.placeholder((m, n), name="X")
s_state = te.placeholder((m, n), name="s_state")
s_init = te.compute((1, n), lambda _, i: X[0, i], name="s_init")
s_update = te.compute((m, n), lambda t, i: s_state[t - 1, i] + X[t, i], name="s_update")
s_scan = te.scan(s_init, s_update, s_state, inputs=[X], name="s_scan")

s = te.create_schedule(s_scan.op)
xo, xi = s[s_update].split(s_update.op.axis[1], factor=8)

print(tvm.lower(s, [X, s_scan], simple_mode=True))
