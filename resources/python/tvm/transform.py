"""tvm.transform (TVM's tvm.ir.transform): the PassContext that configures lowering, and passes
over IRModules (Pass, module_pass, Sequential; tvm.tir.transform has prim_func_pass and the
built-in passes). Boundscope reads the options its passes have; the others TVM registers are
accepted and recorded, and a name TVM does not know is refused as TVM refuses it.

`PassContext(config={"tir.add_lower_pass": [(phase, pass), ...]})` runs each pass inside
tvm.lower at the end of its phase, as TVM does: 0 right after ScheduleOps (before flattening),
1 after flattening and simplification, 2 after the loop annotations (unroll, vectorize), 3 after
their clean-up, before common subexpression elimination. A pass is a Pass (prim_func_pass,
module_pass) or, as in TVM 0.6, a function from statement to statement.
`tvm.lower(..., after=NAME)` shows the IR right after the pass called NAME."""

import threading as _threading

from ._scope import ScopedContext



class PassInfo:
    """TVM's PassInfo: a pass's opt_level, name and required passes."""

    def __init__(self, opt_level, name, required=None):
        self.opt_level = opt_level
        self.name = name
        self.required = list(required or [])


class Pass:
    """TVM's tvm.transform.Pass: `p(mod)` is the transformed IRModule."""

    def __init__(self, name, opt_level=0, required=None):
        self.info = PassInfo(opt_level, name, required)

    def __call__(self, mod):
        return self.transform_module(mod, PassContext.current())

    def transform_module(self, mod, ctx):
        raise NotImplementedError

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, self.info.name)


class ModulePass(Pass):
    """A pass from a function `(mod, ctx) -> mod` (TVM's module_pass)."""

    def __init__(self, pass_func, name, opt_level=0, required=None):
        super().__init__(name, opt_level, required)
        self._func = pass_func

    def transform_module(self, mod, ctx):
        return self._func(mod, ctx)


class Sequential(Pass):
    """TVM's Sequential: the passes one after the other."""

    def __init__(self, passes=None, opt_level=0, name="sequential", required=None):
        super().__init__(name, opt_level, required)
        self.passes = list(passes or [])

    def transform_module(self, mod, ctx):
        for p in self.passes:
            if ctx.pass_enabled(p.info):
                mod = p(mod)
        return mod


def _pass_decorator(make, pass_func, opt_level, name, required):
    if opt_level is None:
        raise TypeError("a pass needs opt_level (TVM's pass decorators require it)")

    def create(func):
        if isinstance(func, type):
            # TVM's class form: the decorated class's instances are passes that call their
            # transform_function (or transform_module) method.
            def build(*args, **kwargs):
                instance = func(*args, **kwargs)
                method = getattr(instance, "transform_function", None) or instance.transform_module
                return make(method, name or func.__name__, opt_level, required)

            build.__name__ = func.__name__
            return build
        return make(func, name or func.__name__, opt_level, required)

    return create(pass_func) if pass_func is not None else create


def module_pass(pass_func=None, opt_level=None, name=None, required=None):
    """TVM's @tvm.transform.module_pass(opt_level=...): a Pass from `(mod, ctx) -> mod`."""
    return _pass_decorator(ModulePass, pass_func, opt_level, name, required)


def _lower_passes(value):
    """tir.add_lower_pass: a list of (phase, pass), phase an integer from 0."""
    passes = []
    for entry in value:
        if not isinstance(entry, (tuple, list)) or len(entry) != 2:
            raise ValueError("tir.add_lower_pass expects (phase, pass) pairs, got %r" % (entry,))
        phase, p = entry
        if isinstance(phase, bool) or not isinstance(phase, int) or phase < 0:
            raise ValueError("tir.add_lower_pass: the phase must be an integer 0 to 3, got %r"
                             % (phase,))
        if not (isinstance(p, Pass) or callable(p)):
            raise ValueError("tir.add_lower_pass: %r is not a pass" % (p,))
        passes.append((phase, p))
    return passes


# TVM's registered options that Boundscope acts on, with their types.
_USED = {
    "te.keep_schedule_record": bool,  # te.create_schedule keeps s.schedule_record
    "tir.debug_keep_trivial_loop": bool,  # tvm.lower keeps extent-1 loops
    "tir.disable_cse_tir": bool,  # tvm.lower leaves out CommonSubexprElimTIR
    "tir.add_lower_pass": _lower_passes,  # tvm.lower runs them in their phase
}
# Options TVM registers that Boundscope accepts without acting on them (its passes have no
# such switch); kept so that TVM's scripts configure them unchanged.
_ACCEPTED = (
    "tir.noalias", "tir.detect_global_barrier", "tir.instrument_bound_checkers",
    "tir.disable_assert", "tir.disable_vectorize",
    "tir.enable_debug", "tir.enable_equiv_terms_in_cse_tir", "tir.is_entry_func",
    "tir.use_async_copy",
    "tir.merge_static_smem", "tir.instrument_lwp", "tir.vtcm_capacity",
    "tir.LoopPartition", "tir.UnrollLoop", "tir.HoistIfThenElse", "tir.HoistExpression",
    "tir.Simplify", "tir.RemoveNoOp", "tir.InjectDoubleBuffer", "tir.ReduceBranchingThroughOvercompute",
    "relay.backend.use_auto_scheduler", "relay.backend.use_meta_schedule",
    "relay.FuseOps.max_depth",
)

_state = _threading.local()


class PassContext(ScopedContext):
    """TVM's PassContext(opt_level=2, required_pass=None, disabled_pass=None, instruments=None,
    config=None): used as `with tvm.transform.PassContext(...):`; PassContext.current() is the
    innermost one entered (a default one outside any). Of `disabled_pass`, tvm.lower acts on
    "tir.CommonSubexprElimTIR" and "tir.HoistIfThenElse"; other names are recorded."""

    def __init__(self, opt_level=2, required_pass=None, disabled_pass=None, instruments=None,
                 config=None):
        self.opt_level = opt_level
        self.required_pass = list(required_pass or [])
        self.disabled_pass = list(disabled_pass or [])
        self.instruments = list(instruments or [])
        self.config = {}
        for key, value in (config or {}).items():
            if key in _USED:
                self.config[key] = _USED[key](value)
            elif key in _ACCEPTED:
                self.config[key] = value
            else:
                raise AttributeError("Invalid config option '%s' candidates are: %s"
                                     % (key, ",".join(sorted(list(_USED) + list(_ACCEPTED)))))

    def pass_enabled(self, info):
        """Whether a pass runs in this context (TVM's PassContext::PassEnabled): not when
        disabled by name, always when required, else when its opt_level is at most the
        context's."""
        if info.name in self.disabled_pass:
            return False
        if info.name in self.required_pass:
            return True
        return self.opt_level >= info.opt_level

    @classmethod
    def current(cls):
        return cls._innermost() or _default()

    @staticmethod
    def list_configs():
        return {name: {"type": "IntImm" if kind is bool else
                       "Array" if kind is _lower_passes else kind.__name__}
                for name, kind in _USED.items()}


def _default():
    if not hasattr(_state, "default"):
        _state.default = PassContext()
    return _state.default
