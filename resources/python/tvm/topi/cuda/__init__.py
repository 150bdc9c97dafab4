"""tvm.topi.cuda: TVM's CUDA schedules of the operators Boundscope has, with TVM's fallback
configurations (no tuning): `conv2d_hwcn` / `schedule_conv2d_hwcn` (shared and local caches,
virtual threads, 2-D thread blocks), and `schedule_injective` (the output fused and split over
blocks of the target's max_num_threads threads). Schedules that read the target need one
current (`with tvm.target.Target("cuda"):`)."""

from tvm import autotvm, te, tir
from tvm.autotvm.task.space import SplitEntity
from tvm.target import Target

from .. import nn, tag
from ..transform import _product
from ..._placeholder import missing as _missing


def schedule_injective_from_existing(sch, out):
    """TVM's: the output's axes fused, split into blocks of max_num_threads threads (half as many
    for a symbolic shape; at most 256 blocks' worth per outer iteration when the output is
    larger)."""
    fused = sch[out].fuse(*sch[out].op.axis)
    num_thread = Target.current(allow_none=False).max_num_threads
    max_block = 256
    size = _product(out.shape)
    const_size = int(size.value) if hasattr(size, "value") else (size if isinstance(size, int) else 0)
    if const_size > max_block * num_thread:
        xo, xi = sch[out].split(fused, factor=num_thread * max_block)
        bx, tx = sch[out].split(xi, factor=num_thread)
        sch[out].reorder(bx, tx, xo)
    else:
        # As TVM: fewer threads for a symbolic shape (a block of the whole maximum may not
        # launch with the registers the kernel ends up needing).
        if any(not isinstance(dim, (int, tir.IntImm)) for dim in out.shape):
            num_thread //= 2
        factor = const_size if 0 < const_size < num_thread else num_thread
        bx, tx = sch[out].split(fused, factor=factor)
    sch[out].bind(bx, te.thread_axis("blockIdx.x"))
    sch[out].bind(tx, te.thread_axis("threadIdx.x"))
    return sch


def schedule_injective(outs):
    """TVM's topi.cuda.schedule_injective: injective stages inlined, each output fused and
    bound to blocks and threads."""
    outs = [outs] if isinstance(outs, te.Tensor) else list(outs)
    s = te.create_schedule([x.op for x in outs])
    te.schedule.AutoInlineInjective(s)
    for out in outs:
        schedule_injective_from_existing(s, out)
    return s


schedule_elemwise = schedule_injective
schedule_broadcast = schedule_injective


@autotvm.register_topi_compute("conv2d_hwcn.cuda")
def conv2d_hwcn(cfg, data, kernel, strides, padding, dilation, out_dtype="float32"):
    """conv2d in HWCN layout (topi.nn.conv2d_hwcn) as TVM's CUDA strategy computes it."""
    del cfg
    return nn.conv2d_hwcn(data, kernel, strides, padding, dilation, out_dtype)


def _schedule_conv2d_hwcn(cfg, sch, Apad, W, B):
    sch[Apad].compute_inline()
    AA = sch.cache_read(Apad, "shared", [B])
    WW = sch.cache_read(W, "shared", [B])
    AL = sch.cache_read(AA, "local", [B])
    WL = sch.cache_read(WW, "local", [B])

    if B.op in sch.outputs:
        Out = B
        BL = sch.cache_write(Out, "local")
    else:
        Out = sch.outputs[0].output(0)
        sch[B].set_scope("local")
        BL = B

    hi, wi, fi, ni = sch[Out].op.axis
    cfg.define_split("tile_fi", fi, num_outputs=4)
    cfg.define_split("tile_ni", ni, num_outputs=4)
    if cfg.is_fallback:
        cfg["tile_fi"] = SplitEntity([-1, 2, 8, 4])
        cfg["tile_ni"] = SplitEntity([-1, 2, 8, 4])

    step = 8
    bz = sch[Out].fuse(hi, wi)
    by, tyz, ty, fi = cfg["tile_fi"].apply(sch, Out, fi)
    bx, txz, tx, ni = cfg["tile_ni"].apply(sch, Out, ni)
    sch[Out].reorder(bz, by, bx, tyz, txz, ty, tx, fi, ni)
    sch[Out].bind(bz, te.thread_axis("blockIdx.z"))
    sch[Out].bind(by, te.thread_axis("blockIdx.y"))
    sch[Out].bind(bx, te.thread_axis("blockIdx.x"))
    sch[Out].bind(tyz, te.thread_axis("vthread"))
    sch[Out].bind(txz, te.thread_axis("vthread"))
    sch[Out].bind(ty, te.thread_axis("threadIdx.y"))
    sch[Out].bind(tx, te.thread_axis("threadIdx.x"))

    # The local accumulation, its reduction tiled by `step` input channels.
    sch[BL].compute_at(sch[Out], tx)
    yi, xi, fi, ni = sch[BL].op.axis
    ry, rx, rc = sch[BL].op.reduce_axis
    rco, rci = sch[BL].split(rc, factor=step)
    sch[BL].reorder(rco, ry, rx, rci, fi, ni)
    fuse_index = sch[BL].fuse(ry, rx)
    fuse_index = sch[BL].fuse(fuse_index, rco)
    rx = fuse_index

    sch[AA].compute_at(sch[BL], rx)
    sch[WW].compute_at(sch[BL], rx)
    sch[AL].compute_at(sch[BL], rci)
    sch[WL].compute_at(sch[BL], rci)
    # The cooperative loads of the shared tiles, vectorized by 4.
    for load in (AA, WW):
        yi, xi, ci, last = sch[load].op.axis
        ty, ci = sch[load].split(ci, nparts=cfg["tile_fi"].size[2])
        tx, last = sch[load].split(last, nparts=cfg["tile_ni"].size[2])
        _, last = sch[load].split(last, factor=4)
        sch[load].reorder(ty, tx, yi, xi, ci, last)
        sch[load].bind(ty, te.thread_axis("threadIdx.y"))
        sch[load].bind(tx, te.thread_axis("threadIdx.x"))
        sch[load].vectorize(last)


@autotvm.register_topi_schedule("conv2d_hwcn.cuda")
def schedule_conv2d_hwcn(cfg, outs):
    """TVM's CUDA schedule of conv2d_hwcn and the elementwise operators after it."""
    outs = [outs] if isinstance(outs, te.Tensor) else list(outs)
    sch = te.create_schedule([x.op for x in outs])
    scheduled = []

    def traverse(operator):
        if tag.is_broadcast(operator.tag):
            if operator not in sch.outputs:
                sch[operator].compute_inline()
            for tensor in operator.input_tensors:
                if isinstance(tensor.op, te.ComputeOp) and tensor.op not in scheduled:
                    traverse(tensor.op)
        elif operator.tag == "conv2d_hwcn":
            Apad, W = operator.input_tensors
            _schedule_conv2d_hwcn(cfg, sch, Apad, W, operator.output(0))
        else:
            raise RuntimeError("Unsupported operator: %s" % operator.tag)
        scheduled.append(operator)

    traverse(outs[0].op)
    return sch


__getattr__ = _missing("tvm.topi.cuda")
