"""tvm.transform (TVM's tvm.ir.transform): the PassContext that configures lowering. Boundscope
reads the options its passes have; the others TVM registers are accepted and recorded, and a
name TVM does not know is refused as TVM refuses it."""

import threading as _threading

from ._scope import ScopedContext

# TVM's registered options that Boundscope acts on, with their types.
_USED = {
    "te.keep_schedule_record": bool,  # te.create_schedule keeps s.schedule_record
    "tir.debug_keep_trivial_loop": bool,  # tvm.lower keeps extent-1 loops
    "tir.disable_cse_tir": bool,  # tvm.lower leaves out CommonSubexprElimTIR
}
# Options TVM registers that Boundscope accepts without acting on them (its passes have no
# such switch); kept so that TVM's scripts configure them unchanged.
_ACCEPTED = (
    "tir.noalias", "tir.detect_global_barrier", "tir.instrument_bound_checkers",
    "tir.disable_assert", "tir.disable_vectorize",
    "tir.enable_debug", "tir.enable_equiv_terms_in_cse_tir", "tir.is_entry_func",
    "tir.add_lower_pass", "tir.use_async_copy",
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

    @classmethod
    def current(cls):
        return cls._innermost() or _default()

    @staticmethod
    def list_configs():
        return {name: {"type": "IntImm" if kind is bool else kind.__name__}
                for name, kind in _USED.items()}


def _default():
    if not hasattr(_state, "default"):
        _state.default = PassContext()
    return _state.default
