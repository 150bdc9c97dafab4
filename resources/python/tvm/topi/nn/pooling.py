"""tvm.topi.nn.pooling.pool2d: max and average 2-D pooling, as TVM's (topi/nn/pooling.h):
a `pad_temp` stage when there is padding, then `pool_max`, or `pool_sum` and `pool_avg`."""

from tvm import te, tir

from .pad import pad


def _spatial_axes(layout):
    """The positions of H and W in a layout such as NCHW, NHWC or NCHW16c."""
    dims = [c for c in layout if c.isalpha()]
    if "H" not in dims or "W" not in dims or layout.count("H") != 1 or layout.count("W") != 1:
        raise ValueError("Invalid layout %s: it needs one H and one W" % layout)
    return dims.index("H"), dims.index("W")


def pool2d(data, kernel, stride, dilation, padding, pool_type, ceil_mode=False, layout="NCHW",
           count_include_pad=True):
    """Pools each window of `kernel` (kh, kw) elements, `stride` apart, taken every
    `dilation` elements, over H and W of `data` padded by `padding` (top, left, bottom,
    right). `pool_type` is "max" or "avg"; `ceil_mode` rounds the output size up;
    `count_include_pad` makes an average count the padding."""
    if pool_type not in ("max", "avg"):
        raise ValueError("Pool type should be 'avg' or 'max', got %s" % pool_type)
    if len(kernel) != 2 or len(stride) != 2 or len(dilation) != 2 or len(padding) != 4:
        raise ValueError("pool2d takes 2 kernel sizes, 2 strides, 2 dilations and 4 paddings")
    h_axis, w_axis = _spatial_axes(layout)
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    pt, pl, pb, pr = padding
    shape = list(data.shape)
    ekh = (kh - 1) * dh + 1
    ekw = (kw - 1) * dw + 1
    if ceil_mode:
        pb = pb + sh - 1
        pr = pr + sw - 1
    out_h = tir.indexdiv(shape[h_axis] - ekh + pt + pb, sh) + 1
    out_w = tir.indexdiv(shape[w_axis] - ekw + pl + pr, sw) + 1
    out_shape = list(shape)
    out_shape[h_axis] = out_h
    out_shape[w_axis] = out_w
    padded = any(not (isinstance(p, int) and p == 0) for p in (pt, pl, pb, pr))
    if padded:
        before = [0] * len(shape)
        after = [0] * len(shape)
        before[h_axis], before[w_axis] = pt, pl
        after[h_axis], after[w_axis] = pb, pr
        value = tir.min_value(data.dtype) if pool_type == "max" else tir.const(0, data.dtype)
        source = pad(data, before, after, pad_value=value, name="pad_temp")
    else:
        source = data
    rh = te.reduce_axis((0, kh), name="rv0")
    rw = te.reduce_axis((0, kw), name="rv1")

    def window(indices):
        index = list(indices)
        index[h_axis] = indices[h_axis] * sh + rh * dh
        index[w_axis] = indices[w_axis] * sw + rw * dw
        return source(*index)

    if pool_type == "max":
        return te.compute(out_shape, lambda *i: te.max(window(i), axis=[rh, rw]),
                          name="pool_max", tag="pool_max")
    pool_sum = te.compute(out_shape, lambda *i: te.sum(window(i), axis=[rh, rw]),
                          name="pool_sum", tag="pool_sum")

    def average(*indices):
        if count_include_pad:
            count = kh * kw
        else:
            start_h = indices[h_axis] * sh - pt
            start_w = indices[w_axis] * sw - pl
            end_h = tir.min(start_h + ekh, shape[h_axis])
            end_w = tir.min(start_w + ekw, shape[w_axis])
            start_h = tir.max(start_h, 0)
            start_w = tir.max(start_w, 0)
            count = tir.max(tir.indexdiv(end_h - start_h + dh - 1, dh) *
                            tir.indexdiv(end_w - start_w + dw - 1, dw), 1)
        divisor = tir.const(count, data.dtype) if isinstance(count, int) else count.astype(data.dtype)
        return tir.div(pool_sum(*indices), divisor)

    return te.compute(out_shape, average, name="pool_avg", tag="elemwise")
