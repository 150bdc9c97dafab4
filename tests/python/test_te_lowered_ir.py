# The lowered IR as objects, as TVM's own TE tests inspect it (tests/python/unittest/
# test_te_schedule_ops.py, test_te_tensor.py, test_te_build_lower.py): tvm.lower returns an
# IRModule whose mod["main"] is a PrimFunc with .body and .params, ScheduleOps a statement, and
# tvm.tir.stmt_functor.post_order_visit walks either with isinstance checks on tvm.tir.For,
# ProducerRealize, AttrStmt, Allocate, IfThenElse, ... TVM's tests are copied unchanged where
# Boundscope's IR has the same shape. The printed IR keeps TVM 0.6's `produce T {` blocks and
# `realize_scope` attrs (the seeds'); the tree Python walks has later TVM's shape, without them.
# Left out: scans, tensor intrinsics, schedule_to_module and LoopPartition (no counterpart), and
# TVM 0.6's test_schedule_bound_condition (its cache stage is realized with a guard in TVM 0.6;
# Boundscope, like later TVM, realizes only the 64 elements of A read, with no guard).
import tvm
import tvm.testing
from tvm import te


def collect_visit(stmt, f):
    ret = []
    tvm.tir.stmt_functor.post_order_visit(stmt, lambda x: ret.append(f(x)))
    return ret


def _lowered_schedule_ops(s):
    s = s.normalize()
    return tvm.te.schedule.ScheduleOps(s, tvm.te.schedule.InferBound(s))


def _compute_at_schedule():
    m, l = te.var("m"), te.var("l")
    A = te.placeholder((m, l), name="A")
    A1 = te.compute((m, l), lambda i, j: A[i, j], name="A1")
    A2 = te.compute((m, l), lambda i, j: A1[i, j] + 3, name="A2")
    s = te.create_schedule(A2.op)
    xo, xi = s[A2].split(A2.op.axis[0], 8)
    s[A1].compute_at(s[A2], xo)
    return s, (A, A1, A2), xo


def test_schedule0():
    m, l = te.var("m"), te.var("l")
    A = te.placeholder((m, l), name="A")
    A1 = te.compute((m, l), lambda i, j: A[i, j], name="A1")
    s = te.create_schedule(A1.op)
    mod = tvm.lower(s, [A, A1])  # TVM: schedule_to_module(s, [A, A1])
    assert isinstance(mod, tvm.IRModule)
    assert isinstance(mod["main"], tvm.tir.PrimFunc)


def test_schedule2():
    s, (A, A1, A2), _ = _compute_at_schedule()
    mod = tvm.lower(s, [A, A2])  # TVM: schedule_to_module(s, [A, A2])
    assert isinstance(mod["main"], tvm.tir.PrimFunc)


def test_lowered_module_prints_as_before_and_names_its_function():
    s, (A, A1, A2), _ = _compute_at_schedule()
    mod = tvm.lower(s, [A, A2], simple_mode=True)
    func = mod["main"]
    assert str(mod) == str(func), str(mod)
    assert str(mod).startswith("produce A2 {"), str(mod)
    # the tree has later TVM's shape: the loop, where the text shows `produce A2 {` around it
    assert isinstance(func.body, tvm.tir.For) and func.body.loop_var.name == "i.outer"
    assert "  " + str(func.body).replace("\n", "\n  ").rstrip() in str(mod)
    assert func.attrs["global_symbol"] == "main" and "main" in mod
    # the arguments' buffers in order, then the shape variables the body uses
    assert [p.name for p in func.params] == ["A", "A2", "m", "l"], func.params
    named = tvm.lower(s, [A, A2], name="f")
    assert "f" in named and "main" not in named
    assert tvm.ir.structural_equal(named["f"].body, func.body, map_free_vars=True)
    try:
        named["main"]
    except tvm.error.TVMError as err:
        assert 'Cannot find global var "main"' in str(err), err
    else:
        raise AssertionError("looking up a missing function must raise TVMError")


def test_schedule_ops_returns_the_statement_tvm_lower_prints_after_schedule_ops():
    s, (A, A1, A2), _ = _compute_at_schedule()
    stmt = _lowered_schedule_ops(s)
    # the output's realize on top, as in TVM 0.7+; the printed text also has TVM 0.6's
    # realize_scope attr above it
    assert isinstance(stmt, tvm.tir.Stmt) and isinstance(stmt, tvm.tir.ProducerRealize)
    assert stmt.producer == A2 and stmt.storage_scope == ""
    printed = str(tvm.lower(s, [A, A2], after="schedule_ops"))
    assert printed.startswith("// attr [compute(A2") and printed.endswith(str(stmt)), printed


def test_compute_at_realizes_the_producer_inside_the_loop():
    s, (A, A1, A2), xo = _compute_at_schedule()
    stmt = _lowered_schedule_ops(s)
    loops = [x for x in collect_visit(stmt, lambda x: x) if isinstance(x, tvm.tir.For)]
    outer = [x for x in loops if x.loop_var.name == "i.outer"]
    assert len(outer) == 1, [str(x.loop_var) for x in loops]
    inner_realizes = collect_visit(outer[0].body, lambda x: isinstance(x, tvm.tir.ProducerRealize)
                                   and x.producer == A1)
    assert sum(inner_realizes) == 1
    realize = [x for x in collect_visit(outer[0].body, lambda x: x)
               if isinstance(x, tvm.tir.ProducerRealize)][0]
    assert realize.bounds[0].extent.value == 8 and realize.bounds[1].extent.same_as(A.shape[1])
    tvm.testing.assert_prim_expr_equal(realize.bounds[0].min, outer[0].loop_var * 8)


def test_tile_makes_four_loops_and_one_realize():
    m, n = te.var("m"), te.var("n")
    A = te.placeholder((m, n), name="A")
    T = te.compute((m, n), lambda i, j: A[i, j] * 2, name="T")
    s = te.create_schedule(T.op)
    s[T].tile(T.op.axis[0], T.op.axis[1], x_factor=10, y_factor=5)
    stmt = _lowered_schedule_ops(s)
    assert sum(collect_visit(stmt, lambda x: isinstance(x, tvm.tir.For))) == 4
    assert sum(collect_visit(stmt, lambda x: isinstance(x, tvm.tir.ProducerRealize))) == 1
    extents = [x.extent for x in collect_visit(stmt, lambda x: x) if isinstance(x, tvm.tir.For)]
    assert [e.value for e in extents if isinstance(e, tvm.tir.IntImm)] == [5, 10]


def test_schedule_middle_cache_realizes_every_cache():
    m, n = te.var("m"), te.var("n")
    A = te.placeholder((m, n), name="A")
    B = te.placeholder((m, n), name="B")
    C = te.compute((m, n), lambda i, j: A(i, j) * B(i, j), name="C")
    D = te.compute((m, n), lambda i, j: C(i, j), name="D")
    s = te.create_schedule(D.op)
    caches = [s.cache_read(A, "local", readers=[C]), s.cache_read(B, "local", readers=[C]),
              s.cache_read(C, "local", readers=[D]), s.cache_write(D, "local")]
    stmt = _lowered_schedule_ops(s)
    realized = [x.producer for x in collect_visit(stmt, lambda x: x)
                if isinstance(x, tvm.tir.ProducerRealize)]
    assert sorted(t.name for t in realized) == ["A.local", "B.local", "C", "C.local", "D",
                                                "D.local"], realized
    for cache in caches:
        assert cache in realized
    attrs = [x for x in collect_visit(stmt, lambda x: x) if isinstance(x, tvm.tir.AttrStmt)]
    # TVM 0.7+: the scope is the realize's own; no realize_scope attrs in the tree
    assert not [x for x in attrs if x.attr_key == "realize_scope"]
    local = [x.producer.op for x in collect_visit(stmt, lambda x: x)
             if isinstance(x, tvm.tir.ProducerRealize) and x.storage_scope == "local"]
    assert sorted(op.name for op in local) == ["A.local", "B.local", "C.local", "D.local"]


def test_inline_mixed():
    n = te.var("n")
    A = te.placeholder((n,), name="A")
    A1 = te.compute(A.shape, lambda *i: A(*i) + 1, name="A1")
    A2 = te.compute(A.shape, lambda *i: A1(*i) + 2, name="A2")
    C = te.compute((n,), lambda i: A2[i] + A1[i], name="C")

    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=8)
    s[A1].compute_at(s[C], xo)
    s[A2].compute_inline()
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    stmt = tvm.te.schedule.ScheduleOps(s, bounds)

    def check(x):
        if isinstance(x, tvm.tir.Call):
            assert x.func != A2

    tvm.tir.stmt_functor.post_order_visit(s[C].op.body[0], check)
    # Tensor reads are ProducerLoads (TVM >= 0.7): after inlining C reads A1 and never A2.
    read = [x.producer for x in collect_visit(s[C].op.body[0], lambda x: x)
            if isinstance(x, tvm.tir.ProducerLoad)]
    assert read == [A1, A1], read
    stores = [x for x in collect_visit(stmt, lambda x: x) if isinstance(x, tvm.tir.ProducerStore)]
    assert [x.producer.name for x in stores] == ["A1", "C"], stores


def test_tuple_with_different_deps():
    m = te.size_var("m")
    n = te.size_var("n")
    A0 = te.placeholder((m, n), name="A1")
    A1 = te.placeholder((m, n), name="A2")
    B0, B1 = te.compute((m, n), lambda i, j: (A0[i, j] * 2, A1[i, j] * 3), name="B")
    C = te.compute((m, n), lambda i, j: B0[i, j] + 4, name="C")

    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=10)
    s[B0.op].compute_at(s[C], xo)
    sch = s.normalize()
    bounds = tvm.te.schedule.InferBound(sch)
    stmt = tvm.te.schedule.ScheduleOps(sch, bounds)

    def get_B1_realize(x):
        if (
            isinstance(x, tvm.tir.ProducerRealize)
            and x.producer.op == B1.op
            and x.producer.value_index == 1
        ):
            ret.append(x)

    ret = []
    tvm.tir.stmt_functor.post_order_visit(stmt, get_B1_realize)

    assert stmt.producer == C and len(ret) == 1


def test_local_stage_predicate():
    m = 1
    n = 3
    p = 2
    A = tvm.te.placeholder((m, n, p), name="A")
    B = tvm.te.compute((m, n, p), lambda bi, bj, bk: A[bi, bj, bk], name="B")
    C = tvm.te.compute((m, n, p), lambda ci, cj, ck: B[ci, cj, ck], name="C")
    by = tvm.te.thread_axis("blockIdx.y")
    tx = tvm.te.thread_axis("threadIdx.x")
    vx = tvm.te.thread_axis("vthread")

    def schedule(thread_tag, mem_scope):
        s = tvm.te.create_schedule(C.op)
        s[B].compute_at(s[C], s[C].op.axis[0])
        s[B].set_scope(mem_scope)
        bno, bni = s[B].split(s[B].op.axis[1], n)
        bx = tvm.te.thread_axis("blockIdx.x")
        s[C].bind(s[C].op.axis[0], bx)
        s[C].bind(s[C].op.axis[1], thread_tag)
        s[B].bind(bni, thread_tag)
        return s

    # local vs. threadIdx
    s = schedule(tx, "local")
    lowered_body = tvm.lower(s, [A, C])["main"].body
    assert not any(collect_visit(lowered_body, lambda x: isinstance(x, tvm.tir.IfThenElse)))
    # local vs. vthread
    s = schedule(vx, "local")
    lowered_body = tvm.lower(s, [A, C])["main"].body
    assert not any(collect_visit(lowered_body, lambda x: isinstance(x, tvm.tir.IfThenElse)))
    # shared vs. blockIdx
    s = schedule(by, "shared")
    lowered_body = tvm.lower(s, [A, C])["main"].body
    assert not any(collect_visit(lowered_body, lambda x: isinstance(x, tvm.tir.IfThenElse)))


def test_local_stage_predicate2():
    A = tvm.te.placeholder((128,), name="A")
    B = tvm.te.compute((128,), lambda bi: A[bi] + 1, name="B")
    C = tvm.te.compute((128,), lambda ci: B[ci] + 2, name="C")
    s = tvm.te.create_schedule(C.op)
    AA = s.cache_read(A, "local", [B])
    s[B].set_scope("shared")
    block_x = tvm.te.thread_axis("blockIdx.x")
    thread_x = tvm.te.thread_axis((0, 32), "threadIdx.x")
    oc, ic = s[C].split(s[C].op.axis[0], factor=64)
    ooc, ioc = s[C].split(oc, factor=2)
    oic, iic = s[C].split(ic, factor=32)
    s[C].bind(ooc, block_x)
    s[C].bind(iic, thread_x)
    s[B].compute_at(s[C], ioc)
    ob, ib = s[B].split(s[B].op.axis[0], factor=32)
    s[B].bind(ib, thread_x)
    s[AA].compute_root()
    s[AA].compute_at(s[C], ooc)
    oaa, iaa = s[AA].split(s[AA].op.axis[0], factor=32)
    s[AA].bind(iaa, thread_x)
    lowered_body = tvm.lower(s, [A, C])["main"].body

    def visit_stmt(op):
        if isinstance(op, tvm.tir.Allocate):
            return op.extents[0].value == 97
        return False

    assert not any(collect_visit(lowered_body, lambda x: isinstance(x, tvm.tir.IfThenElse)))
    assert any(collect_visit(lowered_body, visit_stmt))


def test_thread_extents_are_attributes_on_the_thread_iter_vars():
    A = te.placeholder((128,), name="A")
    B = te.compute((128,), lambda i: A[i] * 2, name="B")
    s = te.create_schedule(B.op)
    bx, tx = s[B].split(B.op.axis[0], factor=32)
    s[B].bind(bx, te.thread_axis("blockIdx.x"))
    s[B].bind(tx, te.thread_axis("threadIdx.x"))
    body = tvm.lower(s, [A, B])["main"].body
    attrs = [x for x in collect_visit(body, lambda x: x)
             if isinstance(x, tvm.tir.AttrStmt) and x.attr_key == "thread_extent"]
    extents = {x.node.thread_tag: x.value.value for x in attrs}
    assert extents == {"blockIdx.x": 4, "threadIdx.x": 32}, extents
    assert all(isinstance(x.node, tvm.tir.IterVar) for x in attrs)
    assert not any(collect_visit(body, lambda x: isinstance(x, tvm.tir.For)))


def test_split_uneven_unique_likely():
    a = te.placeholder((16, 16),)
    b = te.placeholder((16, 16),)
    c = te.compute((16, 16), lambda x, y: a[x, y] + b[x, y])

    x, y = c.op.axis
    sch = te.create_schedule(c.op)
    xo, xi = sch[c].split(x, 5)
    stmt = tvm.lower(sch, [a, b, c], simple_mode=True)["main"].body
    # TVM's test: HoistIfThenElse moves the guard out of the y loop, tested once per row
    assert isinstance(stmt.body.body, tvm.tir.stmt.IfThenElse)
    guard = stmt.body.body
    assert str(guard).count("likely") == 1
    assert isinstance(guard.condition, tvm.tir.Call) and guard.else_case is None
    loop = guard.then_case
    assert isinstance(loop, tvm.tir.For) and loop.loop_var.name == "y"
    # common subexpression elimination binds the flat index once (seed 001)
    let = loop.body
    assert isinstance(let, tvm.tir.LetStmt) and isinstance(let.body, tvm.tir.Store)
    assert let.body.index.same_as(let.var) and let.body.predicate is None


def test_hoisting_keeps_the_else_branch_of_an_enclosing_if():
    # An invariant `if (j > 2)` inside the then-branch of an if-else on i: moving it out of the
    # i loop would skip the else-branch when j <= 2 (found in review; TVM's collector does it).
    import numpy as np
    n = 8
    A = te.placeholder((n, n), name="A")

    def body(ins, outs):
        ib = tvm.tir.ir_builder.create()
        a, b = ib.buffer_ptr(ins[0]), ib.buffer_ptr(outs[0])
        with ib.for_range(0, n, name="j") as j:
            with ib.for_range(0, n, name="i") as i:
                with ib.if_scope(i < 4):
                    with ib.if_scope(j > 2):
                        b[j * n + i] = a[j * n + i] + 1.0
                with ib.else_scope():
                    b[j * n + i] = a[j * n + i] * 3.0
        return ib.get()

    B = te.extern((n, n), [A], body, name="B")
    s = te.create_schedule(B.op)
    f = tvm.build(s, [A, B], "llvm")
    a = np.random.uniform(size=(n, n)).astype("float32")
    b = tvm.nd.array(np.zeros((n, n), "float32"))
    f(tvm.nd.array(a), b)
    jj, ii = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    expected = np.where(ii < 4, np.where(jj > 2, a + 1, 0.0), a * 3)
    tvm.testing.assert_allclose(b.numpy(), expected, rtol=1e-6)


def test_pass_context_disables_hoisting_and_cse():
    a = te.placeholder((16, 16), name="a")
    c = te.compute((16, 16), lambda x, y: a[x, y] * 2, name="c")
    sch = te.create_schedule(c.op)
    sch[c].split(c.op.axis[0], 5)
    disabled = ["tir.HoistIfThenElse", "tir.CommonSubexprElimTIR"]
    with tvm.transform.PassContext(opt_level=3, disabled_pass=disabled):
        plain = tvm.lower(sch, [a, c])["main"].body
    # the guard stays in the innermost loop, around the store, with no let
    inner = plain.body.body
    assert isinstance(inner, tvm.tir.For) and inner.loop_var.name == "y"
    assert isinstance(inner.body, tvm.tir.IfThenElse)
    assert isinstance(inner.body.then_case, tvm.tir.Store)
    with tvm.transform.PassContext(config={"tir.disable_cse_tir": True}):
        no_cse = tvm.lower(sch, [a, c])["main"].body
    assert isinstance(no_cse.body.body, tvm.tir.IfThenElse)
    assert isinstance(no_cse.body.body.then_case.body, tvm.tir.Store)
    # outside the contexts both passes run again
    assert isinstance(tvm.lower(sch, [a, c])["main"].body.body.body.then_case.body, tvm.tir.LetStmt)


def test_loop_kinds():
    A = te.placeholder((64, 64), name="A")
    B = te.compute((64, 64), lambda i, j: A[i, j] + 1, name="B")
    s = te.create_schedule(B.op)
    i, j = B.op.axis
    jo, ji = s[B].split(j, factor=4)
    s[B].parallel(i)
    s[B].unroll(jo)
    s[B].vectorize(ji)
    stmt = _lowered_schedule_ops(s)
    kinds = {x.loop_var.name: x.kind for x in collect_visit(stmt, lambda x: x)
             if isinstance(x, tvm.tir.For)}
    assert kinds == {"i": tvm.tir.ForKind.PARALLEL, "j.outer": tvm.tir.ForKind.UNROLLED,
                     "j.inner": tvm.tir.ForKind.VECTORIZED}, kinds
    assert kinds["i"] == 1 and isinstance(kinds["i"], int)


def test_seq_stmt_is_indexable():
    n = te.var("n")
    A = te.placeholder((n,), name="A")
    B = te.compute((n,), lambda i: A[i] + 1, name="B")
    C = te.compute((n,), lambda i: B[i] * 2, name="C")
    s = te.create_schedule(C.op)
    body = tvm.lower(s, [A, C])["main"].body
    seqs = [x for x in collect_visit(body, lambda x: x) if isinstance(x, tvm.tir.SeqStmt)]
    assert len(seqs) == 1
    seq = seqs[0]
    assert len(seq) == 2 and len(seq.seq) == 2
    # B's loop then C's: the printed `produce B {` / `produce C {` blocks are not in the tree
    assert all(isinstance(x, tvm.tir.For) for x in seq)
    assert isinstance(seq[0].body, tvm.tir.Store) and seq[0].body.buffer_var.name == "B"
    assert seq[-1].body.buffer_var.name == "C"
    assert not any(collect_visit(body, lambda x: isinstance(x, tvm.tir.ProducerConsumer)))
    try:
        seq[2]
    except IndexError as err:
        assert "out of range" in str(err), err
    else:
        raise AssertionError("indexing past the end must raise IndexError")
    allocate = [x for x in collect_visit(body, lambda x: x) if isinstance(x, tvm.tir.Allocate)]
    assert len(allocate) == 1 and allocate[0].buffer_var.name == "B"
    assert allocate[0].dtype == "float32" and allocate[0].extents[0].same_as(n)
    stores = [x for x in collect_visit(body, lambda x: x) if isinstance(x, tvm.tir.Store)]
    assert [x.buffer_var.name for x in stores] == ["B", "C"]


def test_structural_equal_of_statements():
    s, (A, A1, A2), _ = _compute_at_schedule()
    first = tvm.lower(s, [A, A2])["main"].body
    again = tvm.lower(s, [A, A2])["main"].body
    # each lowering makes its own buffer variables: equal up to a renaming of free variables
    assert not first.same_as(again) and not tvm.ir.structural_equal(first, again)
    assert tvm.ir.structural_equal(first, again, map_free_vars=True)
    tvm.ir.assert_structural_equal(first, again, map_free_vars=True)
    assert tvm.ir.structural_equal(first, first)
    schedule_ops = tvm.lower(s, [A, A2], after="schedule_ops")["main"].body
    assert not tvm.ir.structural_equal(first, schedule_ops)
    assert not tvm.ir.structural_equal(first, A.shape[0])
    assert tvm.ir.structural_equal([first, A.shape[0]], [again, A.shape[0]], True)
    try:
        tvm.ir.assert_structural_equal(first, schedule_ops)
    except ValueError as err:
        assert "realize A2" in str(err), err
    else:
        raise AssertionError("assert_structural_equal must raise for different statements")


def test_substitute_in_a_statement():
    n = te.var("n")
    A = te.placeholder((n,), name="A")
    B = te.compute((n,), lambda i: A[i] + 1, name="B")
    s = te.create_schedule(B.op)
    body = tvm.lower(s, [A, B])["main"].body
    assert any(collect_visit(body, lambda x: isinstance(x, tvm.tir.Var) and x.same_as(n)))
    fixed = tvm.tir.stmt_functor.substitute(body, {n: 16})
    assert not any(collect_visit(fixed, lambda x: isinstance(x, tvm.tir.Var) and x.same_as(n)))
    loop = [x for x in collect_visit(fixed, lambda x: x) if isinstance(x, tvm.tir.For)][0]
    assert loop.extent.value == 16
    assert tvm.tir.stmt_functor.substitute(body, {}).same_as(body)


def test_post_order_visit_visits_children_first_and_raises_the_visitors_error():
    n = te.var("n")
    A = te.placeholder((n,), name="A")
    B = te.compute((n,), lambda i: A[i] + 1, name="B")
    body = tvm.lower(te.create_schedule(B.op), [A, B])["main"].body
    order = collect_visit(body, lambda x: x)
    assert order[-1].same_as(body)
    position = {id(x): k for k, x in enumerate(order)}
    for node in order:
        if isinstance(node, tvm.tir.For):
            assert position[id(node.body)] < position[id(node)]
            assert position[id(node.extent)] < position[id(node)]
    assert len(position) == len(order)  # a node shared by parents is visited once

    def fail(x):
        if isinstance(x, tvm.tir.Store):
            raise KeyError("stop at the store")

    try:
        tvm.tir.stmt_functor.post_order_visit(body, fail)
    except KeyError as err:
        assert "stop at the store" in str(err)
    else:
        raise AssertionError("the visitor's exception must reach the caller")
    try:
        tvm.tir.stmt_functor.post_order_visit(A, lambda x: None)
    except TypeError as err:
        assert "must be a statement or an expression, got 'Tensor'" in str(err), err
    else:
        raise AssertionError("visiting a tensor must raise TypeError")


if __name__ == "__main__":
    tvm.testing.main()
