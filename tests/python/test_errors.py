# Errors as TVM users meet them: an engine error reaches the script as tvm.error.TVMError (a
# RuntimeError) with the engine's message, its traceback points at the script line that made the
# call, Python errors raised inside fcompute keep their type, and the checks TVM makes in Python
# raise the exception types TVM raises there.
import tvm
import tvm.testing
from tvm import te

from script_lines import innermost_line_in, line_of


def raised(fn):
    try:
        fn()
    except Exception as err:  # noqa: BLE001 - the test inspects whatever was raised
        return err
    raise AssertionError("no exception raised")


def _schedule():
    A = te.placeholder((16,), name="A")
    C = te.compute((16,), lambda i: A[i] + 1, name="C")
    return A, C, te.create_schedule(C.op)


def test_engine_errors_are_tvm_errors_with_the_engine_message():
    A, C, s = _schedule()
    err = raised(lambda: s[C].split(C.op.axis[0], factor=0))  # @split0
    assert type(err) is tvm.error.TVMError
    assert isinstance(err, RuntimeError)
    assert str(err) == "split of 'i' in stage 'C': factor must be a positive integer, got 0"
    assert innermost_line_in(__file__, err) == line_of(__file__, "split0")
    assert tvm.TVMError is tvm.error.TVMError is tvm.error.TVMError


def test_a_failed_internal_check_raises_internal_error_instead_of_aborting():
    import boundscope
    err = raised(lambda: boundscope._core._fail_internal_check())
    assert type(err) is tvm.error.InternalError
    assert isinstance(err, tvm.error.TVMError)
    assert "check failed" in str(err) and "_fail_internal_check" in str(err)


def test_tvm_error_subclasses_are_tvm_errors():
    for name in ("InternalError", "OpError", "OpNotImplemented", "OpAttributeRequired",
                 "OpAttributeInvalid", "OpAttributeUnImplemented", "DiagnosticError"):
        cls = getattr(tvm.error, name)
        assert issubclass(cls, tvm.error.TVMError), name
        try:
            raise cls("custom")
        except tvm.error.TVMError as err:
            assert str(err) == "custom"
    assert issubclass(tvm.error.OpNotImplemented, NotImplementedError)


def test_schedule_errors_name_the_stage():
    A, C, s = _schedule()
    B = te.compute((16,), lambda i: A[i] * 2, name="B")
    err = raised(lambda: s[B])
    assert isinstance(err, tvm.error.TVMError)
    assert str(err) == "operation 'B' is not part of the schedule"
    xo, xi = s[C].split(C.op.axis[0], factor=4)
    err = raised(lambda: s[C].reorder(xi, xi))
    assert isinstance(err, tvm.error.TVMError) and "'C'" in str(err), err


def test_python_layer_checks_raise_what_tvm_raises():
    A, C, s = _schedule()
    both = raised(lambda: s[C].split(C.op.axis[0], factor=2, nparts=2))
    neither = raised(lambda: s[C].split(C.op.axis[0]))
    assert type(both) is ValueError and type(neither) is ValueError, (both, neither)
    wrong_rank = raised(lambda: A[1, 2])
    assert type(wrong_rank) is ValueError, wrong_rank
    i = te.var("i")
    divide = raised(lambda: i / 2)
    assert isinstance(divide, RuntimeError) and "floordiv" in str(divide)
    not_expr = raised(lambda: s[C].split(C.op.axis[0], factor="four"))
    assert isinstance(not_expr, TypeError), not_expr
    # fcompute's parameters are the axes: TVM asserts there are no defaults or keywords.
    default = raised(lambda: te.compute((4, 4), lambda i, j, p=A: p[i] + j, name="D"))
    assert type(default) is AssertionError, default
    assert str(default) == "Default arguments not supported in fcompute"
    keywords = raised(lambda: te.compute((4,), lambda i, **kw: A[i], name="E"))
    assert str(keywords) == "Variable keyword arguments not supported in fcompute", keywords


def test_analyzer_misuse_is_reported_not_fatal():
    x = te.var("x")
    ana = tvm.arith.Analyzer()
    ana.bind(x, tvm.ir.Range(0, 4))
    err = raised(lambda: ana.bind(x, 3))
    assert str(err) == ("variable 'x' is already bound in this Analyzer; use "
                        "update(var, info, override=True) to change it")
    ana.update(x, 3, override=True)
    assert ana.simplify(x + 1).value == 4
    err = raised(lambda: ana.update(te.var("y"), tvm.arith.ConstIntBound(5, 1)))
    assert "only a finite, non-empty ConstIntBound" in str(err), err
    err = raised(lambda: ana.constraint_scope(x + 1).__enter__())
    assert isinstance(err, tvm.error.TVMError) and "boolean" in str(err), err
    err = raised(lambda: tvm.tir.stmt_functor.substitute(x + 1, {"x": 2}))
    assert isinstance(err, TypeError) and "a key must be a Var or an IterVar" in str(err)


def test_errors_inside_fcompute_keep_their_type_and_line():
    A = te.placeholder((4,), name="A")

    def fcompute(i):
        return A[i] + undefined_name  # noqa: F821  # @undefined

    err = raised(lambda: te.compute((4,), fcompute, name="D"))
    assert isinstance(err, NameError), err
    assert innermost_line_in(__file__, err) == line_of(__file__, "undefined")


def test_missing_names_raise_attribute_error():
    err = raised(lambda: tvm.te.create_group)
    assert isinstance(err, AttributeError)
    assert str(err) == ("module 'tvm.te' has no attribute 'create_group' "
                        "(not available in Boundscope yet)")


if __name__ == "__main__":
    tvm.testing.main()


def test_the_smallest_int64_over_minus_one_wraps_instead_of_killing_the_process():
    # C's INT64_MIN / -1 traps (SIGFPE); folding these constants killed the process.
    smallest = tvm.tir.const(-(2**63), "int64")
    minus_one = tvm.tir.const(-1, "int64")
    assert (smallest // minus_one).value == -(2**63)
    assert (smallest % minus_one).value == 0
    assert tvm.tir.truncdiv(smallest, minus_one).value == -(2**63)
    assert tvm.tir.truncmod(smallest, minus_one).value == 0


def test_the_simplifiers_divide_the_smallest_int64_by_minus_one_without_trapping():
    # Each of these reached a C division or remainder of INT64_MIN by -1 (SIGFPE) somewhere in
    # the rewrite or canonical simplifier (Simplify_Div.cpp, for one); a crash kills this test.
    smallest, minus_one = tvm.tir.const(-(2**63), "int64"), tvm.tir.const(-1, "int64")
    x = te.var("x", "int64")
    exprs = [
        (x * smallest) // minus_one,
        (x * smallest) % minus_one,
        tvm.tir.truncdiv(x * smallest, minus_one),
        tvm.tir.truncmod(x * smallest, minus_one),
        tvm.tir.truncmod(x * 2 + smallest, minus_one),
        (x + smallest) // minus_one,
        tvm.tir.truncdiv(x + smallest, minus_one),
        (smallest * x) // smallest,
        tvm.te.max(x * minus_one, smallest),
        tvm.te.min(x * smallest, minus_one),
    ]
    analyzer = tvm.arith.Analyzer()
    for expr in exprs:
        for simplify in (analyzer.simplify, analyzer.canonical_simplify, analyzer.rewrite_simplify):
            assert simplify(expr) is not None
    assert analyzer.simplify(tvm.tir.truncmod(x * smallest, minus_one)).value == 0
