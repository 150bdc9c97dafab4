"""A 2-D convolution in NHWC layout (HWIO weights) computed with numpy, as a reference."""

import numpy as np


def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


def _padding(padding, kernel):
    """(top, left, bottom, right) from TVM's forms: an int, (h, w), (t, l, b, r), "SAME" or
    "VALID"."""
    if isinstance(padding, str):
        if padding.upper() == "VALID":
            return 0, 0, 0, 0
        if padding.upper() == "SAME":
            pad_h, pad_w = kernel[0] - 1, kernel[1] - 1
            return pad_h // 2, pad_w // 2, pad_h - pad_h // 2, pad_w - pad_w // 2
        raise ValueError("unknown padding %r" % padding)
    if isinstance(padding, int):
        return padding, padding, padding, padding
    if len(padding) == 2:
        return padding[0], padding[1], padding[0], padding[1]
    return tuple(padding)


def conv2d_nhwc_python(a_np, w_np, stride, padding):
    """out[n, y, x, f] = sum over (dy, dx, c) of a_pad[n, y*sh + dy, x*sw + dx, c] *
    w[dy, dx, c, f], with `a_np` (batch, height, width, in_channel) and `w_np` (kernel_h,
    kernel_w, in_channel, num_filter)."""
    batch, in_h, in_w, in_c = a_np.shape
    kernel_h, kernel_w, w_c, num_filter = w_np.shape
    if w_c != in_c:
        raise ValueError("conv2d_nhwc_python: %d input channels, the weights have %d"
                         % (in_c, w_c))
    stride_h, stride_w = _pair(stride)
    top, left, bottom, right = _padding(padding, (kernel_h, kernel_w))
    padded = np.pad(a_np, ((0, 0), (top, bottom), (left, right), (0, 0)))
    out_h = (in_h + top + bottom - kernel_h) // stride_h + 1
    out_w = (in_w + left + right - kernel_w) // stride_w + 1
    out = np.zeros((batch, out_h, out_w, num_filter), dtype=np.result_type(a_np, w_np))
    for dy in range(kernel_h):
        for dx in range(kernel_w):
            window = padded[:, dy:dy + stride_h * out_h:stride_h, dx:dx + stride_w * out_w:stride_w, :]
            out += np.tensordot(window, w_np[dy, dx], axes=([3], [0]))
    return out
