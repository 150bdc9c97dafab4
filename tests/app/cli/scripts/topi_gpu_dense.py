# TVM's GPU dense schedule for small batches (topi.gpu.schedule_dense_small_batch, its fallback:
# the reduction split by 64, rfactored and reduced across threadIdx.x) with a bias add.
import tvm
from tvm import te, topi

data = te.placeholder((2, 200), name="data")
weight = te.placeholder((16, 200), name="weight")
bias = te.placeholder((16,), name="bias")
with tvm.target.Target("cuda"):
    out = topi.gpu.dense_small_batch(data, weight, bias)
    s = topi.gpu.schedule_dense_small_batch([out])
print(tvm.lower(s, [data, weight, bias, out], simple_mode=True))
