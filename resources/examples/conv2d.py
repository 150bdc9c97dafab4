# A direct 2-D convolution (NCHW, 3x3 kernel, stride 1) with the padded input inlined and the
# output tiled over its spatial axes; the reduction over channels and kernel window stays inside.
import tvm
from tvm import te

N, CI, H, W, CO, KH, KW = 1, 16, 32, 32, 32, 3, 3
data = te.placeholder((N, CI, H, W), name="data")
kernel = te.placeholder((CO, CI, KH, KW), name="kernel")
pad = te.compute(
    (N, CI, H + 2, W + 2),
    lambda n, c, y, x: tvm.tir.if_then_else(
        tvm.tir.all(y >= 1, y < H + 1, x >= 1, x < W + 1), data[n, c, y - 1, x - 1], 0.0
    ),
    name="pad",
)
rc = te.reduce_axis((0, CI), name="rc")
ry = te.reduce_axis((0, KH), name="ry")
rx = te.reduce_axis((0, KW), name="rx")
conv = te.compute(
    (N, CO, H, W),
    lambda n, f, y, x: te.sum(pad[n, rc, y + ry, x + rx] * kernel[f, rc, ry, rx], axis=[rc, ry, rx]),
    name="conv",
)

s = te.create_schedule(conv.op)
s[pad].compute_inline()
n, f, y, x = conv.op.axis
yo, xo, yi, xi = s[conv].tile(y, x, 8, 8)
s[conv].reorder(n, f, yo, xo, rc, ry, rx, yi, xi)
s[conv].vectorize(xi)
