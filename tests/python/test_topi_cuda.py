# TOPI's CUDA schedules with TVM's fallback configurations (tvm.autotvm without tuning):
# topi.cuda.schedule_conv2d_hwcn, topi.gpu.schedule_dense_small_batch, topi.cuda.schedule_injective.
# Their results in the GPU emulation are checked by tests/app/cli (CliRun.TopisCudaSchedules...).
import re

import pytest

import tvm
import tvm.testing
from tvm import autotvm, te, topi
from tvm.autotvm.task.space import FallbackConfigEntity, SplitEntity


def _extents(s, args):
    """{thread tag: extent} of the lowered program's thread_extent / virtual_thread lines."""
    text = str(tvm.lower(s, args, simple_mode=True))
    found = re.findall(r"attr \[iter_var\((\w+\.?\w*), , \w+\.?\w*\)\] "
                       r"(?:thread_extent|virtual_thread) = (\d+)", text)
    return {tag: int(extent) for tag, extent in found}, text


def test_conv2d_hwcn_schedule_uses_tvms_fallback_tiles():
    A = te.placeholder((4, 4, 8, 64), name="A")
    W = te.placeholder((3, 3, 8, 64), name="W")
    with tvm.target.Target("cuda"):
        B = topi.cuda.conv2d_hwcn(A, W, 1, 1, 1)
        s = topi.cuda.schedule_conv2d_hwcn([B])
    names = [stage.op.name for stage in s.stages]
    for name in ("PaddedInput.shared", "W.shared", "PaddedInput.shared.local",
                 "W.shared.local", "Conv2dOutput.local"):
        assert name in names, names
    extents, text = _extents(s, [A, W, B])
    # SplitEntity([-1, 2, 8, 4]) on 64 out channels and 64 images: one block of 8x8 threads with
    # 2x2 virtual threads, each thread 4x4 outputs; 16 blocks over the fused 4x4 positions.
    assert extents == {"blockIdx.z": 16, "blockIdx.y": 1, "blockIdx.x": 1, "vthread": 2,
                       "threadIdx.y": 8, "threadIdx.x": 8}, extents
    assert "allocate Conv2dOutput.local[float32 * 16]" in text, text
    assert "for (rc.inner, 0, 8)" in text, text


def test_dense_small_batch_reduces_across_threads():
    data = te.placeholder((2, 200), name="data")
    weight = te.placeholder((16, 200), name="weight")
    with tvm.target.Target("cuda"):
        out = topi.gpu.dense_small_batch(data, weight)
        s = topi.gpu.schedule_dense_small_batch(out)
    assert out.op.name == "T_matmul_NT" and out.op.tag == "dense"
    extents, text = _extents(s, [data, weight, out])
    assert extents == {"blockIdx.y": 2, "blockIdx.x": 16, "threadIdx.x": 64}, extents
    assert "tvm_thread_allreduce" in text, text


def test_cuda_injective_schedule_needs_a_target_and_binds_the_fused_output():
    A = te.placeholder((40, 60), name="A")
    C = topi.nn.relu(A)
    with pytest.raises(tvm.TVMError):
        topi.cuda.schedule_injective(C)
    with tvm.target.Target("cuda"):
        s = topi.cuda.schedule_injective(C)
    # 2400 elements: 3 blocks of 1024 threads
    extents, _ = _extents(s, [A, C])
    assert extents == {"blockIdx.x": 3, "threadIdx.x": 1024}, extents
    # a symbolic shape: half the threads, as TVM
    n = te.var("n")
    D = topi.nn.relu(te.placeholder((n, 5), name="D"))
    with tvm.target.Target("cuda"):
        s = topi.cuda.schedule_injective(D)
    text = str(tvm.lower(s, [D.op.input_tensors[0], D], simple_mode=True))
    assert "thread_extent = 512" in text, text


def test_a_template_called_with_its_own_config_uses_it():
    # A tuned configuration (is_fallback false) keeps its entities; a fallback one gets the
    # template's own fallback, as in TVM.
    cfg = FallbackConfigEntity()
    cfg.is_fallback = False
    data = te.placeholder((1, 256), name="data")
    weight = te.placeholder((8, 256), name="weight")
    out = topi.gpu.dense_small_batch(data, weight)
    cfg.define_split("tile_k", 256, num_outputs=2)
    cfg["tile_k"] = SplitEntity([-1, 32])
    s = topi.gpu.schedule_dense_small_batch(cfg, [out])
    assert _extents(s, [data, weight, out])[0]["threadIdx.x"] == 32


def test_fallback_config_follows_tvms_rules():
    cfg = FallbackConfigEntity()
    assert cfg.is_fallback
    cfg.define_split("tile", 24, num_outputs=3)
    assert cfg["tile"].size == [-1, 1, 1]
    cfg.fallback_split("tile", [-1, 5, 4])
    # innermost first: the largest factor of 24 at most 4 is 4; of 6 at most 5 is 3; the rest 2
    assert cfg["tile"].size == [2, 3, 4]
    cfg.define_knob("unroll", [0, 512, 1500])
    assert cfg["unroll"].val == 0
    with pytest.raises(tvm.TVMError, match="no entity 'missing'"):
        cfg["missing"]

    @autotvm.register_topi_schedule("mine.cuda")
    def schedule_mine(cfg, outs):
        return cfg

    assert isinstance(schedule_mine([]), FallbackConfigEntity)


if __name__ == "__main__":
    tvm.testing.main()
