# tvm.build for the cuda target (its source without a GPU, one clear error when running needs
# one), TVM's CUDA intrinsic rules, and the operator registry of TVM's intrin_math tutorial:
# tvm.ir.register_op_attr, register_intrin_lowering, call_intrin, call_pure_extern.
import numpy as np
import pytest

import tvm
import tvm.testing
from tvm import te
from tvm.ir import register_intrin_lowering, register_op_attr
from boundscope import intrin


def _fresh_registry():
    # Registrations are the running script's (ScriptExecution forgets them between scripts);
    # every test of this file runs in one script, so those that register start from the
    # built-in operators.
    intrin.forget_registrations()


def _gpu_exp(fn=te.exp, dtype="float32"):
    n = te.var("n")
    A = te.placeholder((n,), name="A", dtype=dtype)
    B = te.compute(A.shape, lambda i: fn(A[i]), name="B")
    s = te.create_schedule(B.op)
    bx, tx = s[B].split(B.op.axis[0], factor=64)
    s[B].bind(bx, te.thread_axis("blockIdx.x"))
    s[B].bind(tx, te.thread_axis("threadIdx.x"))
    return s, A, B


def test_a_cuda_build_has_the_cuda_source_as_its_imported_module():
    s, A, B = _gpu_exp()
    f = tvm.build(s, [A, B], "cuda", name="myexp")
    assert f.entry_name == "myexp"
    (dev_module,) = f.imported_modules
    assert dev_module.type_key == "cuda"
    source = dev_module.get_source()
    assert 'extern "C" __global__ void myexp_kernel0(' in source
    # TVM's CUDAFastMath rule: float32 exp is __expf.
    assert "__expf(A[" in source
    # The host code launches the kernel.
    assert 'tvm_call_packed("myexp_kernel0"' in f.get_source()


def test_float64_and_tan_follow_tvms_cuda_rules():
    s, A, B = _gpu_exp(dtype="float64")
    assert "exp(A[" in tvm.build(s, [A, B], "cuda").imported_modules[0].get_source()
    s, A, B = _gpu_exp(te.tan)
    source = tvm.build(s, [A, B], "cuda").imported_modules[0].get_source()
    assert "tanf(A[" in source and "__tanf" not in source


def test_a_cuda_build_of_a_schedule_without_gpu_bindings_is_refused():
    A = te.placeholder((16,), name="A")
    B = te.compute(A.shape, lambda i: A[i] + 1, name="B")
    with pytest.raises(tvm.TVMError, match="binds no loop to a GPU thread"):
        tvm.build(te.create_schedule(B.op), [A, B], "cuda")


def test_a_cuda_target_object_and_the_current_target_build_cuda():
    s, A, B = _gpu_exp()
    with tvm.target.Target("cuda"):
        f = tvm.build(s, [A, B])
    assert f.imported_modules[0].type_key == "cuda"
    f = tvm.build(s, [A, B], tvm.target.Target("cuda", host="llvm"))
    assert f.imported_modules[0].type_key == "cuda"


@pytest.mark.skipif(tvm.cuda(0).exist, reason="checks the message given without a GPU")
def test_without_a_gpu_running_says_so_once():
    assert not tvm.cuda(0).exist and tvm.cpu(0).exist
    with pytest.raises(tvm.TVMError, match=r"tvm.nd.array: cuda\(0\) is not available"):
        tvm.nd.array(np.zeros(4, "float32"), tvm.cuda(0))
    s, A, B = _gpu_exp()
    f = tvm.build(s, [A, B], "cuda", name="myexp")
    a = np.ones(64, "float32")
    with pytest.raises(tvm.TVMError, match="cannot run 'myexp' on the cuda target"):
        f(a, np.zeros(64, "float32"))


@pytest.mark.skipif(not tvm.cuda(0).exist, reason="needs a GPU")
def test_with_a_gpu_the_kernel_runs_on_it():
    s, A, B = _gpu_exp()
    f = tvm.build(s, [A, B], "cuda", name="myexp")
    dev = tvm.cuda(0)
    a = tvm.nd.array(np.linspace(-2, 2, 100).astype("float32"), dev)
    b = tvm.nd.array(np.zeros(100, "float32"), dev)
    f(a, b)
    np.testing.assert_allclose(b.numpy(), np.exp(a.numpy()), rtol=1e-5)
    assert f.time_evaluator(f.entry_name, dev, number=3)(a, b).mean > 0


def test_an_opencl_build_has_the_opencl_c_and_is_not_run_here():
    # intrin_math: "We can find that the code works for both CUDA and opencl."
    s, A, B = _gpu_exp()
    f = tvm.build(s, [A, B], "opencl", name="myexp")
    (dev_module,) = f.imported_modules
    assert dev_module.type_key == "opencl"
    source = dev_module.get_source()
    assert "__kernel void myexp_kernel0(__global float* restrict A, __global float* restrict B, " \
        "int n) {" in source, source
    assert "exp(A[" in source and "get_local_id(0)" in source and "__expf" not in source
    with pytest.raises(tvm.TVMError, match="no OpenCL runtime"):
        f(np.zeros(64, "float32"), np.zeros(64, "float32"))
    assert not tvm.opencl(0).exist and tvm.cl(0) == tvm.device("opencl", 0)
    with pytest.raises(tvm.TVMError, match="no OpenCL runtime"):
        tvm.nd.array(np.zeros(4, "float32"), tvm.cl(0))


def test_tvms_builtins_need_no_registration_and_gpu_tests_skip_without_a_gpu():
    # TVM's tensor-core tests build tvm_load_matrix_sync calls with call_intrin.
    call = tvm.tir.call_intrin("handle", "tir.tvm_load_matrix_sync", 0, 16, 16, 16, 0)
    assert call.op.name == "tir.tvm_load_matrix_sync"

    def needs_gpu():
        pass

    mark = tvm.testing.requires_cuda(needs_gpu).pytestmark[-1]
    assert mark.name == "skipif" and bool(mark.args[0]) == (not tvm.cuda(0).exist)


def test_devices_by_name():
    assert tvm.device("cuda", 0) == tvm.cuda(0) == tvm.gpu(0)
    assert tvm.device("llvm", 1) == tvm.cpu(1) != tvm.cuda(1)
    assert repr(tvm.cuda(0)) == "cuda(0)" and tvm.cuda(0).device_type == 2
    with pytest.raises(tvm.TVMError, match="is not available"):
        tvm.device("metal", 0)


def test_the_operator_of_a_call_is_named_as_in_tvm():
    x = te.var("x", "float32")
    assert te.exp(x).op.name == "tir.exp"
    assert te.exp(x).op == tvm.ir.Op.get("tir.exp")
    assert tvm.tir.call_pure_extern("float32", "__expf", x).op.name == "tir.call_pure_extern"
    assert tvm.tir.call_extern("float32", "f", x).op.name == "tir.call_extern"
    assert tvm.tir.if_then_else(x > 0, x, 0.0).op.name == "tir.if_then_else"
    # call_intrin of a math operator is the same call as te's function.
    assert tvm.ir.structural_equal(tvm.tir.call_intrin("float32", "tir.exp", x), te.exp(x))
    with pytest.raises(tvm.TVMError, match="Operator tir.nope is not registered"):
        tvm.ir.Op.get("tir.nope")


def test_a_custom_rule_replaces_tvms_cuda_rule():
    _fresh_registry()
    # intrin_math: "Intrinsic Lowering Rule"
    def my_cuda_math_rule(op):
        assert isinstance(op, tvm.tir.Call)
        name = op.op.name
        assert name.startswith("tir.")
        if op.dtype == "float32":
            return tvm.tir.call_pure_extern("float32", "%sf" % name[4:], op.args[0])
        return op

    register_intrin_lowering("tir.exp", target="cuda", f=my_cuda_math_rule, level=99)
    s, A, B = _gpu_exp()
    source = tvm.build(s, [A, B], "cuda", name="myexp").imported_modules[0].get_source()
    assert "expf(A[" in source and "__expf" not in source
    # The same level again is an error, as TVM's; a higher one overrides.
    with pytest.raises(tvm.TVMError, match="already registered with the same level 99"):
        register_intrin_lowering("tir.exp", target="cuda", f=my_cuda_math_rule, level=99)
    register_intrin_lowering("tir.exp", target="cuda", f=lambda op: op, level=100)
    source = tvm.build(s, [A, B], "cuda").imported_modules[0].get_source()
    assert "__expf(A[" in source


def test_a_new_intrinsic_exists_once_registered_and_lowers_by_its_rule():
    _fresh_registry()
    # intrin_math: "Add Your Own Intrinsic"
    def mylog(x):
        return tvm.tir.call_intrin(x.dtype, "tir.mylog", x)

    x = te.var("x", "float32")
    with pytest.raises(tvm.TVMError, match="operator tir.mylog is not registered"):
        mylog(x)
    register_op_attr("tir.mylog", "TCallEffectKind", tvm.tir.CallEffectKind.Pure)
    assert tvm.ir.Op.get("tir.mylog").get_attr("TCallEffectKind") == tvm.tir.CallEffectKind.Pure

    def my_cuda_mylog_rule(op):
        if op.dtype == "float32":
            return tvm.tir.call_pure_extern("float32", "logf", op.args[0])
        return op

    register_intrin_lowering("tir.mylog", target="cuda", f=my_cuda_mylog_rule, level=99)
    s, A, B = _gpu_exp(mylog)
    source = tvm.build(s, [A, B], "cuda", name="mylog").imported_modules[0].get_source()
    assert "logf(A[" in source and "mylog" in source.split("(")[0]
    # Without a rule for the target the operator reaches the code generator, which names it.
    A = te.placeholder((8,), name="A")
    B = te.compute(A.shape, lambda i: mylog(A[i]), name="B")
    with pytest.raises(tvm.TVMError, match="mylog"):
        tvm.build(te.create_schedule(B.op), [A, B], "llvm")


def test_cpu_rules_and_pure_extern_calls_run_on_the_cpu():
    _fresh_registry()
    A = te.placeholder((32,), name="A")
    B = te.compute(A.shape, lambda i: tvm.tir.call_pure_extern("float32", "expf", A[i]),
                   name="B")
    C = te.compute(A.shape, lambda i: te.log(A[i]) + B[i], name="C")
    a = tvm.nd.array(np.linspace(0.5, 2, 32).astype("float32"))
    c = tvm.nd.array(np.zeros(32, "float32"))
    s = te.create_schedule(C.op)
    tvm.build(s, [A, C])(a, c)
    np.testing.assert_allclose(c.numpy(), np.log(a.numpy()) + np.exp(a.numpy()), rtol=1e-5)

    seen = []

    @register_intrin_lowering("tir.log", target="llvm", level=99)
    def log_as_log2(op):
        seen.append(op.op.name)
        return tvm.tir.call_pure_extern("float32", "log2f", op.args[0])

    tvm.build(s, [A, C])(a, c)
    assert seen == ["tir.log"]
    np.testing.assert_allclose(c.numpy(), np.log2(a.numpy()) + np.exp(a.numpy()), rtol=1e-5)


def test_a_replacement_is_lowered_in_turn_and_must_keep_the_type():
    # As TVM's LowerIntrin: mylog -> exp (a rule) -> expf (another rule).
    _fresh_registry()
    register_op_attr("tir.mylog", "TCallEffectKind", tvm.tir.CallEffectKind.Pure)
    register_intrin_lowering("tir.mylog", target="cuda", f=lambda op: te.exp(op.args[0]),
                             level=99)
    register_intrin_lowering(
        "tir.exp", target="cuda",
        f=lambda op: tvm.tir.call_pure_extern(op.dtype, "expf", op.args[0]), level=99)
    s, A, B = _gpu_exp(lambda x: tvm.tir.call_intrin(x.dtype, "tir.mylog", x))
    source = tvm.build(s, [A, B], "cuda").imported_modules[0].get_source()
    assert "expf(A[" in source and "__expf" not in source, source
    _fresh_registry()
    register_intrin_lowering(
        "tir.exp", target="cuda",
        f=lambda op: tvm.tir.call_pure_extern("int32", "foo", op.args[0]), level=99)
    s, A, B = _gpu_exp()
    with pytest.raises(tvm.TVMError, match="returned a int32 for a float32 call"):
        tvm.build(s, [A, B], "cuda")
    _fresh_registry()
    register_intrin_lowering("tir.exp", target="cuda", f=lambda op: te.exp(op.args[0] + 1),
                             level=99)
    s, A, B = _gpu_exp()
    with pytest.raises(tvm.TVMError, match="keep rewriting tir.exp"):
        tvm.build(s, [A, B], "cuda")


def test_a_rule_must_return_an_expression():
    _fresh_registry()
    register_intrin_lowering("tir.exp", target="default", f=lambda op: None, level=99)
    s, A, B = _gpu_exp()
    with pytest.raises(tvm.TVMError, match="returned None"):
        tvm.build(s, [A, B], "cuda")


if __name__ == "__main__":
    tvm.testing.main()
