# tvm.ir.save_json / load_json and pickling (TVM's node serialization): every example's schedule,
# saved and loaded, lowers to the same text as the original; loaded programs run and keep
# scheduling; the parts of one saved value refer to each other as before; bad text is one TVMError.
import contextlib
import glob
import io
import os
import pickle
import runpy

import numpy as np
import pytest

import tvm
import tvm.testing
from tvm import te

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "examples")


def _arguments(s):
    """The placeholders a schedule reads and its outputs, as the CLI lowers a script that does not
    call tvm.lower itself."""
    inputs = [st.op.output(0) for st in s.stages if isinstance(st.op, te.PlaceholderOp)]
    outputs = [op.output(i) for op in s.outputs for i in range(op.num_outputs)]
    return inputs + outputs


def test_every_example_lowers_the_same_after_a_round_trip():
    compared = []
    for example in sorted(glob.glob(os.path.join(EXAMPLES, "*.py"))):
        with contextlib.redirect_stdout(io.StringIO()):
            namespace = runpy.run_path(example, run_name="example")
        for name, s in namespace.items():
            if not isinstance(s, te.Schedule):
                continue
            args = _arguments(s)
            loaded_s, loaded_args = tvm.ir.load_json(tvm.ir.save_json([s, args]))
            for after in ("schedule_ops", "final"):
                expected = str(tvm.lower(s, args, after=after))
                got = str(tvm.lower(loaded_s, loaded_args, after=after))
                assert got == expected, (example, name, after, expected, got)
            compared.append(os.path.basename(example))
    # every example but the Tensor Comprehensions one holds its schedule in a variable
    assert len(compared) >= 35, compared


def _matmul():
    n = 64
    A = te.placeholder((n, n), name="A")
    B = te.placeholder((n, n), name="B")
    k = te.reduce_axis((0, n), name="k")
    C = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
    s = te.create_schedule(C.op)
    CC = s.cache_write(C, "local")
    io, jo, ii, ji = s[C].tile(C.op.axis[0], C.op.axis[1], 16, 16)
    s[CC].compute_at(s[C], jo)
    ko, ki = s[CC].split(s[CC].op.reduce_axis[0], factor=4)
    s[CC].reorder(ko, ki, *s[CC].op.axis)
    s[C].vectorize(ji)
    return s, [A, B, C]


def test_a_loaded_program_builds_and_computes_the_same():
    s, args = _matmul()
    s2, args2 = tvm.ir.load_json(tvm.ir.save_json([s, args]))
    a = np.random.uniform(size=(64, 64)).astype("float32")
    b = np.random.uniform(size=(64, 64)).astype("float32")
    c = np.zeros((64, 64), dtype="float32")
    tvm.build(s2, args2)(a, b, c)
    tvm.testing.assert_allclose(c, a @ b, rtol=1e-4)


def test_a_loaded_schedule_keeps_scheduling():
    s, (A, B, C) = _matmul()
    s2, (A2, B2, C2) = tvm.ir.load_json(tvm.ir.save_json([s, [A, B, C]]))
    for sch, out in ((s, C), (s2, C2)):
        fused = sch[out].fuse(*sch[out].leaf_iter_vars[:2])
        sch[out].parallel(fused)
    assert str(tvm.lower(s2, [A2, B2, C2])) == str(tvm.lower(s, [A, B, C]))


def test_one_saved_value_keeps_its_identities():
    s, (A, B, C) = _matmul()
    s2, (A2, B2, C2) = tvm.ir.load_json(tvm.ir.save_json([s, [A, B, C]]))
    # cache_write gave C's stage a new operation; the schedule's outputs stay the operations it
    # was created for, as in TVM
    assert s.outputs[0].same_as(C.op) and not s[C].op.same_as(C.op)
    assert s2.outputs[0].same_as(C2.op) and not s2[C2].op.same_as(C2.op)
    assert s2[A2].op.same_as(A2.op)
    # the body reads the loaded A through the loaded axes
    body = C2.op.body[0]
    assert body.source[0].a.producer.op.same_as(A2.op)
    assert body.source[0].a.indices[0].same_as(C2.op.axis[0].var)
    assert not C2.op.same_as(C.op)


def test_pickling_schedules_tensors_operations_expressions_and_statements():
    s, (A, B, C) = _matmul()
    s2 = pickle.loads(pickle.dumps(s))
    assert isinstance(s2, te.Schedule)
    assert [st.op.name for st in s2.stages] == [st.op.name for st in s.stages]
    C2 = pickle.loads(pickle.dumps(C))
    assert isinstance(C2, te.Tensor) and str(C2) == str(C)
    op2 = pickle.loads(pickle.dumps(C.op))
    assert isinstance(op2, te.ComputeOp) and str(op2.body) == str(C.op.body)
    i = te.var("i")
    e = pickle.loads(pickle.dumps(te.max(i * 3 - 1, 0)))
    assert isinstance(e, tvm.tir.Max) and str(e) == str(te.max(i * 3 - 1, 0))
    stmt = tvm.lower(s, [A, B, C])["main"].body
    stmt2 = pickle.loads(pickle.dumps(stmt))
    assert type(stmt2) is type(stmt) and str(stmt2) == str(stmt)
    r = pickle.loads(pickle.dumps(tvm.ir.Range(2, 9)))
    assert (r.min.value, r.extent.value) == (2, 7)
    iv = pickle.loads(pickle.dumps(C.op.axis[0]))
    assert isinstance(iv, tvm.tir.IterVar) and iv.var.name == "i" and iv.dom.extent.value == 64


def test_a_scan_an_extern_and_a_tensorized_stage_round_trip():
    m, n = te.size_var("m"), te.size_var("n")
    X = te.placeholder((m, n), name="X")
    state = te.placeholder((m, n))
    init = te.compute((1, n), lambda _, i: X[0, i])
    update = te.compute((m, n), lambda t, i: state[t - 1, i] + X[t, i])
    res = te.scan(init, update, state, inputs=[X])
    E = te.extern(res.shape, [res], lambda ins, outs: tvm.tir.call_packed("copy", ins[0], outs[0]), name="E")
    s = te.create_schedule(E.op)
    s2, args2 = tvm.ir.load_json(tvm.ir.save_json([s, [X, E]]))
    assert isinstance(s2[args2[1]].op, te.ExternOp)
    assert isinstance(s2.stages[-2].op, te.ScanOp)
    assert str(tvm.lower(s2, args2)) == str(tvm.lower(s, [X, E]))


def test_text_that_is_not_a_saved_value_is_one_error():
    with pytest.raises(tvm.error.TVMError, match="load_json: the text is not JSON"):
        tvm.ir.load_json("{nope")
    with pytest.raises(tvm.error.TVMError, match="TVM's own JSON does not load here"):
        tvm.ir.load_json('{"root": 1, "nodes": [{"type_key": ""}], "attrs": {"tvm_version": "0.9"}}')
    i = te.var("i")
    assert tvm.ir.load_json(tvm.ir.save_json([i, None]))[1] is None
    with pytest.raises(tvm.error.TVMError, match="array 1 contains itself"):
        tvm.ir.load_json('{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "Array", '
                         '"attrs": {"items": [1]}}], "attrs": {"format": "boundscope-ir 1"}}')
    with pytest.raises(TypeError, match="save_json: cannot save a dict"):
        tvm.ir.save_json({"a": 1})


if __name__ == "__main__":
    tvm.testing.main()
