# te.scan (TVM's ScanOp), in the style of TVM's scan tests (test_te_schedule_ops.py's
# test_schedule_scan / test_scan_inline*, test_te_schedule_bound_inference.py's test_bound_scan,
# test_te_schedule_graph.py's test_scan*, test_te_group.py's test_scan_group): TVM's own
# assertions, then what the lowered program computes, checked against numpy.
import numpy as np

import tvm
import tvm.testing
from tvm import te


def _cumsum(m, n):
    X = te.placeholder((m, n), name="X")
    state = te.placeholder((m, n), name="state")
    init = te.compute((1, n), lambda _, i: X[0, i], name="init")
    update = te.compute((m, n), lambda t, i: state[t - 1, i] + X[t, i], name="update")
    res = te.scan(init, update, state, inputs=[X], name="scan")
    return X, state, init, update, res


def test_scan_op():
    m, n = te.var("m"), te.var("n")
    X, state, init, update, res = _cumsum(m, n)
    assert tuple(res.shape) == (m, n)
    assert isinstance(res.op, te.ScanOp)
    assert res.op.num_outputs == 1
    assert res.op.scan_axis.var.name == "scan.idx"
    assert res.op.scan_axis.iter_type == 3  # kOrdered
    assert [iv.var.name for iv in res.op.spatial_axis_] == ["scan.out0.i1"]
    assert list(res.op.input_tensors) == [init, update]
    assert list(res.op.state_placeholder) == [state]
    assert list(res.op.inputs) == [X]
    s = te.create_schedule(res.op)
    # The scan's only loop is its scan axis; the spatial axes are opaque.
    assert list(s[res].leaf_iter_vars) == [res.op.scan_axis]


def test_schedule_scan():
    m, n = te.var("m"), te.var("n")
    X, state, init, update, res = _cumsum(m, n)
    s = te.create_schedule(res.op)
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[res.op.scan_axis].min.value == 1
    # Each step computes one row of the update; the init is computed once, before the loop.
    assert bounds[update.op.axis[0]].extent.value == 1
    assert bounds[init.op.axis[0]].extent.value == 1
    assert tvm.ir.structural_equal(bounds[update.op.axis[1]].extent, n)
    stmt = tvm.te.schedule.ScheduleOps(s, bounds)
    text = str(tvm.lower(te.create_schedule(res.op), [X, res], simple_mode=True))
    assert "scan.idx" in text
    # The update reads the row before through the scan's own buffer, not the placeholder.
    assert "state" not in text


def test_bound_scan():
    m, n = te.var("m"), te.var("n")
    X = te.compute((m, n), lambda i, j: tvm.tir.const(1, "float32"), name="x")
    state = te.placeholder((m, n))
    init = te.compute((1, n), lambda _, i: X[0, i])
    update = te.compute((m, n), lambda t, i: state[t - 1, i] + X[t, i])
    res = te.scan(init, update, state)
    s = te.create_schedule(res.op)
    XX = s.cache_read(X, "local", update)
    xo, xi = s[update].split(update.op.axis[1], factor=4)
    s[XX].compute_at(s[update], xo)
    s = s.normalize()
    bounds = tvm.te.schedule.InferBound(s)
    assert bounds[XX.op.axis[1]].extent.value == 4
    assert bounds[XX.op.axis[0]].extent.value == 1


def test_scan_runs_and_matches_numpy():
    X, state, init, update, res = _cumsum(12, 7)
    s = te.create_schedule(res.op)
    xo, xi = s[update].split(update.op.axis[1], factor=4)
    f = tvm.build(s, [X, res])
    x = np.random.uniform(size=(12, 7)).astype("float32")
    a = tvm.nd.array(x)
    r = tvm.nd.array(np.zeros((12, 7), dtype="float32"))
    f(a, r)
    tvm.testing.assert_allclose(r.numpy(), np.cumsum(x, axis=0), rtol=1e-5)


def test_scan_read_by_a_compute():
    # The scan is not an output: InferBound gathers its bounds from the consumer's request.
    X, state, init, update, res = _cumsum(10, 6)
    Y = te.compute((10, 6), lambda i, j: res[i, j] * 2, name="Y")
    s = te.create_schedule(Y.op)
    bounds = tvm.te.schedule.InferBound(s.normalize())
    assert bounds[res.op.scan_axis].min.value == 1
    assert bounds[res.op.scan_axis].extent.value == 9
    # The spatial axis is a fix point, so it is sliced to what Y reads.
    assert bounds[res.op.spatial_axis_[0]].extent.value == 6
    f = tvm.build(s, [X, Y])
    x = np.random.uniform(size=(10, 6)).astype("float32")
    y = tvm.nd.array(np.zeros((10, 6), dtype="float32"))
    f(tvm.nd.array(x), y)
    tvm.testing.assert_allclose(y.numpy(), 2 * np.cumsum(x, axis=0), rtol=1e-5)


def test_scan_read_in_part_computes_and_stores_only_that_part():
    # Y reads columns 1..4 of rows 2..8: the spatial axis is a fix point, so the scan computes
    # and stores only those columns (TVM computes them all into the smaller buffer).
    X, state, init, update, res = _cumsum(9, 8)
    Y = te.compute((7, 4), lambda t, i: res[t + 2, i + 1], name="Y")
    s = te.create_schedule(Y.op)
    text = str(tvm.lower(s, [X, Y], simple_mode=True))
    assert "allocate scan[float32 * 36]" in text, text
    f = tvm.build(s, [X, Y])
    x = np.random.uniform(size=(9, 8)).astype("float32")
    y = tvm.nd.array(np.zeros((7, 4), dtype="float32"))
    f(tvm.nd.array(x), y)
    tvm.testing.assert_allclose(y.numpy(), np.cumsum(x, axis=0)[2:, 1:5], rtol=1e-5)


def test_auto_inline_leaves_the_scan_init_alone():
    # The init is injective and unscheduled, but the scan stores it into its state.
    X, state, init, update, res = _cumsum(6, 4)
    s = te.create_schedule(res.op)
    tvm.te.schedule.AutoInlineInjective(s)
    assert s[init].attach_type == 1  # still at its root (kGroupRoot)
    f = tvm.build(s, [X, res])
    x = np.random.uniform(size=(6, 4)).astype("float32")
    r = tvm.nd.array(np.zeros((6, 4), dtype="float32"))
    f(tvm.nd.array(x), r)
    tvm.testing.assert_allclose(r.numpy(), np.cumsum(x, axis=0), rtol=1e-5)


def test_scan_body_and_attach_path():
    m, n = te.var("m"), te.var("n")
    x = te.compute((m, n), lambda i, j: tvm.tir.const(1, "float32"), name="x")
    state = te.placeholder((m, n))
    init = te.compute((1, n), lambda _, i: x[0, i], name="s_init")
    x_trans = te.compute((m, n), lambda i, j: x[i, j] + 1, name="x_trans")
    up1 = te.compute((m, n), lambda t, i: state[t - 1, i] + 1, name="up1")
    update = te.compute((m, n), lambda t, i: up1[t, i] + x_trans[t, i], name="update")
    res = te.scan(init, update, state)
    body = tvm.te.schedule.ScanGetBody(res.op)
    assert set(body) == set([update.op, up1.op])
    s = te.create_schedule(res.op)
    s[x_trans].compute_at(s[update], update.op.axis[0])
    apath = tvm.te.schedule.CreateAttachPath(s)
    assert tuple(apath[update.op]) == tuple([res.op.scan_axis])
    assert tuple(apath[x_trans.op]) == tuple([update.op.axis[0], res.op.scan_axis])
    fxpt = tvm.te.schedule.ScanFixPointAnalysis(res.op)
    assert fxpt[res.op.spatial_axis_[0]].value != 0


def test_scan_fix_point():
    m, n, l = te.var("m"), te.var("n"), te.var("l")
    x = te.compute((l, m, n), lambda *i: tvm.tir.const(1, "float32"), name="x")
    state = te.placeholder((l, m, n))
    init = te.compute((1, m, n), lambda _, i, j: x[0, i, j], name="s_init")

    def fix_points(update):
        res = te.scan(init, update, state)
        fxpt = tvm.te.schedule.ScanFixPointAnalysis(res.op)
        return [fxpt[iv].value for iv in res.op.spatial_axis_]

    # Each row reads the same index of the row before: both axes are fix points.
    assert fix_points(te.compute((l, m, n), lambda t, i, j: x[t, j, i] + state[t - 1, i, j])) == [1, 1]
    # A transposed read of the state: neither is.
    assert fix_points(te.compute((l, m, n), lambda t, i, j: x[t, j, i] + state[t - 1, j, i])) == [0, 0]
    # Through two stages, one transposing twice, the other reading a constant index.
    h1 = te.compute((l, n, m), lambda t, j, i: state[t - 1, i, j], name="h1")
    h2 = te.compute((l, m, n), lambda t, i, j: state[t - 1, i, 10] * 2, name="h2")
    assert fix_points(te.compute((l, m, n), lambda t, i, j: h1[t, j, i] + h2[t, i, j])) == [1, 0]
    # A stage reading one index on two axes reaches the other axis.
    h1 = te.compute((l, n, m), lambda t, j, i: state[t - 1, j, j], name="h1")
    h2 = te.compute((l, m, n), lambda t, i, j: state[t - 1, i, j] * 2, name="h2")
    assert fix_points(te.compute((l, m, n), lambda t, i, j: h1[t, j, i] + h2[t, i, j])) == [0, 0]


def test_scan_multi_output_fix_point():
    m, n = te.var("m"), te.var("n")
    x1, s1, x2, s2 = (te.placeholder((m, n)) for _ in range(4))
    s1_init = te.compute((1, n), lambda _, i: x1[0, i])
    s2_init = te.compute((1, n), lambda _, i: x2[0, i])
    s1_update = te.compute((m, n), lambda t, i: s1[t - 1, i] + x1[t, i])
    s2_update = te.compute((m, n), lambda t, i: x2[t, i] + s2[t - 1, i])
    r0, r1 = te.scan([s1_init, s2_init], [s1_update, s2_update], [s1, s2])
    assert r0.op.same_as(r1.op)
    assert r1.value_index == 1
    fxpt = tvm.te.schedule.ScanFixPointAnalysis(r0.op)
    assert fxpt[r1.op.spatial_axis_[0]].value == 1
    assert fxpt[r1.op.spatial_axis_[1]].value == 1


def test_scan_group():
    m, n = te.size_var("m"), te.size_var("n")
    x = te.compute((m, n), lambda i, j: tvm.tir.const(1, "float32"), name="x")
    state = te.placeholder((m, n))
    init = te.compute((1, n), lambda _, i: x[0, i])
    update1 = te.compute((m, n), lambda t, i: state[t - 1, i] + x[t, i])
    update2 = te.compute((m, n), lambda t, i: update1[t, i] + 1)
    update3 = te.compute((m, n), lambda t, i: update2[t, i] + 1)
    res = te.scan(init, update3, state, inputs=x)
    s = te.create_schedule(res.op)
    assert s[update1].group is not None
    assert s[update2].group == s[update1].group
    s[update1].compute_at(s[update2], update2.op.axis[1])
    g2 = s.create_group(outputs=update2, inputs=[state, x])
    assert g2.group is not None
    assert g2.group == s[update3].group
    assert s[update2].group == g2
    assert s[update1].group == g2
    g2.compute_at(s[update3], update3.op.axis[1])
    assert g2.attach_stage == s[update3]
    try:
        s[update2].compute_at(s[init], init.op.axis[0])
        assert False
    except tvm.error.TVMError:
        pass


def _two_states(m, n, x):
    s_state1 = te.placeholder((m, n), name="state1")
    s_state2 = te.placeholder((m, n), name="state2")
    s_init1 = te.compute((1, n), lambda _, i: x[0, i], name="init1")
    s_init2 = te.compute((1, n), lambda _, i: x[0, i], name="init2")
    return s_state1, s_state2, s_init1, s_init2


def test_scan_inline():
    m, n = 9, 5
    x = te.placeholder((m, n), name="x")
    s_state1, s_state2, s_init1, s_init2 = _two_states(m, n, x)
    s_xx = te.compute((m, n), lambda t, i: s_state1[t - 1, i] + x[t, i], name="xx")
    s_x1 = te.compute((m, n), lambda t, i: s_xx[t, i] + 1, name="x1")
    s_x2 = te.compute((m, n), lambda t, i: s_xx[t, i] + s_state2[t - 1, 2], name="x2")
    s_update1 = te.compute((m, n), lambda t, i: s_x1[t, i], "u1")
    s_update2 = te.compute((m, n), lambda t, i: s_x2[t, i], "u2")
    res1, res2 = te.scan([s_init1, s_init2], [s_update1, s_update2], [s_state1, s_state2])
    s = te.create_schedule(res1.op)
    s[s_xx].compute_inline()
    s[s_x1].compute_inline()
    s[s_x2].compute_inline()
    f = tvm.build(s, [x, res1, res2])
    xv = np.random.uniform(size=(m, n)).astype("float32")
    r1 = tvm.nd.array(np.zeros((m, n), dtype="float32"))
    r2 = tvm.nd.array(np.zeros((m, n), dtype="float32"))
    f(tvm.nd.array(xv), r1, r2)
    e1 = np.zeros((m, n), dtype="float32")
    e2 = np.zeros((m, n), dtype="float32")
    e1[0] = xv[0]
    e2[0] = xv[0]
    for t in range(1, m):
        xx = e1[t - 1] + xv[t]
        e1[t] = xx + 1
        e2[t] = xx + e2[t - 1, 2]
    tvm.testing.assert_allclose(r1.numpy(), e1, rtol=1e-5)
    tvm.testing.assert_allclose(r2.numpy(), e2, rtol=1e-5)


def test_lstm_like_scan_lowers():
    # TVM's test_lstm_cell_inline, smaller: reductions and inlined gates inside a scan body.
    num_step, batch, num_hidden = 6, 2, 8
    X = te.placeholder((num_step - 1, batch, num_hidden), name="X")
    W = te.placeholder((num_hidden, num_hidden), name="W")
    s_state = te.placeholder((num_step, batch, num_hidden))
    s_init = te.compute((1, batch, num_hidden), lambda *i: 0.0, name="init")
    k = te.reduce_axis((0, num_hidden), name="k")
    s_h2h = te.compute((num_step, batch, num_hidden),
                       lambda t, i, j: te.sum(s_state[t - 1, i, k] * W[j, k], axis=k), name="h2h")
    gate = te.compute((num_step, batch, num_hidden),
                      lambda t, i, j: te.tanh(s_h2h[t, i, j] + X[t - 1, i, j]), name="gate")
    update = te.compute((num_step, batch, num_hidden), lambda *i: gate(*i), name="update")
    res = te.scan(s_init, update, s_state, inputs=[X], name="rnn")
    s = te.create_schedule(res.op)
    s[gate].compute_inline()
    f = tvm.build(s, [X, W, res])
    xv = np.random.uniform(-1, 1, size=(num_step - 1, batch, num_hidden)).astype("float32")
    wv = np.random.uniform(-1, 1, size=(num_hidden, num_hidden)).astype("float32")
    out = tvm.nd.array(np.zeros((num_step, batch, num_hidden), dtype="float32"))
    f(tvm.nd.array(xv), tvm.nd.array(wv), out)
    h = np.zeros((num_step, batch, num_hidden), dtype="float32")
    for t in range(1, num_step):
        h[t] = np.tanh(h[t - 1] @ wv.T + xv[t - 1])
    tvm.testing.assert_allclose(out.numpy(), h, rtol=1e-4, atol=1e-5)


def test_scan_errors():
    m, n = te.var("m"), te.var("n")
    X, state, init, update, res = _cumsum(m, n)
    bad_state = te.placeholder((m, n + 1), name="bad")
    try:
        te.scan(init, update, bad_state)
        assert False
    except tvm.error.TVMError as e:
        assert "dimension 1" in str(e)
    try:
        te.scan([init, init], [update], [state])
        assert False
    except ValueError:
        pass
    s = te.create_schedule(res.op)
    try:
        s[res].split(res.op.spatial_axis_[0], factor=4)
        assert False
    except tvm.error.TVMError as e:
        assert "is an opaque axis of stage 'scan' (a scan's spatial axis)" in str(e), str(e)
    for move in (lambda: s[update].compute_root(), lambda: s[update].compute_inline(),
                 lambda: s[update].compute_at(s[res], res.op.scan_axis)):
        try:
            move()
            assert False
        except tvm.error.TVMError as e:
            assert "update of scan 'scan'" in str(e)


if __name__ == "__main__":
    tvm.testing.main()
