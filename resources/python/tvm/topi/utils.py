"""tvm.topi.utils: helpers TOPI's schedules use."""

from tvm import te, tir

from . import tag


def get_const_tuple(in_tuple):
    """The shape as ints (a symbolic extent stays an expression)."""
    out = []
    for elem in in_tuple:
        if isinstance(elem, int):
            out.append(elem)
        elif isinstance(elem, tir.IntImm):
            out.append(int(elem.value))
        else:
            out.append(elem)
    return tuple(out)


def traverse_inline(s, final_op, callback=None):
    """TVM's: from `final_op` towards the inputs, inlines each injective operator that is not
    an output and goes on through its inputs; calls `callback` on every operator reached."""
    visited = set()

    def _traverse(op):
        if op in visited:
            return
        visited.add(op)
        if tag.is_injective(op.tag):
            if op not in s.outputs:
                s[op].compute_inline()
            for tensor in op.input_tensors:
                if isinstance(tensor.op, te.ComputeOp):
                    _traverse(tensor.op)
        if callback is not None:
            callback(op)

    _traverse(final_op)
