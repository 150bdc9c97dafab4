"""Operators and their intrinsic-lowering rules, as TVM's op registry (tvm.ir.Op,
tvm.ir.register_op_attr, tvm.ir.register_intrin_lowering).

A call's operator is named as in TVM: `tir.exp` for te.exp, `tir.if_then_else`, ...; a
tvm.tir.call_pure_extern or call_extern of a C function is `tir.call_pure_extern` or
`tir.call_extern`. New operators exist once an attribute is registered for them
(`register_op_attr("tir.mylog", "TCallEffectKind", ...)`), and only then may
`tvm.tir.call_intrin` call them.

`tvm.build` applies the lowering rules registered for its target (then those for "default")
to every call, as TVM's LowerIntrin pass: a rule gets the call and returns its replacement
(often a call_pure_extern of the target's function), or the call itself to keep it. What no
rule replaces, the code generators lower with TVM's built-in rules (CUDA's `__expf`, libm's
`expf` on the CPU).
"""

import enum

import _boundscope as _core

TVMError = _core.TVMError

# The math functions te offers (tvm.te.exp, ...): pure calls the code generators know by name.
MATH_FUNCTIONS = frozenset((
    "exp", "exp2", "exp10", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "cbrt",
    "tanh", "sigmoid", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
    "acosh", "atanh", "floor", "ceil", "round", "trunc", "nearbyint", "fabs", "erf", "pow",
    "atan2", "fmod", "hypot", "copysign",
))

# The other built-in operators: TVM's tir builtins (src/tir/op/builtin.cc), whether or not the
# engine's code generators lower them, so that call_intrin of any of them builds the call as TVM.
BUILTIN_INTRINSICS = frozenset("""
    address_of assume atomic_add bitwise_and bitwise_not bitwise_or bitwise_xor call_extern
    call_llvm_intrin call_llvm_pure_intrin call_pure_extern call_spirv_pure_glsl450 clz
    create_barriers dma_copy dma_end_group dma_start_group dma_wait dp4a end_profile_intrinsic fma
    get_active_lane_mask if_then_else ignore_loop_partition isfinite isinf isnan isnullptr
    large_uint_imm ldexp likely lookup_param make_filled_simdgroup_matrix mma_fill mma_store
    nd_mem_alloc_with_scope nextafter popcount prefetch ptx_arrive_barrier
    ptx_arrive_barrier_expect_tx ptx_commit_group ptx_cp_async ptx_cp_async_barrier
    ptx_cp_async_bulk ptx_init_barrier_thread_count ptx_ldg32 ptx_ldmatrix ptx_mma ptx_mma_sp
    ptx_wait_barrier ptx_wait_group q_multiply_shift q_multiply_shift_per_axis reinterpret ret
    shift_left shift_right simdgroup_load simdgroup_multiply_accumulate simdgroup_store
    start_profile_intrinsic texture2d_load texture2d_store tvm_access_ptr tvm_bmma_sync
    tvm_call_cpacked tvm_call_cpacked_lowered tvm_call_packed tvm_call_packed_lowered
    tvm_call_trace_packed tvm_call_trace_packed_lowered tvm_check_return tvm_context_id
    tvm_fill_fragment tvm_global_barrier_kinit tvm_if_then_else tvm_load_matrix_sync
    tvm_mma_sync tvm_stack_alloca tvm_stack_make_array tvm_stack_make_shape tvm_static_handle
    tvm_storage_sync tvm_store_matrix_sync tvm_struct_get tvm_struct_set tvm_thread_allreduce
    tvm_thread_context tvm_thread_invariant tvm_throw_last_error tvm_tuple tvm_warp_activemask
    tvm_warp_shuffle tvm_warp_shuffle_down tvm_warp_shuffle_up undef vectorcombine vectorhigh
    vectorlow vscale
""".split())


class CallEffectKind(enum.IntEnum):
    """tvm.tir.CallEffectKind: what a call may do besides computing its value."""

    ExprAnnotation = 0
    Pure = 1
    ReadState = 2
    UpdateState = 3
    Opaque = 4
    Embedded = 5


# How many times rules may rewrite the replacement of one call before lowering gives up.
_MAX_RULE_DEPTH = 64

# op name -> {attribute: (value, level)}: what register_op_attr registered.
_ATTRS = {}
# (op name, target kind) -> (rule, level): what register_intrin_lowering registered.
_LOWERING = {}


def _is_builtin(name):
    short = name[4:] if name.startswith("tir.") else None
    return short is not None and (short in MATH_FUNCTIONS or short in BUILTIN_INTRINSICS)


def is_registered(name):
    """Whether `name` (as "tir.exp") is an operator: built in, or given an attribute."""
    return _is_builtin(name) or name in _ATTRS


class Op:
    """tvm.ir.Op: an operator by name, e.g. `tvm.ir.Op.get("tir.exp")`; `call.op.name`."""

    def __init__(self, name):
        self.name = name

    @staticmethod
    def get(op_name):
        if not is_registered(op_name):
            raise TVMError("Operator %s is not registered" % op_name)
        return Op(op_name)

    def get_attr(self, attr_name):
        value = _ATTRS.get(self.name, {}).get(attr_name)
        return None if value is None else value[0]

    def __eq__(self, other):
        return isinstance(other, Op) and other.name == self.name

    def __hash__(self):
        return hash(("Op", self.name))

    def __repr__(self):
        return 'Op(%s)' % self.name


def op_name_of(call):
    """TVM's operator name of one of our calls."""
    name, kind = call.name, call._kind
    if kind == "intrinsic" and name == "tvm_if_then_else":
        return "tir.if_then_else"  # te.if_then_else's spelling in the engine's IR
    if kind == "intrinsic" or (kind == "pure_extern" and name in MATH_FUNCTIONS):
        return "tir." + name
    return "tir.call_pure_extern" if kind == "pure_extern" else "tir.call_extern"


def _check_level(table, key, level, what):
    old = table.get(key)
    if old is not None and old[1] == level:
        raise TVMError("%s is already registered with the same level %d; register it with a "
                       "higher level to override it" % (what, level))
    return old is None or old[1] < level


def register_op_attr(op_name, attr_key, value=None, level=10):
    """tvm.ir.register_op_attr(op_name, attr_key, value, level): sets an attribute of an
    operator, registering the operator if it is new; without `value`, a decorator."""

    def register(v):
        what = "attribute %s of %s" % (attr_key, op_name)
        if _check_level(_ATTRS.setdefault(op_name, {}), attr_key, level, what):
            _ATTRS[op_name][attr_key] = (v, level)
        return v

    return register if value is None else register(value)


def register_intrin_lowering(op_name, target, *, f=None, level=10):
    """tvm.ir.register_intrin_lowering(op_name, target, f=rule, level=10): the rule tvm.build
    applies to each call of `op_name` when it builds for `target` ("cuda", "llvm", or
    "default" for any); without `f`, a decorator."""

    def register(rule):
        if not callable(rule):
            raise TVMError("register_intrin_lowering: the rule for %s must be callable, got %r"
                           % (op_name, rule))
        key = (op_name, target)
        what = "the %s lowering rule of %s" % (target, op_name)
        if _check_level(_LOWERING, key, level, what):
            _LOWERING[key] = (rule, level)
        return rule

    return register if f is None else register(f)


def forget_registrations():
    """Drops what scripts registered: each run of a script in the CLI or the app starts from the
    built-in operators (ScriptExecution calls this, as it drops tvm.register_func's functions)."""
    _ATTRS.clear()
    _LOWERING.clear()


def lowering_pass(target_kind):
    """The user pass (phase, name, function of the root statement) that applies the rules
    registered for `target_kind` and "default", or None when there are none."""
    rules = {}
    for (op_name, target), (rule, _) in _LOWERING.items():
        if target == "default":
            rules.setdefault(op_name, rule)
    for (op_name, target), (rule, _) in _LOWERING.items():
        if target == target_kind:
            rules[op_name] = rule
    if not rules:
        return None

    depth = [0]

    def postorder(node):
        op_name = op_name_of(node)
        rule = rules.get(op_name)
        if rule is None:
            return None
        out = rule(node)
        if out is None:
            raise TVMError("the %s lowering rule of %s returned None; a rule returns the "
                           "replacement, or the call itself to keep it" % (target_kind, op_name))
        out_dtype = getattr(out, "dtype", None)
        if out_dtype != node.dtype:
            raise TVMError("the %s lowering rule of %s returned a %s for a %s call; the "
                           "replacement must have the call's type"
                           % (target_kind, op_name, out_dtype or type(out).__name__, node.dtype))
        if isinstance(out, _core.Call) and _core._structural_equal(out, node, False):
            return out
        # As TVM's LowerIntrin: the replacement is lowered in turn (a rule may produce calls
        # other rules lower).
        if depth[0] >= _MAX_RULE_DEPTH:
            raise TVMError("the %s lowering rules keep rewriting %s (%d rewrites deep): a rule "
                           "must end in a call no rule rewrites" % (target_kind, op_name, depth[0]))
        depth[0] += 1
        try:
            return _core.ir_transform(out, None, postorder, ["tir.Call"])
        finally:
            depth[0] -= 1

    def run(root):
        return _core.ir_transform(root, None, postorder, ["tir.Call"])

    return (3, "tir.LowerIntrin", run)


_core.Call.op = property(lambda call: Op(op_name_of(call)),
                         doc="The call's operator (tvm.ir.Op), named as in TVM: tir.exp, ...")
