# Every stage, IterVar, relation, attach and loop annotation made from a script remembers the
# script line that made it (DESIGN.md, "The front end"; issue 5, item 3), as
# `source_location == (file, line)`: the GUI links graph nodes, IR lines and script lines with it.
# Each line checked below carries a marker comment `# @name` (script_lines.py finds it).
import inspect

import tvm
import tvm.testing
from tvm import te

from script_lines import line_of


def here(marker):
    return (__file__, line_of(__file__, marker))


def _pipeline():
    n = te.var("n")
    A = te.placeholder((n, 64), name="A")  # @placeholder
    k = te.reduce_axis((0, 64), name="k")  # @reduce_axis
    B = te.compute((n, 64), lambda i, j: A[i, j] * 2, name="B")  # @compute_B
    C = te.compute((n,), lambda i: te.sum(B[i, k], axis=k), name="C")  # @compute_C
    s = te.create_schedule(C.op)  # @create_schedule
    return A, B, C, k, s


def test_operations_and_their_axes():
    A, B, C, k, s = _pipeline()
    assert A.op.source_location == here("placeholder")
    assert B.op.source_location == here("compute_B")
    assert [iv.source_location for iv in B.op.axis] == [here("compute_B")] * 2
    assert k.source_location == here("reduce_axis")
    assert C.op.reduce_axis[0].source_location == here("reduce_axis")


def test_stages_come_from_create_schedule_and_the_cache_primitives():
    A, B, C, k, s = _pipeline()
    assert s.source_location == here("create_schedule")
    for stage in s.stages:
        assert stage.source_location == here("create_schedule"), stage
    BL = s.cache_write(B, "local")  # @cache_write
    AS = s.cache_read(A, "shared", [BL])  # @cache_read
    assert s[BL].source_location == here("cache_write")
    assert s[AS].source_location == here("cache_read")
    assert AS.op.axis[0].source_location == here("cache_read")


def test_relations_and_the_iter_vars_they_create():
    A, B, C, k, s = _pipeline()
    xo, xi = s[B].split(B.op.axis[0], factor=8)  # @split
    fused = s[B].fuse(xi, B.op.axis[1])  # @fuse
    kf, ki = s[C].split(k, nparts=4)  # @split_k
    split, fuse = s[B].relations
    assert split.source_location == here("split")
    assert fuse.source_location == here("fuse")
    assert xo.source_location == xi.source_location == here("split")
    assert fused.source_location == here("fuse")
    assert s[C].relations[0].source_location == here("split_k")
    assert kf.source_location == here("split_k")
    outer = s[C].fuse()  # @singleton
    assert s[C].relations[-1].source_location == here("singleton")
    assert outer.source_location == here("singleton")


def test_attach_and_annotations():
    A, B, C, k, s = _pipeline()
    s[B].compute_at(s[C], C.op.axis[0])  # @compute_at
    assert s[B].attach_source_location == here("compute_at")
    s[B].compute_root()  # @compute_root
    assert s[B].attach_source_location == here("compute_root")
    bx = te.thread_axis("blockIdx.x")  # @thread_axis
    s[C].bind(C.op.axis[0], bx)  # @bind
    s[B].vectorize(B.op.axis[1])  # @vectorize
    assert bx.source_location == here("thread_axis")
    assert s[C].iter_var_attrs[C.op.axis[0]].source_location == here("bind")
    assert s[B].iter_var_attrs[B.op.axis[1]].source_location == here("vectorize")


def test_rfactor_stage_and_axes():
    A, B, C, k, s = _pipeline()
    ko, ki = s[C].split(k, factor=16)
    CF = s.rfactor(C, ki)  # @rfactor
    assert s[CF].source_location == here("rfactor")
    assert CF.op.axis[0].source_location == here("rfactor")


def test_normalize_rebase_comes_from_the_normalize_call():
    A, B, C, k, s = _pipeline()
    sn = s.normalize()  # @normalize
    rebases = [r for r in sn[B].relations if isinstance(r, tvm.te.schedule.Rebase)]
    assert len(rebases) == 2
    for rebase in rebases:
        assert rebase.source_location == here("normalize")
        assert rebase.rebased.source_location == here("normalize")


def test_a_helper_function_gets_its_own_line():
    def make_split(stage, axis):
        return stage.split(axis, factor=4)  # @helper_split

    A, B, C, k, s = _pipeline()
    xo, _ = make_split(s[B], B.op.axis[0])
    assert xo.source_location == here("helper_split")
    assert inspect.getsourcefile(make_split) == __file__


if __name__ == "__main__":
    tvm.testing.main()
