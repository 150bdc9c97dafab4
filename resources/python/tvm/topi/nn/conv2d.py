"""tvm.topi.nn.conv2d_hwcn and the padding helper (TVM's topi/nn/conv2d.py, topi/nn/utils.py):
a `PaddedInput` stage, then `Conv2dOutput` (tag `conv2d_hwcn`), with TVM's names."""

from tvm import te

from .pad import pad


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


def conv2d_hwcn(Input, Filter, stride, padding, dilation, out_dtype=None):
    """2-D convolution in HWCN layout: Input (in_height, in_width, in_channel, batch), Filter
    (kernel_h, kernel_w, in_channel, num_filter); the output (out_height, out_width,
    num_filter, batch)."""
    out_dtype = out_dtype or Input.dtype
    stride_h, stride_w = _pair(stride, "stride")
    dilation_h, dilation_w = _pair(dilation, "dilation")
    in_height, in_width, in_channel, batch = Input.shape
    kernel_h, kernel_w, _, num_filter = Filter.shape
    dilated_h = (kernel_h - 1) * dilation_h + 1
    dilated_w = (kernel_w - 1) * dilation_w + 1
    pad_top, pad_left, pad_down, pad_right = get_pad_tuple(padding, (dilated_h, dilated_w))
    out_height = (in_height - dilated_h + pad_top + pad_down) // stride_h + 1
    out_width = (in_width - dilated_w + pad_left + pad_right) // stride_w + 1
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
