"""tvm.topi's reshape, transpose and reductions (TVM's topi/transform.h and reduction.h): stages
`T_reshape` and `T_transpose` (tag `injective`), and `<input>_red` (tag `comm_reduce`) for sum,
max and min."""

from tvm import te, tir


def _product(dims):
    out = 1
    for d in dims:
        out = out * d
    return out


def reshape(a, newshape):
    """`a` with the shape `newshape` (the same number of elements; one -1 is inferred)."""
    shape = list(a.shape)
    newshape = list(newshape)
    if newshape.count(-1) == 1:
        known = _product([d for d in newshape if not (isinstance(d, int) and d == -1)])
        newshape[newshape.index(-1)] = tir.indexdiv(_product(shape), known)

    def body(*indices):
        flat = 0
        for i, extent in zip(indices, newshape):
            flat = flat * extent + i
        index = []
        for extent in reversed(shape):
            index.append(tir.indexmod(flat, extent))
            flat = tir.indexdiv(flat, extent)
        return a(*reversed(index))

    return te.compute(newshape, body, name="T_reshape", tag="injective")


def transpose(a, axes=None):
    """`a` with its axes permuted (reversed by default)."""
    ndim = len(a.shape)
    axes = list(range(ndim))[::-1] if not axes else [x + ndim if x < 0 else x for x in axes]
    if sorted(axes) != list(range(ndim)):
        raise ValueError("transpose: axes %r are not a permutation of the %d axes of %s"
                         % (axes, ndim, a.op.name))
    shape = [a.shape[x] for x in axes]

    def body(*indices):
        index = [None] * ndim
        for out_pos, in_axis in enumerate(axes):
            index[in_axis] = indices[out_pos]
        return a(*index)

    return te.compute(shape, body, name="T_transpose", tag="injective")


def _reduce(reducer):
    def reduce(data, axis=None, keepdims=False):
        ndim = len(data.shape)
        if axis is None:
            axes = list(range(ndim))
        else:
            axes = sorted(x + ndim if x < 0 else x for x in ([axis] if isinstance(axis, int) else axis))
        raxes = {x: te.reduce_axis((0, data.shape[x]), name="k%d" % x) for x in axes}
        if keepdims:
            out_shape = [1 if x in raxes else data.shape[x] for x in range(ndim)]
        else:
            out_shape = [data.shape[x] for x in range(ndim) if x not in raxes]

        def body(*indices):
            index, k = [], 0
            for x in range(ndim):
                if x in raxes:
                    index.append(raxes[x])
                    if keepdims:
                        k += 1
                else:
                    index.append(indices[k])
                    k += 1
            return reducer(data(*index), axis=list(raxes.values()))

        return te.compute(out_shape, body, name=data.op.name + "_red", tag="comm_reduce")

    return reduce


sum = _reduce(te.sum)  # noqa: A001 - TVM's name
max = _reduce(te.max)  # noqa: A001 - TVM's name
min = _reduce(te.min)  # noqa: A001 - TVM's name
