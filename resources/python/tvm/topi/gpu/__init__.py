"""tvm.topi.gpu: TVM's GPU dense schedule for small batches (`dense_small_batch`,
`schedule_dense_small_batch`) with its fallback configuration: the reduction split by 64, the
inner part rfactored and bound to threadIdx.x (a cross-thread reduction), one block per
output element."""

from tvm import autotvm, te
from tvm.autotvm.task.space import SplitEntity

from .. import nn
from ..utils import get_const_tuple, traverse_inline
from ..._placeholder import missing as _missing


@autotvm.register_topi_compute("dense_small_batch.gpu")
def dense_small_batch(cfg, data, weight, bias=None, out_dtype=None):
    """topi.nn.dense, as TVM's GPU strategy computes it for small batches."""
    del cfg
    return nn.dense(data, weight, bias, out_dtype)


def _schedule_dense_small_batch(cfg, s, C):
    A, weights = C.op.input_tensors
    _, in_dim_weights = get_const_tuple(weights.shape)
    _, in_dim_A = get_const_tuple(A.shape)
    in_dim = in_dim_A if isinstance(in_dim_A, int) else (
        in_dim_weights if isinstance(in_dim_weights, int) else None)
    if in_dim is not None:
        cfg.define_split("tile_k", in_dim, num_outputs=2)
        if cfg.is_fallback:
            cfg["tile_k"] = SplitEntity([-1, 64] if in_dim > 64 else [1, 64])
        _, kf = cfg["tile_k"].apply(s, C, C.op.reduce_axis[0])
    else:
        _, kf = s[C].split(C.op.reduce_axis[0], 64)

    CF = s.rfactor(C, kf)
    if C.op in s.outputs:
        Out = C
    else:
        Out = s.outputs[0].output(0)
        s[C].compute_at(s[Out], s[Out].op.axis[1])
    s[Out].bind(s[Out].op.axis[0], te.thread_axis("blockIdx.y"))
    s[Out].bind(s[Out].op.axis[1], te.thread_axis("blockIdx.x"))

    tx = s[C].op.reduce_axis[0]
    thread_x = te.thread_axis("threadIdx.x")
    s[C].bind(tx, thread_x)
    s[CF].compute_at(s[C], tx)
    s[C].set_store_predicate(thread_x.var.equal(0))
    s[Out].set_store_predicate(thread_x.var.equal(0))


@autotvm.register_topi_schedule("dense_small_batch.gpu")
def schedule_dense_small_batch(cfg, outs):
    """TVM's GPU schedule of dense (and a bias add after it) for small batches."""
    outs = [outs] if isinstance(outs, te.Tensor) else list(outs)
    s = te.create_schedule([x.op for x in outs])

    def _callback(op):
        if op.tag == "dense":
            _schedule_dense_small_batch(cfg, s, op.output(0))

    traverse_inline(s, outs[0].op, _callback)
    return s


__getattr__ = _missing("tvm.topi.gpu")
