# Softmax over rows: a max reduction, an exp-sum reduction and a normalisation, four stages.
# Each reduction stage is computed at the row loop of the output, so it holds one value per row.
import tvm
from tvm import te

M, N = 128, 256
x = te.placeholder((M, N), name="x")
k = te.reduce_axis((0, N), name="k")
row_max = te.compute((M,), lambda i: te.max(x[i, k], axis=k), name="row_max")
e = te.compute((M, N), lambda i, j: te.exp(x[i, j] - row_max[i]), name="e")
k2 = te.reduce_axis((0, N), name="k2")
row_sum = te.compute((M,), lambda i: te.sum(e[i, k2], axis=k2), name="row_sum")
out = te.compute((M, N), lambda i, j: e[i, j] / row_sum[i], name="out")

s = te.create_schedule(out.op)
s[row_max].compute_at(s[out], out.op.axis[0])
s[e].compute_at(s[out], out.op.axis[0])
s[row_sum].compute_at(s[out], out.op.axis[0])
