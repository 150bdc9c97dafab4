# tvm.target.Target as TVM's scripts use it: kinds, keys and attributes parsed from TVM's text
# or a dict, the current target of a `with` block, and tvm.build taking a Target.
import numpy as np

import tvm
import tvm.testing
from tvm import te


def test_target_from_text():
    t = tvm.target.Target("llvm -mcpu=skylake-avx512 -mattr=+avx2,+fma")
    assert t.kind.name == "llvm" and t.keys == ("cpu",)
    assert t.mcpu == "skylake-avx512" and t.attrs["mcpu"] == "skylake-avx512"
    assert t.mattr == ["+avx2", "+fma"]
    assert str(t) == "llvm -keys=cpu -mattr=+avx2,+fma -mcpu=skylake-avx512", str(t)
    cuda = tvm.target.Target("cuda -arch=sm_80")
    assert cuda.kind.name == "cuda" and cuda.keys == ("cuda", "gpu")
    assert cuda.arch == "sm_80" and cuda.max_num_threads == 1024 and cuda.thread_warp_size == 32
    assert tvm.target.Target(str(t)) == t
    assert tvm.target.cuda(arch="sm_70").arch == "sm_70"


def test_target_from_dict_and_host():
    t = tvm.target.Target({"kind": "cuda", "arch": "sm_86", "max_num_threads": 512},
                          host="llvm")
    assert t.kind.name == "cuda" and t.max_num_threads == 512
    assert t.host.kind.name == "llvm"
    assert t.export()["host"]["kind"] == "llvm"


def test_current_target():
    assert tvm.target.Target.current() is None
    with tvm.target.Target("llvm") as outer:
        assert tvm.target.Target.current() is outer
        with tvm.target.Target("cuda") as inner:
            assert tvm.target.Target.current() is inner
        assert tvm.target.Target.current() is outer
    assert tvm.target.Target.current(allow_none=True) is None
    try:
        tvm.target.Target.current(allow_none=False)
    except tvm.error.TVMError as err:
        assert "no target" in str(err)
    else:
        raise AssertionError("current(allow_none=False) outside a target must raise")


def test_unknown_kinds_and_bad_options_are_errors():
    for text, words in (("vulkan", 'Target kind "vulkan" is not defined'),
                        ("llvm mcpu", "cannot parse 'mcpu'"),
                        ("cuda -max_num_threads=many", "expects an integer")):
        try:
            tvm.target.Target(text)
        except tvm.error.TVMError as err:
            assert words in str(err), str(err)
        else:
            raise AssertionError("%r must be refused" % text)


def test_build_takes_a_target_or_the_current_one():
    A = te.placeholder((16,), name="A")
    B = te.compute((16,), lambda i: A[i] + 1.0, name="B")
    s = te.create_schedule(B.op)
    a = np.arange(16, dtype="float32")
    for f in (tvm.build(s, [A, B], target=tvm.target.Target("llvm -mcpu=generic")),
              tvm.build(s, [A, B], target={"kind": "llvm"})):
        b = tvm.nd.array(np.zeros(16, "float32"))
        f(tvm.nd.array(a), b)
        tvm.testing.assert_allclose(b.numpy(), a + 1)
    with tvm.target.Target("llvm"):
        assert tvm.build(s, [A, B]) is not None
    # The current target is used: cuda needs a schedule bound to GPU threads.
    with tvm.target.Target("cuda"):
        try:
            tvm.build(s, [A, B])
        except tvm.error.TVMError as err:
            assert "binds no loop to a GPU thread" in str(err), str(err)
        else:
            raise AssertionError("tvm.build for cuda must refuse a schedule without bindings")
    try:
        tvm.build(s, [A, B], target="c")
    except tvm.error.TVMError as err:
        assert "target 'c' is not supported" in str(err), str(err)
    else:
        raise AssertionError("tvm.build for c must say which targets it builds")


if __name__ == "__main__":
    tvm.testing.main()
