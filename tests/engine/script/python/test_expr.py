"""Expressions built from Python behave as in TVM (tvm/tir/expr.py, class ExprOp).

Runs under `boundscope script` (the embedded interpreter) and under plain python3 with
PYTHONPATH=build/python (the extension module); both must pass.
"""

import os
import sys
import tempfile

import tvm
import tvm.testing
from tvm import te


def test_operators_build_tvm_nodes():
    x = te.var("x")
    y = te.var("y")
    assert isinstance(x + y, tvm.tir.Add)
    assert isinstance(x - y, tvm.tir.Sub)
    assert isinstance(x * y, tvm.tir.Mul)
    assert isinstance(x // y, tvm.tir.FloorDiv)
    assert isinstance(x % y, tvm.tir.FloorMod)
    assert (x + y).a.same_as(x) and (x + y).b.same_as(y)
    assert str((x * 64 + y) // 8) == "floordiv(((x*64) + y), 8)"
    assert str(x % 4) == "floormod(x, 4)"
    assert str(2 - x) == "(2 - x)"


def test_reflected_operators_and_comparisons():
    x = te.var("x")
    assert str(3 + x) == "(3 + x)"
    assert str(3 * x) == "(3*x)"
    assert str(10 // x) == "floordiv(10, x)"
    assert str(x < 3) == "(x < 3)"
    assert str(3 < x) == "(x > 3)"  # Python reflects to x.__gt__(3)
    assert str(x >= 1) == "(x >= 1)"
    assert str(-x) == "(x*-1)"  # TVM's __neg__ multiplies by -1


def test_constants_fold():
    x = te.var("x")
    assert (tvm.tir.const(6) * 7).value == 42
    assert (x + 0).same_as(x)
    assert (x * 1).same_as(x)
    assert str(tvm.tir.floordiv(-7, tvm.tir.const(2))) == "-4"
    assert str(tvm.tir.truncdiv(-7, tvm.tir.const(2))) == "-3"
    assert str(tvm.tir.floormod(-7, tvm.tir.const(2))) == "1"


def test_true_division_of_integers_is_ambiguous():
    x = te.var("x")
    for lhs, rhs in ((x, 2), (2, x), (x, x)):
        try:
            lhs / rhs
        except RuntimeError as err:
            assert "multiple types of integer divisions" in str(err)
        else:
            raise AssertionError("int / int must raise as in TVM")
    f = te.var("f", "float32")
    assert isinstance(f / 2, tvm.tir.Div)
    assert str(f / 2) == "(f/2.000000f)"


def test_equality_is_deferred():
    x = te.var("x")
    y = te.var("y")
    assert bool(x == x) and not bool(x == y)
    assert bool(x != y) and not bool(x != x)
    assert isinstance((x == y).asobject(), tvm.tir.EQ)
    assert str(tvm.tir.Select(x == y, x, y)) == "select((x == y), x, y)"
    table = {x: "x", y: "y"}
    assert table[x] == "x" and table[y] == "y"
    assert x in [y, x]


def test_bool_of_an_expression_raises():
    x = te.var("x")
    try:
        if x < 3:
            pass
    except ValueError as err:
        assert "tvm.tir.all" in str(err)
    else:
        raise AssertionError("bool(x < 3) must raise")


def test_int_constants_behave_like_ints():
    c = tvm.tir.const(5)
    assert int(c) == 5 and c.value == 5
    assert bool(c == 5) and not bool(c == 4)
    assert bool(tvm.tir.const(1)) and not bool(tvm.tir.const(0))
    assert hash(c) == hash(5)
    assert float(tvm.tir.const(2.5)) == 2.5


def test_const_infers_dtypes_as_tvm():
    assert tvm.tir.const(1).dtype == "int32"
    assert tvm.tir.const(2 ** 40).dtype == "int64"
    assert tvm.tir.const(1.5).dtype == "float32"
    assert tvm.tir.const(True).dtype == "bool"
    assert tvm.tir.const(3, "float32").dtype == "float32"
    assert tvm.const(7, "int64").dtype == "int64"
    assert str(tvm.tir.const(3.14)) == "3.140000f"


def test_vars_have_names_and_dtypes():
    assert te.var().name == "tindex"
    assert te.size_var().name == "size"
    f = te.var("f", dtype="float32")
    assert f.name == "f" and f.dtype == "float32"
    assert tvm.tir.Var("v", "int64").dtype == "int64"
    assert (te.var("i") + 1.5).dtype == "float32"


def test_engine_errors_are_tvm_errors():
    x = te.var("x")
    try:
        x // 0
    except tvm.error.TVMError as err:
        assert str(err) == "floor division by zero"
        assert isinstance(err, RuntimeError)
    else:
        raise AssertionError("division by zero must raise")
    try:
        te.var("x", "nonsense")
    except tvm.error.TVMError as err:
        assert str(err) == "unknown data type 'nonsense'"
    else:
        raise AssertionError("an unknown dtype must raise")


def test_functions_of_tir():
    x = te.var("x")
    y = te.var("y")
    assert str(tvm.tir.indexdiv(x, 8)) == "floordiv(x, 8)"
    assert str(tvm.tir.indexmod(x, 8)) == "floormod(x, 8)"
    assert str(tvm.tir.min(x, y)) == "min(x, y)"
    assert str(tvm.tir.max(x, 1)) == "max(x, 1)"
    assert str(tvm.tir.all(x < 1, y < 2)) == "((x < 1) && (y < 2))"
    assert str(tvm.tir.any(x < 1, y < 2)) == "((x < 1) || (y < 2))"
    assert str(tvm.tir.if_then_else(x < y, x, 0)) == "tvm_if_then_else((x < y), x, 0)"
    assert tvm.tir.if_then_else(tvm.tir.const(True), x, y).same_as(x)
    assert str(x.astype("int64")) == "int64(x)"
    assert str(tvm.tir.exp(te.var("f", "float32"))) == "exp(f)"


def test_itervar_and_range():
    k = tvm.tir.IterVar((0, 16), "k", tvm.tir.IterVar.CommReduce)
    assert k.var.name == "k" and k.iter_type == 2
    assert k.dom.min.value == 0 and k.dom.extent.value == 16
    assert str(k) == "iter_var(k, range(min=0, ext=16))"
    assert str(k * 4 + 1) == "((k*4) + 1)"
    assert bool(k == k)
    r = tvm.ir.Range(2, 10)
    assert r.min.value == 2 and r.extent.value == 8
    assert str(tvm.ir.Range(5)) == "range(min=0, ext=5)"


def test_library_frames_are_not_the_users_line():
    # A call made through a module registered as Boundscope's own is attributed to the line here.
    import boundscope
    directory = tempfile.mkdtemp()
    with open(os.path.join(directory, "bs_fake_library.py"), "w") as f:
        f.write("import boundscope\ndef where():\n    return boundscope._core._current_location()\n")
    sys.path.insert(0, directory)
    boundscope._core._add_library_path(directory)
    import bs_fake_library
    where = bs_fake_library.where()
    line = sys._getframe().f_lineno - 1
    assert where == (__file__, line) or where[1] == line, where


if __name__ == "__main__":
    tvm.testing.main()
