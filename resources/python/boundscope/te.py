"""The tensor-expression language and schedules (engine/te, engine/schedule) with TVM's Python
API: placeholder, compute, reduce_axis, sum/max/min, comm_reducer, thread_axis,
create_schedule, and the Schedule and Stage classes with every primitive."""

import inspect as _inspect

import _boundscope as _core

from . import expr as _expr
from .container import Map as _Map
from .ir_module import IRModule as _IRModule, PrimFunc as _PrimFunc

Tensor = _core.Tensor
Operation = _core.Operation
PlaceholderOp = _core.PlaceholderOp
ComputeOp = _core.ComputeOp
ScanOp = _core.ScanOp
ExternOp = _core.ExternOp
TensorComputeOp = _core.TensorComputeOp
Schedule = _core.Schedule
Stage = _core.Stage
IterVarAttr = _core.IterVarAttr
Split = _core.Split
Fuse = _core.Fuse
Rebase = _core.Rebase
Singleton = _core.Singleton
AutoInlineElemWise = _core.AutoInlineElemWise
AutoInlineBroadcast = _core.AutoInlineBroadcast
AutoInlineInjective = _core.AutoInlineInjective
CreateReadGraph = _core.CreateReadGraph
PostDFSOrder = _core.PostDFSOrder
CreateAttachPath = _core.CreateAttachPath
ScanGetBody = _core.ScanGetBody
ScanFixPointAnalysis = _core.ScanFixPointAnalysis

__all__ = [
    "Tensor", "Operation", "PlaceholderOp", "ComputeOp", "ScanOp", "Schedule", "Stage", "IterVarAttr",
    "Split", "Fuse", "Rebase", "Singleton", "placeholder", "compute", "reduce_axis",
    "thread_axis", "sum", "max", "min", "comm_reducer", "create_schedule", "InferBound",
    "ScheduleOps", "lower", "show", "bound_trace", "AutoInlineElemWise", "AutoInlineBroadcast",
    "AutoInlineInjective", "CreateReadGraph", "PostDFSOrder", "CreateAttachPath",
    "ScanGetBody", "ScanFixPointAnalysis", "scan", "extern", "ExternOp",
]


def _not_available(cls, names):
    """TVM's methods of `cls` the engine does not offer: reading one raises AttributeError
    saying so (hasattr() is False, as for any missing attribute)."""
    for name in names:
        def missing(self, _name=name):
            raise AttributeError("'%s' object has no attribute '%s' (not available in Boundscope "
                                 "yet)" % (type(self).__name__, _name))

        setattr(cls, name, property(missing))


_not_available(Stage, ("env_threads", "rolling_buffer", "transform_layout"))


class TensorSlice:
    """`A[i]` of a tensor with more dimensions: index it again (`A[i][j]`), as in TVM."""

    def __init__(self, tensor, indices):
        self.tensor = tensor
        self.indices = indices

    def __getitem__(self, index):
        if not isinstance(index, tuple):
            index = (index,)
        return _index(self.tensor, self.indices + index)

    @property
    def dtype(self):
        return self.tensor.dtype


class TensorRegion:
    """`A[i, 0:16]`: a region of a tensor (slices along some axes), what a tensor intrinsic is
    called with inside te.compute (TVM's TensorComputeOp)."""

    def __init__(self, tensor, indices):
        self.tensor = tensor
        self.indices = indices

    def __repr__(self):
        return "%s[%s]" % (self.tensor.op.name, ", ".join(map(str, self.indices)))


def _index(tensor, indices):
    if any(isinstance(i, slice) for i in indices):
        return TensorRegion(tensor, indices)
    if len(indices) < tensor.ndim:
        return TensorSlice(tensor, indices)
    return tensor._load(list(indices))


def _tensor_getitem(self, index):
    if not isinstance(index, tuple):
        index = (index,)
    return _index(self, index)


def _tensor_call(self, *indices):
    if len(indices) == 1 and isinstance(indices[0], (tuple, list)):
        indices = tuple(indices[0])
    return self._load(list(indices))


def _tensor_iter(self):
    # Without this, Python would iterate a tensor through __getitem__ (A[0], A[1], ...) forever:
    # `tvm.lower(s, C)` instead of `tvm.lower(s, [A, C])` would never return.
    raise TypeError("'%s' is a tensor, which is not iterable (a list of tensors was expected?)"
                    % self.name)


Tensor.__getitem__ = _tensor_getitem
Tensor.__call__ = _tensor_call
Tensor.__iter__ = _tensor_iter


def _shape_list(shape):
    if isinstance(shape, (tuple, list)):
        return list(shape)
    return [shape]


def placeholder(shape, dtype=None, name="placeholder"):
    """te.placeholder(shape, dtype="float32", name="placeholder")."""
    return _core._placeholder(_shape_list(shape), dtype or "float32", name)


# TVM's Operation.attrs: the `attrs` dict te.compute, te.scan and te.extern were given, as a Map
# of converted values. No pass of Boundscope reads them; they stay with the operation (the key
# keeps its Python object, so the identity lookup is stable) for scripts to read back.
_OP_ATTRS = {}


def _with_attrs(result, attrs):
    if attrs:
        first = result if isinstance(result, Tensor) else result[0]
        _OP_ATTRS[first.op] = _expr.convert(dict(attrs))
    return result


Operation.attrs = property(lambda self: _OP_ATTRS.get(self, _Map()),
                           doc="The attrs the operation was created with (a Map).")


def compute(shape, fcompute, name="compute", tag="", attrs=None, varargs_names=None):
    """te.compute(shape, fcompute, name="compute", tag="", attrs=None): the axes are named after
    fcompute's parameters, as in TVM (a `*args` fcompute gets `i0`, `i1`, ...)."""
    return _with_attrs(_compute(shape, fcompute, name, tag, varargs_names), attrs)


def _compute(shape, fcompute, name, tag, varargs_names):
    shape = _shape_list(shape)
    # TVM's te.compute turns Python floats into ints "for python3" (tutorials write `N / bn`).
    shape = [int(s) if isinstance(s, float) else s for s in shape]
    params = _inspect.signature(fcompute).parameters
    # TVM's te.compute asserts these of fcompute's argspec, with these messages.
    for p in params.values():
        if p.kind == p.VAR_KEYWORD:
            raise AssertionError("Variable keyword arguments not supported in fcompute")
        if p.kind == p.KEYWORD_ONLY:
            raise AssertionError("Keyword arguments are not supported in fcompute")
        if p.default is not p.empty:
            raise AssertionError("Default arguments not supported in fcompute")
    names = [p.name for p in params.values()
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p.kind == p.VAR_POSITIONAL for p in params.values()):
        names = list(varargs_names) if varargs_names else ["i%d" % k for k in range(len(shape))]
    from .tensor_intrin import TensorIntrinCall, tensor_compute
    if len(names) < len(shape):
        # TVM's TensorComputeOp: fcompute over the leading axes calls a tensor intrinsic.
        return tensor_compute(shape, fcompute, names, name, tag)
    if len(names) != len(shape):
        raise ValueError("fcompute takes %d arguments but the shape has %d dimensions"
                         % (len(names), len(shape)))
    calls_intrin = []

    def body(*args):
        value = fcompute(*args)
        if isinstance(value, TensorIntrinCall):
            calls_intrin.append(value)
            return _core.const(0, "int32")  # this compute is dropped: a TensorComputeOp it is
        return value

    op_output = _core._compute(shape, body, name, tag, names)
    if calls_intrin:
        return tensor_compute(shape, fcompute, names, name, tag)
    return op_output


def scan(init, update, state_placeholder, inputs=None, name="scan", tag="", attrs=None):
    """te.scan(init, update, state_placeholder, inputs=None, name="scan", tag="", attrs=None): a
    recurrence over the rows of each state, as in TVM; each argument is a tensor or a list of them
    (one per output). Returns the output, or the list of outputs."""
    def as_list(value):
        return [value] if isinstance(value, Tensor) else list(value)
    init, update, state_placeholder = as_list(init), as_list(update), as_list(state_placeholder)
    if len(init) != len(update) or len(init) != len(state_placeholder):
        raise ValueError("init, update, state_placeholder must have same length")
    res = _core._scan(init, update, state_placeholder,
                      None if inputs is None else as_list(inputs), name, tag)
    return _with_attrs(res[0] if len(res) == 1 else res, attrs)


def extern(shape, inputs, fcompute, name="extern", dtype=None, in_buffers=None,
           out_buffers=None, tag="", attrs=None):
    """te.extern(shape, inputs, fcompute, name="extern", dtype=None, in_buffers=None,
    out_buffers=None, tag="", attrs=None): a stage computed by a statement of your own. `fcompute(ins,
    outs)` gets one tvm.tir.Buffer per input and per output and returns a statement or an
    expression (usually tvm.tir.call_packed(...), or an ir_builder's program). `shape` is one
    shape or a list of them (one per output); `dtype` one dtype or a list (default: the first
    input's, else float32). Returns the output, or the list of outputs."""
    from . import buffer as _buffer
    if not isinstance(shape, (list, tuple)) and not hasattr(shape, "__len__"):
        shape = (shape,)
    shape = list(shape)
    one = not shape or not isinstance(shape[0], (list, tuple)) and not (
        hasattr(shape[0], "__len__") and not isinstance(shape[0], _core.PrimExpr))
    shapes = [shape] if one else [list(s) for s in shape]
    if isinstance(inputs, Tensor):
        inputs = [inputs]
    inputs = list(inputs)
    if dtype is None:
        # As TVM: the inputs' one dtype, else say so.
        if not inputs:
            raise ValueError("Cannot infer output type, please provide dtype argument")
        dtype = inputs[0].dtype
        if any(t.dtype != dtype for t in inputs):
            raise ValueError("Cannot infer output data type, please provide dtype argument")
    dtypes = [dtype] * len(shapes) if isinstance(dtype, str) else list(dtype)
    if len(dtypes) != len(shapes):
        raise ValueError("extern: %d dtypes for %d outputs" % (len(dtypes), len(shapes)))
    if in_buffers is None:
        in_buffers = [_buffer.decl_buffer(t.shape, t.dtype, t.op.name) for t in inputs]
    else:
        in_buffers = [in_buffers] if isinstance(in_buffers, _buffer.Buffer) else list(in_buffers)
        if len(in_buffers) != len(inputs):
            raise ValueError("extern: %d in_buffers for %d inputs" % (len(in_buffers), len(inputs)))
    if out_buffers is None:
        out_buffers = [_buffer.decl_buffer(s, t, name) for s, t in zip(shapes, dtypes)]
    else:
        out_buffers = ([out_buffers] if isinstance(out_buffers, _buffer.Buffer)
                       else list(out_buffers))
        if len(out_buffers) != len(shapes):
            raise ValueError("extern: %d out_buffers for %d outputs"
                             % (len(out_buffers), len(shapes)))
    body = fcompute(in_buffers, out_buffers)
    if not isinstance(body, _core.Stmt):
        body = _core.Evaluate(body)
    op = _core._extern_op(name, tag, inputs, in_buffers, out_buffers, body)
    res = [op.output(i) for i in range(len(out_buffers))]
    return _with_attrs(res[0] if len(res) == 1 else res, attrs)


def reduce_axis(dom, name="rv", thread_tag="", span=None):
    """te.reduce_axis((begin, end), name="rv")."""
    return _core._reduce_axis(dom, name)


def thread_axis(dom=None, tag="", name="", span=None):
    """te.thread_axis("threadIdx.x") or te.thread_axis((0, 32), "threadIdx.x")."""
    if isinstance(dom, str):
        dom, tag = None, dom
    return _core._thread_axis(dom, tag, name)


def _is_axis(axis):
    return isinstance(axis, (_expr.IterVar, list, tuple))


def _combine_directly(fcombine, *values):
    """A reducer called with expressions instead of axes combines them, left to right (TVM's
    `_reduce_directly`): `te.max(a, b)`, `mysum(m, n)`. Unused (None) parameters are skipped."""
    values = [v for v in values if v is not None]
    result = values[0]
    for value in values[1:]:
        result = fcombine(result, value)
    return result


def _init_values(init, dtypes):
    """A reduction's `init=`: None (start from the identity), or one value per reduced value;
    Python numbers become constants of the reduced value's type."""
    if init is None:
        return []
    values = list(init) if isinstance(init, (tuple, list)) else [init]
    return [_expr.const(v, dtypes[i] if i < len(dtypes) else None)
            if isinstance(v, (int, float)) else v for i, v in enumerate(values)]


def _reducer(kind, binary):
    def reducer(expr, axis=None, where=None, init=None, *args):
        if not _is_axis(axis):
            return _combine_directly(binary, expr, axis, where, init, *args)
        start = _init_values(init, [expr.dtype])
        if len(start) > 1:
            raise ValueError("%s: init needs one value per reduced value (1), got %d"
                             % (kind, len(start)))
        return _core._reduce(kind, expr, axis, where, start[0] if start else None)

    reducer.__name__ = kind
    return reducer


sum = _reducer("sum", lambda a, b: a + b)  # noqa: A001 - TVM's name
max = _reducer("max", _expr.max)  # noqa: A001 - TVM's name
min = _reducer("min", _expr.min)  # noqa: A001 - TVM's name


def comm_reducer(fcombine, fidentity, name="reduce"):
    """te.comm_reducer(fcombine, fidentity, name): a reducer over one value or a tuple."""

    def reducer(expr, axis, where=None, init=None, *args):
        if not _is_axis(axis):
            return _combine_directly(fcombine, expr, axis, where, init, *args)
        values = list(expr) if isinstance(expr, (tuple, list)) else [expr]
        dtypes = [v.dtype for v in values]
        code = fcombine.__code__
        lhs_name, rhs_name = (code.co_varnames + ("x", "y"))[:2]
        if len(values) == 1:
            lhs = [_expr.Var(lhs_name, dtypes[0])]
            rhs = [_expr.Var(rhs_name, dtypes[0])]
            result = [fcombine(lhs[0], rhs[0])]
            identity = [fidentity(dtypes[0])]
        else:
            lhs = [_expr.Var("%s_%d" % (lhs_name, k), t) for k, t in enumerate(dtypes)]
            rhs = [_expr.Var("%s_%d" % (rhs_name, k), t) for k, t in enumerate(dtypes)]
            result = list(fcombine(tuple(lhs), tuple(rhs)))
            identity = list(fidentity(*dtypes))
        result = [_expr.const(r) if isinstance(r, (int, float)) else r for r in result]
        identity = [_expr.const(i, t) if isinstance(i, (int, float)) else i
                    for i, t in zip(identity, dtypes)]
        combiner = _expr.CommReducer(lhs, rhs, result, identity)
        outs = _core._make_reduce(combiner, values, axis, where, _init_values(init, dtypes), name)
        return outs[0] if len(outs) == 1 else tuple(outs)

    reducer.__name__ = name
    return reducer


def create_schedule(ops):
    """te.create_schedule(op or [ops]); the last one created is the script's current program.
    Inside `tvm.transform.PassContext(config={"te.keep_schedule_record": True})` the schedule
    keeps a record of its primitives (`s.schedule_record`, `s.primitive_record`)."""
    if not isinstance(ops, (list, tuple)):
        ops = [ops]
    from tvm.transform import PassContext
    keep = bool(PassContext.current().config.get("te.keep_schedule_record", False))
    return _core._create_schedule(list(ops), keep)


def InferBound(sch, rules="tvm"):  # noqa: N802 - TVM's name
    """tvm.te.schedule.InferBound(s): a Map {IterVar: Range}. Like TVM, the schedule should be
    normalized first (s.normalize())."""
    return _Map(_core._infer_bound(sch, rules))


def bound_trace(sch, rules="tvm"):
    """The BoundTrace of a (not yet normalized) schedule as JSON text."""
    return _core._bound_trace_json(sch, rules)


def lower(sch, args=None, name="main", binds=None, simple_mode=False, rules="tvm",
          after="final", keep_trivial_loops=False):
    """tvm.lower(s, [A, C], simple_mode=True): an IRModule whose `mod[name]` is the lowered
    PrimFunc (`.body`, `.params`) and whose str() is the printed IR. Records (s, args) as the
    program the Boundscope CLI and app show."""
    if args is None:
        args = _core._default_args(sch)
    tensors = [a for a in args if isinstance(a, Tensor)]
    scalars = [a for a in args if isinstance(a, _expr.Var)]
    keep, disabled, user_passes = pass_context_options(name)
    keep_trivial_loops = keep_trivial_loops or keep
    body, params = _core._lower(sch, tensors, rules, keep_trivial_loops, after, True, scalars,
                                disabled, user_passes)
    return _IRModule({name: _PrimFunc(params, body, name)})


def pass_context_options(name):
    """What the current PassContext asks of lowering: (keep trivial loops, the disabled passes,
    the tir.add_lower_pass entries as (phase, name, function of the root statement))."""
    from tvm.transform import PassContext
    context = PassContext.current()
    keep = bool(context.config.get("tir.debug_keep_trivial_loop", False))
    disabled = list(context.disabled_pass)
    if context.config.get("tir.disable_cse_tir", False):
        disabled.append("tir.CommonSubexprElimTIR")
    # A Pass runs as in TVM's Sequential: when the context enables it (opt_level, disabled_pass).
    user_passes = [(phase, _pass_name(p), _statement_pass(p, name))
                   for phase, p in context.config.get("tir.add_lower_pass", [])
                   if getattr(p, "info", None) is None or context.pass_enabled(p.info)]
    return keep, disabled, user_passes


def _pass_name(p):
    info = getattr(p, "info", None)
    return info.name if info is not None else getattr(p, "__name__", type(p).__name__)


def _statement_pass(p, name):
    """A tir.add_lower_pass entry as a function of the root statement: a Pass runs on a module of
    one PrimFunc `name` (its params are not known in the middle of lowering: empty); a plain
    function (TVM 0.6's form) on the statement."""
    from tvm.transform import Pass

    def run(root):
        if isinstance(p, Pass):
            out = p(_IRModule({name: _PrimFunc([], root, name)}))
            if isinstance(out, _PrimFunc):
                return out._root
            if not isinstance(out, _IRModule) or name not in out:
                raise TypeError("the pass %s returned %s, without the function %r that "
                                "tvm.lower goes on with" % (_pass_name(p), _what(out), name))
            return out[name]._root
        out = p(_core._tvm_stmt(root))
        if not isinstance(out, _core.Stmt):
            raise TypeError("the pass %s returned %s; a function pass returns a statement"
                            % (_pass_name(p), _what(out)))
        return _core._with_body(root, out)

    return run


def _what(value):
    return "None" if value is None else "a " + type(value).__name__


def ScheduleOps(sch, bounds, debug_keep_trivial_loop=False):  # noqa: N802 - TVM's name
    """tvm.te.schedule.ScheduleOps(s, bounds): the loop nest with its realizes (the IR after the
    schedule_ops pass), a Stmt as later TVM's (the output's realize on top; str() prints its
    text without the `realize_scope` attr that `tvm.lower(..., after="schedule_ops")` shows). Like every use in TVM,
    `bounds` must be InferBound(s): lowering infers them again from `s`, under the same (tvm)
    rules."""
    if not isinstance(bounds, dict):
        raise TypeError("ScheduleOps expects the Map that InferBound returned, got %s"
                        % type(bounds).__name__)
    args = _core._default_args(sch)
    body, _ = _core._lower(sch, args, "tvm", debug_keep_trivial_loop, "schedule_ops", False)
    return _core._tvm_stmt(body)


def show(sch, args=None):
    """boundscope.show(s, args): the program the CLI and the app analyse."""
    if args is None:
        args = _core._default_args(sch)
    tensors = [a for a in args if isinstance(a, Tensor)]
    scalars = [a for a in args if isinstance(a, _expr.Var)]
    _core._show(sch, tensors, scalars)
