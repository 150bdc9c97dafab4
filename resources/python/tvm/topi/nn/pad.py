"""tvm.topi.nn.pad: constant padding, as TVM's (stage `PadInput`, tag `injective,pad`)."""

from tvm import te, tir


def pad(data, pad_before, pad_after=None, pad_value=0.0, name="PadInput", attrs=None):
    """Pads `data` with `pad_value`: `pad_before[i]` elements before dimension i and
    `pad_after[i]` (default: the same) after it."""
    n = len(data.shape)
    pad_after = pad_after if pad_after is not None else pad_before
    if len(pad_before) != n or len(pad_after) != n:
        raise ValueError("Input dimension and pad_before/pad_after dismatch : %d vs %d/%d"
                         % (n, len(pad_before), len(pad_after)))
    out_shape = tuple(data.shape[i] + pad_before[i] + pad_after[i] for i in range(n))
    pad_value = tir.const(pad_value, data.dtype) if not isinstance(pad_value, tir.PrimExpr) \
        else pad_value

    def _pad(*indices):
        not_zero = []
        index_tuple = []
        for i in range(n):
            if _is_zero(pad_before[i]) and _is_zero(pad_after[i]):
                index_tuple.append(indices[i])
            else:
                index_tuple.append(indices[i] - pad_before[i])
                not_zero.append(indices[i] >= pad_before[i])
                not_zero.append(indices[i] < data.shape[i] + pad_before[i])
        if not_zero:
            return tir.if_then_else(tir.all(*not_zero), data(*index_tuple), pad_value)
        return data(*index_tuple)

    return te.compute(out_shape, _pad, name=name, tag="injective,pad")


def _is_zero(value):
    return isinstance(value, int) and value == 0 or getattr(value, "value", None) == 0
