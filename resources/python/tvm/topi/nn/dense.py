"""tvm.topi.nn.dense and batch_matmul (TVM's topi/nn/dense.py and batch_matmul.py), with TVM's
stage names and tags: `T_matmul_NT` (tag `dense`), `T_batch_matmul_NT` (tag `batch_matmul`)."""

from tvm import te


def dense(data, weight, bias=None, out_dtype=None):
    """data (batch, in_dim) times weight (out_dim, in_dim) transposed, plus bias (out_dim)."""
    out_dtype = out_dtype or data.dtype
    batch, in_dim = data.shape
    out_dim, _ = weight.shape
    k = te.reduce_axis((0, in_dim), name="k")
    mat = te.compute((batch, out_dim),
                     lambda i, j: te.sum(data[i, k].astype(out_dtype) * weight[j, k].astype(out_dtype), axis=k),
                     name="T_matmul_NT", tag="dense")
    if bias is None:
        return mat
    return te.compute((batch, out_dim), lambda i, j: mat[i, j] + bias[j].astype(out_dtype),
                      tag="broadcast")


def batch_matmul(tensor_a, tensor_b, oshape=None, out_dtype=None, transpose_a=False,
                 transpose_b=True):
    """a (batch, M, K) times b (batch, N, K) transposed (TVM's default); a batch of 1 on either
    side is broadcast."""
    del oshape
    if transpose_a:
        raise ValueError("batch_matmul: transpose_a=True is not available in Boundscope yet")
    out_dtype = out_dtype or tensor_a.dtype
    a_batch, m, red = tensor_a.shape
    if transpose_b:
        b_batch, n, _ = tensor_b.shape
    else:
        b_batch, _, n = tensor_b.shape
    one = lambda e: getattr(e, "value", e) == 1  # noqa: E731
    const = lambda e: getattr(e, "value", e) if isinstance(getattr(e, "value", e), int) else None  # noqa: E731
    b_red = tensor_b.shape[2] if transpose_b else tensor_b.shape[1]
    if const(red) is not None and const(b_red) is not None and const(red) != const(b_red):
        raise ValueError("batch_matmul: reduction dimensions %s and %s differ" % (red, b_red))
    if (const(a_batch) is not None and const(b_batch) is not None and
            const(a_batch) != const(b_batch) and not (one(a_batch) or one(b_batch))):
        raise ValueError("batch_matmul: batch dimensions %s and %s differ" % (a_batch, b_batch))
    batch = b_batch if one(a_batch) else a_batch
    k = te.reduce_axis((0, red), name="k")

    def body(b, i, j):
        ab = 0 if one(a_batch) else b
        bb = 0 if one(b_batch) else b
        rhs = tensor_b[bb, j, k] if transpose_b else tensor_b[bb, k, j]
        return te.sum(tensor_a[ab, i, k].astype(out_dtype) * rhs.astype(out_dtype), axis=k)

    return te.compute((batch, m, n), body, name="T_batch_matmul_" + ("NT" if transpose_b else "NN"),
                      tag="batch_matmul")
