"""The `tvm` compatibility package offers TVM's module layout and names, and says clearly when a
name is not available yet."""


import boundscope
import tvm
import tvm.testing
import tvm.tir
import tvm.te
from tvm import te


def test_modules_exist_with_tvms_names():
    for name in ("te", "tir", "arith", "testing", "error", "runtime", "nd", "ir", "container",
                 "ir_pass"):
        assert hasattr(tvm, name), name
    from tvm.tir.expr import Var, IntImm  # noqa: F401
    from tvm.tir.op import floordiv  # noqa: F401
    assert tvm.tir.Var is boundscope.Var
    assert te.var is boundscope.var


def test_old_spellings_of_the_seeds_work():
    n = tvm.var("n")
    assert str(tvm.floordiv(n, 2)) == "floordiv(n, 2)"
    assert tvm.const(1).dtype == "int32"
    assert tvm.expr.Var is tvm.tir.Var


def test_error_types():
    assert issubclass(tvm.error.TVMError, RuntimeError)
    assert tvm.TVMError is tvm.error.TVMError
    assert issubclass(tvm.error.InternalError, tvm.error.TVMError)
    assert tvm.error.TVMError.__module__ == "tvm.error"


def test_missing_names_say_so():
    for module, name in ((tvm.arith, "IntervalSet"), (tvm.te, "create_prim_func"), (tvm, "build_module_x")):
        try:
            getattr(module, name)
        except AttributeError as err:
            assert "not available in Boundscope yet" in str(err), err
        else:
            raise AssertionError("%s.%s should not exist yet" % (module.__name__, name))


def test_runtime_convert():
    values = tvm.runtime.convert([1, 2.5])
    assert values[0].dtype == "int32" and values[1].dtype == "float32"


if __name__ == "__main__":
    tvm.testing.main()
