"""tvm.topi.nn's 2-D convolutions (TVM's topi/nn/conv2d.py, depthwise_conv2d.py) and the padding
helper, with TVM's stage names and tags: conv2d_nchw (`pad_temp`, `conv2d_nchw`), conv2d_nhwc
and conv2d_hwcn (`PaddedInput`, `Conv2dOutput`), depthwise_conv2d_nchw (`PaddedInput`,
`DepthwiseConv2d`)."""

import tvm
from tvm import te

from .pad import pad


def _simplify(e):
    """TVM's topi.utils.simplify: an expression simplified, a Python int as is."""
    return e if isinstance(e, int) else tvm.arith.Analyzer().simplify(e)


def get_pad_tuple(padding, kernel):
    """(top, left, bottom, right) padding for `padding` ("SAME", "VALID", an int, a pair or a
    4-tuple) and `kernel` (kh, kw), as TVM's get_pad_tuple."""
    if isinstance(padding, (tuple, list)):
        if len(padding) == 2:
            pad_h, pad_w = padding[0] * 2, padding[1] * 2
        elif len(padding) == 4:
            return padding[0], padding[1], padding[2], padding[3]
        else:
            raise ValueError("Size of padding can only be 2 or 4")
    elif isinstance(padding, int):
        pad_h = pad_w = padding * 2
    elif padding == "VALID":
        pad_h = pad_w = 0
    elif padding == "SAME":
        pad_h, pad_w = kernel[0] - 1, kernel[1] - 1
    else:
        raise ValueError("Unknown padding option %s" % padding)
    pad_top = (pad_h + 1) // 2
    pad_left = (pad_w + 1) // 2
    return pad_top, pad_left, pad_h - pad_top, pad_w - pad_left


def _pair(value, what):
    if isinstance(value, int):
        return value, value
    if len(value) != 2:
        raise ValueError("%s must be an int or a pair" % what)
    return value[0], value[1]


def _geometry(in_h, in_w, k_h, k_w, stride, padding, dilation):
    stride_h, stride_w = _pair(stride, "stride")
    dilation_h, dilation_w = _pair(dilation, "dilation")
    dilated_h = (k_h - 1) * dilation_h + 1
    dilated_w = (k_w - 1) * dilation_w + 1
    top, left, down, right = get_pad_tuple(padding, (dilated_h, dilated_w))
    out_h = _simplify((in_h - dilated_h + top + down) // stride_h + 1)
    out_w = _simplify((in_w - dilated_w + left + right) // stride_w + 1)
    return (stride_h, stride_w), (dilation_h, dilation_w), (top, left, down, right), (out_h, out_w)


def conv2d_hwcn(Input, Filter, stride, padding, dilation, out_dtype=None):
    """2-D convolution in HWCN layout: Input (in_height, in_width, in_channel, batch), Filter
    (kernel_h, kernel_w, in_channel, num_filter); the output (out_height, out_width,
    num_filter, batch)."""
    out_dtype = out_dtype or Input.dtype
    in_height, in_width, in_channel, batch = Input.shape
    kernel_h, kernel_w, _, num_filter = Filter.shape
    (stride_h, stride_w), (dilation_h, dilation_w), (pad_top, pad_left, pad_down, pad_right), (
        out_height, out_width) = _geometry(in_height, in_width, kernel_h, kernel_w, stride,
                                           padding, dilation)
    padded = pad(Input, [pad_top, pad_left, 0, 0], [pad_down, pad_right, 0, 0], name="PaddedInput")
    rc = te.reduce_axis((0, in_channel), name="rc")
    ry = te.reduce_axis((0, kernel_h), name="ry")
    rx = te.reduce_axis((0, kernel_w), name="rx")
    return te.compute(
        (out_height, out_width, num_filter, batch),
        lambda yy, xx, ff, nn: te.sum(
            padded[yy * stride_h + ry * dilation_h, xx * stride_w + rx * dilation_w, rc, nn].astype(out_dtype)
            * Filter[ry, rx, rc, ff].astype(out_dtype),
            axis=[ry, rx, rc]),
        name="Conv2dOutput", tag="conv2d_hwcn")


def conv2d_nchw(Input, Filter, stride, padding, dilation, out_dtype=None):
    """Input (batch, in_channel, in_height, in_width), Filter (num_filter, in_channel, kh, kw)."""
    out_dtype = out_dtype or Input.dtype
    batch, in_channel, in_h, in_w = Input.shape
    num_filter, _, k_h, k_w = Filter.shape
    (sh, sw), (dh, dw), (top, left, down, right), (out_h, out_w) = _geometry(
        in_h, in_w, k_h, k_w, stride, padding, dilation)
    padded = pad(Input, [0, 0, top, left], [0, 0, down, right], name="pad_temp")
    rc = te.reduce_axis((0, in_channel), name="rc")
    ry = te.reduce_axis((0, k_h), name="ry")
    rx = te.reduce_axis((0, k_w), name="rx")
    return te.compute(
        (batch, num_filter, out_h, out_w),
        lambda nn, ff, yy, xx: te.sum(
            padded[nn, rc, yy * sh + ry * dh, xx * sw + rx * dw].astype(out_dtype)
            * Filter[ff, rc, ry, rx].astype(out_dtype), axis=[rc, ry, rx]),
        name="conv2d_nchw", tag="conv2d_nchw")


def conv2d_nhwc(Input, Filter, stride, padding, dilation, out_dtype="float32"):
    """Input (batch, in_height, in_width, in_channel), Filter (kh, kw, in_channel, num_filter)."""
    batch, in_h, in_w, in_channel = Input.shape
    k_h, k_w, _, num_filter = Filter.shape
    (sh, sw), (dh, dw), (top, left, down, right), (out_h, out_w) = _geometry(
        in_h, in_w, k_h, k_w, stride, padding, dilation)
    padded = pad(Input, [0, top, left, 0], [0, down, right, 0], name="PaddedInput")
    rc = te.reduce_axis((0, in_channel), name="rc")
    ry = te.reduce_axis((0, k_h), name="ry")
    rx = te.reduce_axis((0, k_w), name="rx")
    return te.compute(
        (batch, out_h, out_w, num_filter),
        lambda nn, yy, xx, ff: te.sum(
            padded[nn, yy * sh + ry * dh, xx * sw + rx * dw, rc].astype(out_dtype)
            * Filter[ry, rx, rc, ff].astype(out_dtype), axis=[ry, rx, rc]),
        name="Conv2dOutput", tag="conv2d_nhwc")


def depthwise_conv2d_nchw(Input, Filter, stride, padding, dilation, out_dtype=None):
    """Input (batch, in_channel, in_height, in_width), Filter (in_channel, multiplier, kh, kw);
    output channel c reads input channel c // multiplier."""
    out_dtype = out_dtype or Input.dtype
    batch, in_channel, in_h, in_w = Input.shape
    _, multiplier, k_h, k_w = Filter.shape
    (sh, sw), (dh, dw), (top, left, down, right), (out_h, out_w) = _geometry(
        in_h, in_w, k_h, k_w, stride, padding, dilation)
    padded = pad(Input, [0, 0, top, left], [0, 0, down, right], name="PaddedInput")
    di = te.reduce_axis((0, k_h), name="di")
    dj = te.reduce_axis((0, k_w), name="dj")
    return te.compute(
        (batch, in_channel * multiplier, out_h, out_w),
        lambda b, c, i, j: te.sum(
            padded[b, te.indexdiv(c, multiplier), i * sh + di * dh, j * sw + dj * dw].astype(out_dtype)
            * Filter[te.indexdiv(c, multiplier), te.indexmod(c, multiplier), di, dj].astype(out_dtype),
            axis=[di, dj]),
        name="DepthwiseConv2d", tag="depthwise_conv2d_nchw")
