# Custom passes as in TVM's low_level_custom_pass tutorial: statements built and rewritten from
# Python (the tir statement constructors, ir_transform, substitute), passes made with
# prim_func_pass / module_pass or by name, and PassContext's tir.add_lower_pass running them in
# their phase of tvm.lower.
import numpy as np
import pytest

import tvm
import tvm.testing
from tvm import te


def _vector_add(n=128):
    a = te.placeholder((n,), name="a")
    b = te.placeholder((n,), name="b")
    c = te.compute((n,), lambda i: a[i] + b[i], name="c")
    return te.create_schedule(c.op), [a, b, c]


def test_the_tutorials_vectorize_pass_splits_and_vectorizes_the_loop():
    # TVM's gallery/how_to/extend_tvm/low_level_custom_pass.py, its code unchanged
    n = tvm.tir.const(128, "int32")
    a = te.placeholder((n,), name="a")
    b = te.placeholder((n,), name="b")
    c = te.compute((n,), lambda i: a[i] + b[i], name="c")
    sch = te.create_schedule(c.op)
    loops = []

    def find_width8(op):
        if isinstance(op, tvm.tir.For):
            if isinstance(op.extent, tvm.tir.IntImm):
                if op.extent.value % 8 == 0:
                    loops.append(op)

    def vectorize8(op):
        if op in loops:
            extent = op.extent.value
            name = op.loop_var.name
            lo, li = te.var(name + ".outer"), te.var(name + ".inner")
            body = tvm.tir.stmt_functor.substitute(op.body, {op.loop_var: lo * 8 + li})
            body = tvm.tir.For(li, 0, 8, tvm.tir.ForKind.VECTORIZED, body)
            body = tvm.tir.For(lo, 0, extent // 8, tvm.tir.ForKind.SERIAL, body)
            return body
        return None

    @tvm.tir.transform.prim_func_pass(opt_level=0)
    def vectorize(f, mod, ctx):
        tvm.tir.stmt_functor.post_order_visit(f.body, find_width8)
        if not loops:
            return f
        return f.with_body(tvm.tir.stmt_functor.ir_transform(f.body, None, vectorize8, ["tir.For"]))

    plain = str(tvm.lower(sch, [a, b, c]))
    assert "for (i, 0, 128)" in plain, plain
    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, vectorize)]}):
        text = str(tvm.lower(sch, [a, b, c]))
    assert vectorize.info.name == "vectorize" and len(loops) == 1
    # the loop split by 8 and its inner loop vectorized by the pipeline's later passes
    assert "for (i.outer, 0, 16) {" in text, text
    assert "c[ramp(cse_var_1, 1, 8)] = (a[ramp(cse_var_1, 1, 8)] + b[ramp(cse_var_1, 1, 8)])" in text, text
    assert "produce c {" in text, text  # the markers above the body stay
    # after=<pass name>: the IR right after the pass, before vectorization
    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, vectorize)]}):
        loops.clear()
        right_after = str(tvm.lower(sch, [a, b, c], after="vectorize"))
    assert "vectorized (i.inner, 0, 8) {" in right_after, right_after


def test_each_phase_sees_the_statement_of_its_point_in_the_pipeline():
    s, args = _vector_add()
    s[args[2]].vectorize(s[args[2]].split(args[2].op.axis[0], factor=4)[1])
    seen = {}

    def recorder(phase):
        @tvm.tir.transform.prim_func_pass(opt_level=0, name="record%d" % phase)
        def record(f, mod, ctx):
            seen[phase] = str(f)
            return f
        return record

    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(k, recorder(k)) for k in range(4)]}):
        final = str(tvm.lower(s, args))
    assert "c((i.inner + (i.outer*4))) =" in seen[0], seen[0]          # ScheduleOps: tensors
    assert "vectorized (i.inner, 0, 4)" in seen[1], seen[1]           # flat buffers, loop kept
    assert "c[((i.outer*4) + i.inner)] =" in seen[1], seen[1]
    assert "c[ramp((i.outer*4), 1, 4)]" in seen[2], seen[2]          # vectorized
    # the last phase runs after the clean-up, before common subexpression elimination
    assert "c[ramp((i.outer*4), 1, 4)]" in seen[3] and "cse_var" not in seen[3], seen[3]
    assert "let cse_var_1 = (i.outer*4)" in final, final


def test_a_plain_function_of_the_statement_is_a_pass_too():
    s, args = _vector_add(16)

    def unroll_all(stmt):
        return tvm.tir.stmt_functor.ir_transform(
            stmt, None,
            lambda op: tvm.tir.For(op.loop_var, op.min, op.extent, tvm.tir.ForKind.UNROLLED, op.body),
            ["tir.For"])

    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, unroll_all)]}):
        text = str(tvm.lower(s, args))
    assert "c[15] = (a[15] + b[15])" in text, text
    assert "for (" not in text, text


def test_ir_transform_preorder_postorder_and_only_enable():
    i = te.var("i")
    x = te.var("x", "handle")
    body = tvm.tir.SeqStmt([tvm.tir.Store(x, i * 2, i), tvm.tir.Evaluate(i + 1)])
    loop = tvm.tir.For(i, 0, 10, tvm.tir.ForKind.SERIAL, body)
    # postorder on expressions: every Mul becomes an Add
    out = tvm.tir.stmt_functor.ir_transform(
        loop, None, lambda op: op.a + op.b, ["tir.Mul"])
    assert "x[i] = (i + 2)" in str(out), str(out)
    # preorder replacing a node stops the walk below it
    visited = []

    def pre(op):
        visited.append(type(op).__name__)
        return tvm.tir.Evaluate(0) if isinstance(op, tvm.tir.SeqStmt) else None

    out = tvm.tir.stmt_functor.ir_transform(loop, pre, None)
    assert "Store" not in visited and isinstance(out.body, tvm.tir.Evaluate), visited
    # nothing changed: the same statement
    assert tvm.tir.stmt_functor.ir_transform(loop, None, lambda op: None).same_as(loop)
    with pytest.raises(tvm.error.TVMError, match="'tir.Loop' names no node type"):
        tvm.tir.stmt_functor.ir_transform(loop, None, None, ["tir.Loop"])
    with pytest.raises(TypeError, match="a statement must be replaced by a statement"):
        tvm.tir.stmt_functor.ir_transform(loop, None, lambda op: i, ["tir.Evaluate"])


def test_statement_constructors_take_tvms_arguments():
    i = te.var("i")
    x = te.var("x", "handle")
    store = tvm.tir.Store(x, tvm.tir.const(1.0, "float32"), i)
    seq = tvm.tir.SeqStmt([store, tvm.tir.SeqStmt([tvm.tir.Evaluate(0), tvm.tir.Evaluate(1)])])
    assert len(seq) == 3  # nested sequences are spliced in
    loop = tvm.tir.For(i, 0, 8, tvm.tir.ForKind.PARALLEL, seq)
    assert loop.kind == tvm.tir.ForKind.PARALLEL and loop.extent.value == 8
    alloc = tvm.tir.Allocate(x, "float32", [8], tvm.tir.const(1, "bool"), loop)
    guarded = tvm.tir.IfThenElse(i < 4, alloc, None)
    let = tvm.tir.LetStmt(i, 3, guarded)
    attr = tvm.tir.AttrStmt(x, "storage_scope", "global", let)
    text = str(tvm.tir.AssertStmt(i > 0, "i must be positive", attr))
    assert "parallel (i, 0, 8)" in text and "allocate x[float32 * 8]" in text, text
    assert "let i = 3" in text and "if ((i < 4))" in text or "if (i < 4)" in text, text
    with pytest.raises(tvm.error.TVMError, match="unknown ForKind 9"):
        tvm.tir.For(i, 0, 8, 9, store)
    # mistakes are TVMErrors that say what is wrong (they were internal errors)
    A2 = te.placeholder((4, 4), name="A2")
    e = tvm.tir.Evaluate(0)
    for make, message in [
            (lambda: tvm.tir.LetStmt(i, 1.5, e), "the value of 'i' is float32, expected int32"),
            (lambda: tvm.tir.For(i, 0.5, 8, 0, e), "the min of loop 'i' is float32"),
            (lambda: tvm.tir.For(te.var("f", "float32"), 0, 8, 0, e), "expected an integer"),
            (lambda: tvm.tir.IfThenElse(1.5, e), "the condition is float32, expected bool"),
            (lambda: tvm.tir.ProducerStore(A2, 1.0, [0]), "1 indices for A2, which has 2"),
            (lambda: tvm.tir.SeqStmt([]), "an empty sequence")]:
        with pytest.raises(tvm.error.TVMError, match=message):
            make()
    # an integer constant takes the loop variable's type, as TVM promotes it
    assert tvm.tir.For(te.var("j", "int64"), 0, 8, 0, e).extent.dtype == "int64"


def test_built_in_passes_by_name_and_module_passes():
    s, args = _vector_add(16)
    mod = tvm.lower(s, args, after="flatten")
    unrolled = tvm.tir.transform.UnrollLoop()(mod)
    assert "c[15] = (a[15] + b[15])" not in str(unrolled)  # a serial loop is not unrolled
    calls = []

    @tvm.transform.module_pass(opt_level=1)
    def count(mod, ctx):
        calls.append(sorted(mod.functions))
        return mod

    seq = tvm.transform.Sequential([tvm.tir.transform.Simplify(), count, tvm.tir.transform.RemoveNoOp()])
    out = seq(mod)
    assert calls == [["main"]] and str(out["main"]) == str(tvm.lower(s, args, after="simplify")["main"])


def test_the_context_enables_passes_as_tvms_does():
    s, args = _vector_add(16)
    ran = []

    def marker(name, level):
        @tvm.tir.transform.prim_func_pass(opt_level=level, name=name)
        def mark(f, mod, ctx):
            ran.append(name)
            return f
        return mark

    passes = [(1, marker("lo", 0)), (1, marker("hi", 3))]
    with tvm.transform.PassContext(config={"tir.add_lower_pass": passes}):
        tvm.lower(s, args)
    assert ran == ["lo"]  # opt_level 3 is above the default context's 2
    ran.clear()
    with tvm.transform.PassContext(opt_level=3, disabled_pass=["lo"],
                                   config={"tir.add_lower_pass": passes}):
        tvm.lower(s, args)
    assert ran == ["hi"]
    ran.clear()
    with tvm.transform.PassContext(opt_level=2):
        tvm.transform.Sequential([p for _, p in passes])(tvm.lower(s, args))
    assert ran == ["lo"]


def test_pass_configuration_mistakes_are_clear():
    s, args = _vector_add()
    with pytest.raises(ValueError, match="the phase must be an integer 0 to 3"):
        tvm.transform.PassContext(config={"tir.add_lower_pass": [(-1, lambda st: st)]})
    with pytest.raises(ValueError, match="is not a pass"):
        tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, "vectorize")]})

    @tvm.tir.transform.prim_func_pass(opt_level=0)
    def wrong(f, mod, ctx):
        return f.body

    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(2, wrong)]}):
        with pytest.raises(TypeError, match="the pass wrong returned a .* for main"):
            tvm.lower(s, args)
    with pytest.raises(tvm.error.TVMError, match="unknown pass 'nothing'"):
        tvm.lower(s, args, after="nothing")

    @tvm.tir.transform.prim_func_pass(opt_level=0)
    def drop(f, mod, ctx):
        return None

    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, drop)]}):
        with pytest.raises(TypeError, match="the pass drop returned a IRModule, without the function 'main'"):
            tvm.lower(s, args)
    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, lambda st: 3)]}):
        with pytest.raises(TypeError, match="returned a int; a function pass returns a statement"):
            tvm.lower(s, args)


def test_a_decorated_class_makes_passes():
    s, args = _vector_add(16)

    @tvm.tir.transform.prim_func_pass(opt_level=0)
    class Scale:
        def __init__(self, factor):
            self.factor = factor

        def transform_function(self, f, mod, ctx):
            return f.with_body(tvm.tir.stmt_functor.ir_transform(
                f.body, None, lambda op: op * self.factor, ["tir.Add"]))

    p = Scale(3.0)
    assert p.info.name == "Scale"
    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, p)]}):
        text = str(tvm.lower(s, args))
    assert "((a[i] + b[i])*3.000000f)" in text, text


def test_tvm_build_runs_the_passes_of_the_pass_context():
    s, args = _vector_add(64)

    @tvm.tir.transform.prim_func_pass(opt_level=0)
    def add_to_mul(f, mod, ctx):
        return f.with_body(tvm.tir.stmt_functor.ir_transform(
            f.body, None, lambda op: op.a * op.b, ["tir.Add"]))

    a = np.arange(64, dtype="float32")
    b = np.full(64, 3.0, dtype="float32")
    c = np.zeros(64, dtype="float32")
    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, add_to_mul)]}):
        f = tvm.build(s, args)
    f(a, b, c)
    tvm.testing.assert_allclose(c, a * b)
    tvm.build(s, args)(a, b, c)  # outside the context: the program as written
    tvm.testing.assert_allclose(c, a + b)


if __name__ == "__main__":
    tvm.testing.main()
