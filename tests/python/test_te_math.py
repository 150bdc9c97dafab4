# TVM's math intrinsics on te expressions (tvm.te / tvm.tir: exp, log1p, asinh, atan2, pow, abs,
# isnan, ...): each is lowered to an LLVM intrinsic or a libm call on the CPU and checked against
# numpy; abs and isnan/isinf/isfinite follow TVM's rules for integers.
import numpy as np

import tvm
import tvm.testing
from tvm import te

UNARY = {
    # name: (numpy function, input range)
    "exp": (np.exp, (-2, 2)), "exp2": (np.exp2, (-2, 2)), "log": (np.log, (0.1, 4)),
    "log2": (np.log2, (0.1, 4)), "log10": (np.log10, (0.1, 4)), "log1p": (np.log1p, (0, 3)),
    "expm1": (np.expm1, (-1, 1)), "sqrt": (np.sqrt, (0, 4)), "cbrt": (np.cbrt, (-8, 8)),
    "sin": (np.sin, (-3, 3)), "cos": (np.cos, (-3, 3)), "tan": (np.tan, (-1, 1)),
    "asin": (np.arcsin, (-0.9, 0.9)), "acos": (np.arccos, (-0.9, 0.9)),
    "atan": (np.arctan, (-3, 3)), "sinh": (np.sinh, (-2, 2)), "cosh": (np.cosh, (-2, 2)),
    "tanh": (np.tanh, (-2, 2)), "asinh": (np.arcsinh, (-3, 3)), "acosh": (np.arccosh, (1, 4)),
    "atanh": (np.arctanh, (-0.9, 0.9)), "floor": (np.floor, (-3, 3)), "ceil": (np.ceil, (-3, 3)),
    "trunc": (np.trunc, (-3, 3)), "fabs": (np.fabs, (-3, 3)), "abs": (np.abs, (-3, 3)),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), (-3, 3)),
}
BINARY = {"pow": np.power, "power": np.power, "atan2": np.arctan2, "fmod": np.fmod,
          "hypot": np.hypot, "copysign": np.copysign}


def _run(fcompute, inputs, dtype="float32", out_dtype=None):
    n = inputs[0].shape[0]
    phs = [te.placeholder((n,), name="A%d" % k, dtype=dtype) for k in range(len(inputs))]
    B = te.compute((n,), lambda i: fcompute(*[p[i] for p in phs]), name="B")
    s = te.create_schedule(B.op)
    f = tvm.build(s, phs + [B], "llvm")
    out = tvm.nd.array(np.zeros(n, out_dtype or B.dtype))
    f(*[tvm.nd.array(x) for x in inputs], out)
    return out.numpy()


def test_unary_functions_match_numpy():
    rng = np.random.default_rng(0)
    for name, (ref, (lo, hi)) in UNARY.items():
        for module in (te, tvm.tir):
            assert hasattr(module, name), (module.__name__, name)
        x = rng.uniform(lo, hi, size=64).astype("float32")
        got = _run(getattr(te, name), [x])
        tvm.testing.assert_allclose(got, ref(x), rtol=1e-5, atol=1e-6)


def test_binary_functions_match_numpy():
    rng = np.random.default_rng(1)
    x = rng.uniform(0.5, 3, size=64).astype("float32")
    y = rng.uniform(-2, 2, size=64).astype("float32")
    for name, ref in BINARY.items():
        got = _run(getattr(tvm.tir, name), [x, y])
        tvm.testing.assert_allclose(got, ref(x, y), rtol=1e-5, atol=1e-6)


def test_abs_of_integers_and_float_classes():
    x = np.array([-5, 0, 7, -2147483647], dtype="int32")
    tvm.testing.assert_allclose(_run(te.abs, [x], dtype="int32"), np.abs(x))
    assert isinstance(te.abs(te.var("u", "uint32")), tvm.tir.Var)  # an unsigned value is its abs
    v = np.array([1.0, np.nan, np.inf, -np.inf, 0.0], dtype="float32")
    for name, ref in (("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite)):
        got = _run(lambda a: tvm.tir.if_then_else(getattr(te, name)(a), 1.0, 0.0), [v])
        tvm.testing.assert_allclose(got, ref(v).astype("float32"))
    # an integer is never nan nor infinite
    assert te.isnan(te.var("i")).value == 0 and te.isfinite(te.var("i")).value == 1
    a, b = te.var("a", "bool"), te.var("b", "bool")
    assert str(tvm.tir.logical_and(a, b)) == "(a && b)", str(tvm.tir.logical_and(a, b))
    assert str(tvm.tir.logical_or(a, b)) == "(a || b)", str(tvm.tir.logical_or(a, b))


if __name__ == "__main__":
    tvm.testing.main()
