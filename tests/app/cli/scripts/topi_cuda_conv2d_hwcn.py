# TVM's CUDA schedule of conv2d_hwcn (topi.cuda.schedule_conv2d_hwcn, its fallback tiles:
# shared and local caches, virtual threads, 8x8 thread blocks), small enough to emulate.
import tvm
from tvm import te, topi

A = te.placeholder((4, 4, 8, 64), name="A")   # height, width, in channels, batch
W = te.placeholder((3, 3, 8, 64), name="W")   # kernel h, kernel w, in channels, out channels
with tvm.target.Target("cuda"):
    B = topi.cuda.conv2d_hwcn(A, W, 1, 1, 1)
    s = topi.cuda.schedule_conv2d_hwcn([B])
print(tvm.lower(s, [A, W, B], simple_mode=True))
