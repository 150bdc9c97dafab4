"""te.decl_tensor_intrin and TensorIntrin: a computation paired with the statements that perform
it in one step (a hardware instruction, a library call), for `s[C].tensorize(loop, intrin)`.
"""

import _boundscope as _core

from . import buffer as _buffer

TensorIntrin = _core.TensorIntrin


def _buffers_of(intrin):
    cached = intrin.__dict__.get("_buffers")
    if cached is not None:
        return cached
    return [_buffer.Buffer(b.data, b.dtype, b.shape, b.strides, b.elem_offset, b.name, b.scope,
                           64, b.offset_factor) for b in intrin._buffer_nodes]


class TensorIntrinCall:
    """`intrin(A[i, 0:16], B[i, 0:16], reduce_axis=k)` inside te.compute: the intrinsic
    called on regions of tensors (and scalars); te.compute makes it a TensorComputeOp."""

    def __init__(self, intrin, tensors, regions, reduce_axis, scalar_inputs):
        self.intrin = intrin
        self.tensors = tensors
        self.regions = regions
        self.reduce_axis = reduce_axis
        self.scalar_inputs = scalar_inputs


def _region_of(region):
    """TVM's _get_region: a slice is [start, stop), an index (or IterVar) one element."""
    ranges = []
    for axis, index in enumerate(region.indices):
        if isinstance(index, slice):
            if index.step is not None:
                raise ValueError("a tensor intrinsic's region cannot have a step")
            start = index.start if index.start is not None else 0
            stop = index.stop if index.stop is not None else region.tensor.shape[axis]
            ranges.append(_core.Range(start, stop))
        else:
            begin = index.var if isinstance(index, _core.IterVar) else index
            ranges.append(_core.Range.from_min_extent(begin, 1))
    return ranges


def _load_region(load):
    from .te import TensorRegion
    return TensorRegion(load.producer, list(load.indices))


def _call(intrin, *args, **kwargs):
    from .te import TensorRegion, TensorSlice

    def is_tensor(a):
        # `A[i, j]` indexes every axis: TVM passes it as a one-element region, as here.
        return isinstance(a, (TensorRegion, TensorSlice, _core.ProducerLoad))

    regions = [a if not isinstance(a, _core.ProducerLoad) else _load_region(a)
               for a in args if is_tensor(a)]
    scalars = [a for a in args if not is_tensor(a)]
    reduce_axis = kwargs.get("reduce_axis", [])
    if not isinstance(reduce_axis, (list, tuple)):
        reduce_axis = [reduce_axis]
    return TensorIntrinCall(intrin, [r.tensor for r in regions], [_region_of(r) for r in regions],
                            list(reduce_axis), scalars)


def tensor_compute(shape, fcompute, names, name, tag):
    """te.compute when fcompute returns a TensorIntrinCall: its parameters are the loops, the
    rest of the shape is the intrinsic's output (Opaque axes ax0, ax1, ...)."""
    axis = [_core.IterVar((0, extent), n, _core.IterVar.DataPar)
            for n, extent in zip(names, shape)]
    call = fcompute(*[iv.var for iv in axis])
    if not isinstance(call, TensorIntrinCall):
        raise ValueError("fcompute takes %d arguments but the shape has %d dimensions"
                         % (len(names), len(shape)))
    for k, extent in enumerate(shape[len(names):]):
        axis.append(_core.IterVar((0, extent), "ax%d" % k, _core.IterVar.DimInfo))
    op = _core._tensor_compute_op(name, tag, axis, call.reduce_axis, len(names), call.intrin,
                                  call.tensors, call.regions, call.scalar_inputs)
    outputs = [op.output(i) for i in range(op.num_outputs)]
    return outputs[0] if len(outputs) == 1 else outputs


TensorIntrin.buffers = property(_buffers_of, doc="One tvm.tir.Buffer per input, then per output.")
TensorIntrin.__call__ = _call


def decl_tensor_intrin(op, fcompute, name="tensor_intrin", binds=None, scalar_params=None,
                       default_buffer_params=None):
    """te.decl_tensor_intrin(op, fcompute, name="tensor_intrin", binds=None, scalar_params=None,
    default_buffer_params=None): `op` is the computation (a te.compute over placeholders);
    `fcompute(ins, outs)` (or `fcompute(ins, outs, scalar_params)`) gets one tvm.tir.Buffer per
    input and per output (from `binds`, else declared with `default_buffer_params`) and returns
    the statement that computes the whole result, or a tuple (body, reduce_init,
    reduce_update) whose parts may be None."""
    if not isinstance(op, _core.ComputeOp):
        raise _core.TVMError("decl_tensor_intrin: the operation must be a te.compute, got %s"
                             % type(op).__name__)
    binds = binds or {}
    params = dict(default_buffer_params or {})
    inputs = list(op.input_tensors)
    if any(not isinstance(t.op, _core.PlaceholderOp) for t in inputs):
        raise ValueError("Do not yet support composition op: the inputs of a tensor "
                         "intrinsic's computation must be placeholders")
    outputs = [op.output(i) for i in range(op.num_outputs)]
    buffers = []
    for t in inputs + outputs:
        if t in binds:
            buffers.append(binds[t])
        else:
            buffers.append(_buffer.decl_buffer(t.shape, t.dtype, t.op.name, **params))
    ins, outs = buffers[:len(inputs)], buffers[len(inputs):]
    scalars = list(scalar_params) if scalar_params else []
    body = fcompute(ins, outs, scalars) if scalar_params else fcompute(ins, outs)
    if isinstance(body, (_core.PrimExpr, _core.Stmt)):
        body = [body]
    body = [_core.Evaluate(x) if isinstance(x, _core.PrimExpr) else x for x in body]
    if len(body) > 3:
        raise ValueError("decl_tensor_intrin: fcompute returned %d statements; expected the "
                         "body, reduce_init and reduce_update" % len(body))
    body = body + [None] * (3 - len(body))
    intrin = _core._tensor_intrin(name, op, inputs, [b._node() for b in buffers], scalars,
                                  body[0], body[1], body[2])
    intrin._buffers = buffers
    return intrin


def _infer_tensorize_region(stage, dom_map):
    from .container import Map
    out_dom, in_region = _core._infer_tensorize_region(stage, dict(dom_map))
    return [Map(out_dom), Map(in_region)]


def _match_tensorize_body(stage, out_dom, in_region, intrin):
    return _core._match_tensorize_body(stage, dict(out_dom), dict(in_region), intrin)


# The functions TVM registers for its tensorize tests (src/te/operation/tensorize.cc).
TEST_FUNCTIONS = {
    "test.op.InferTensorizeRegion": _infer_tensorize_region,
    "test.op.MatchTensorizeBody": _match_tensorize_body,
}
