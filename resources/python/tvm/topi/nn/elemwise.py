"""tvm.topi.nn.relu and softmax (TVM's topi/nn/elemwise.py and softmax.py), with TVM's stage
names and tags."""

from tvm import te, tir


def relu(x):
    """max(x, 0) elementwise (tag `elemwise`)."""
    return te.compute(x.shape, lambda *i: te.max(x(*i), tir.const(0, x.dtype)), tag="elemwise")


def softmax(x, axis=-1):
    """exp(x - max) / sum(exp(x - max)) along `axis`: the stages T_softmax_maxelem,
    T_softmax_exp, T_softmax_expsum and T_softmax_norm, tagged `softmax_output`."""
    shape = list(x.shape)
    axis = axis + len(shape) if axis < 0 else axis
    if not 0 <= axis < len(shape):
        raise ValueError("axis parameter should be less than input dim")
    k1 = te.reduce_axis((0, shape[axis]), name="k")
    k2 = te.reduce_axis((0, shape[axis]), name="k")
    reduced = shape[:axis] + shape[axis + 1:]

    def at(indices, k):
        return list(indices[:axis]) + [k] + list(indices[axis:])

    def drop(indices):
        return list(indices[:axis]) + list(indices[axis + 1:])

    maxelem = te.compute(reduced, lambda *i: te.max(x(*at(i, k1)), axis=k1), name="T_softmax_maxelem",
                         tag="softmax_output")
    exp = te.compute(shape, lambda *i: te.exp(x(*i) - maxelem(*drop(i))), name="T_softmax_exp",
                     tag="softmax_output")
    expsum = te.compute(reduced, lambda *i: te.sum(exp(*at(i, k2)), axis=k2), name="T_softmax_expsum",
                        tag="softmax_output")
    return te.compute(shape, lambda *i: exp(*i) / expsum(*drop(i)), name="T_softmax_norm",
                      tag="softmax_output", attrs={"axis": axis})
