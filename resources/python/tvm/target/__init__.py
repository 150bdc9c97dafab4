"""tvm.target: what a program is compiled for, as TVM's Target describes it. A target is made
from TVM's text ("llvm", "llvm -mcpu=skylake-avx512", "cuda -arch=sm_80", "c") or a dict
({"kind": "cuda", "arch": "sm_80"}); it has a kind (`target.kind.name`), keys (`("cpu",)`,
`("cuda", "gpu")`), attributes (`target.attrs["mcpu"]`, also `target.mcpu`) and an optional
host. `with tvm.target.Target("llvm"):` makes it current (`Target.current()`), and `tvm.build`
uses the current target when given none. tvm.build compiles for `llvm` (the CPU JIT), `cuda`
(CUDA C, run when a GPU is present; `boundscope run --target emulate` runs it without one) and
`opencl` (OpenCL C, not run here).
"""

import shlex as _shlex

from .._scope import ScopedContext
from ..error import TVMError

# TVM's target kinds that Boundscope knows: their keys and default attributes.
_KINDS = {
    "llvm": {"keys": ("cpu",), "attrs": {}},
    "c": {"keys": ("cpu",), "attrs": {}},
    "cuda": {"keys": ("cuda", "gpu"),
             "attrs": {"max_num_threads": 1024, "thread_warp_size": 32}},
    "nvptx": {"keys": ("cuda", "gpu"),
              "attrs": {"max_num_threads": 1024, "thread_warp_size": 32}},
    "opencl": {"keys": ("opencl", "gpu"),
               "attrs": {"max_num_threads": 256, "thread_warp_size": 1}},
}
# Attributes whose value is an integer in TVM's schema.
_INT_ATTRS = ("max_num_threads", "thread_warp_size", "max_shared_memory_per_block",
              "max_threads_per_block", "opt-level", "num-cores", "vector-width")

class TargetKind:
    """TVM's TargetKind: `name` ("llvm", "cuda", ...)."""

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, TargetKind) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return self.name


def _parse_value(key, text):
    if key in _INT_ATTRS:
        try:
            return int(text)
        except ValueError:
            raise TVMError("Target attribute '%s' expects an integer, got '%s'" % (key, text))
    if key in ("mattr", "libs", "keys"):
        return [item for item in text.split(",") if item]
    return text


class Target(ScopedContext):
    """tvm.target.Target(target, host=None)."""

    def __init__(self, target, host=None):
        if isinstance(target, Target):
            self.kind, self.keys, self.attrs = target.kind, target.keys, dict(target.attrs)
            self.host = target.host
        elif isinstance(target, dict):
            config = dict(target)
            if "kind" not in config:
                raise TVMError("Target: a dict needs the key 'kind', got %s" % sorted(config))
            self._make(str(config.pop("kind")), config)
            self.host = None
            if "host" in config:
                self.host = Target(config.pop("host"))
                self.attrs.pop("host", None)
        elif isinstance(target, str):
            self._parse(target)
            self.host = None
        else:
            raise TVMError("Target: expected a string, a dict or a Target, got %s"
                           % type(target).__name__)
        if host is not None:
            self.host = host if isinstance(host, Target) else Target(host)

    def _parse(self, text):
        words = _shlex.split(text.strip())
        if not words:
            raise TVMError("Target: the target string is empty")
        attrs = {}
        for word in words[1:]:
            if not word.startswith("-"):
                raise TVMError("Target: cannot parse '%s' in '%s': options are -key=value"
                               % (word, text))
            key, _, value = word.lstrip("-").partition("=")
            attrs[key] = _parse_value(key, value) if value else True
        self._make(words[0], attrs)

    def _make(self, kind, attrs):
        if kind not in _KINDS:
            raise TVMError('Target kind "%s" is not defined. Target creation from string failed: '
                           '%s (Boundscope knows %s)' % (kind, kind, ", ".join(sorted(_KINDS))))
        self.kind = TargetKind(kind)
        spec = _KINDS[kind]
        merged = dict(spec["attrs"])
        keys = attrs.pop("keys", None)
        for key, value in attrs.items():
            merged[key] = _parse_value(key, value) if isinstance(value, str) else value
        self.attrs = merged
        self.keys = tuple(keys) if keys else spec["keys"]

    def __getattr__(self, name):
        # target.mcpu, target.arch, ... as TVM's attribute accessors ("" when unset)
        if name.startswith("_") or name in ("kind", "keys", "attrs", "host"):
            raise AttributeError(name)
        return self.attrs.get(name.replace("_", "-"), self.attrs.get(name, ""))

    @property
    def mattr(self):
        return list(self.attrs.get("mattr", []))

    @property
    def max_num_threads(self):
        return self.attrs.get("max_num_threads", 1)

    @property
    def thread_warp_size(self):
        return self.attrs.get("thread_warp_size", 1)

    @classmethod
    def current(cls, allow_none=True):
        target = cls._innermost()
        if target is not None:
            return target
        if not allow_none:
            raise TVMError("Target.current: no target is set (use `with tvm.target.Target(...)`)")
        return None

    @staticmethod
    def list_kinds():
        return sorted(_KINDS)

    def export(self):
        out = {"kind": self.kind.name, "keys": list(self.keys)}
        out.update(self.attrs)
        if self.host is not None:
            out["host"] = self.host.export()
        return out

    def __str__(self):
        parts = [self.kind.name, "-keys=" + ",".join(self.keys)]
        for key in sorted(self.attrs):
            if key in _KINDS[self.kind.name]["attrs"] and \
                    self.attrs[key] == _KINDS[self.kind.name]["attrs"][key]:
                continue
            value = self.attrs[key]
            if isinstance(value, list):
                value = ",".join(value)
            parts.append("-%s=%s" % (key, value) if value is not True else "-" + key)
        return " ".join(parts)

    def __repr__(self):
        return str(self)

    def __eq__(self, other):
        return isinstance(other, Target) and str(self) == str(other) and self.host == other.host

    def __hash__(self):
        return hash(str(self))


def create(target):
    """tvm.target.create(text): TVM 0.6's spelling of Target(text)."""
    return Target(target)


def cuda(model="unknown", arch=None, options=None):
    """tvm.target.cuda(model, arch, options): a CUDA target."""
    text = "cuda -model=%s" % model
    if arch:
        text += " -arch=%s" % arch
    if options:
        text += " " + " ".join(options)
    return Target(text)


__all__ = ["Target", "TargetKind", "create", "cuda"]
