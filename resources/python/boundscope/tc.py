"""Tensor Comprehensions as a second front end (seed 003).

    import boundscope
    from tvm import te

    prog = boundscope.tc('''
    def matmul(float(M, K) A, float(K, N) B) -> (C) {
        C(m, n) +=! A(m, r_k) * B(r_k, n)
    }''', M=64, N=64, K=32)
    A, B = prog.inputs
    (C,) = prog                      # the outputs, in declaration order
    s = te.create_schedule(C.op)     # ordinary stages: schedule them as usual
    print(prog.ranges_text())        # TC's input-driven ranges: 0 <= m < 64, ...

Sizes not given stay symbolic size variables (`prog.sizes`). Ranges and output sizes come from
TC's range inference; unchecked preconditions are reported as `TcWarning`s.
"""

import warnings as _warnings

import _boundscope as _core

__all__ = ["tc", "TcProgram", "TcWarning"]


class TcWarning(UserWarning):
    """A TC precondition the range inference could not check, or a note about an output."""


class TcProgram:
    """The stages built from one TC definition."""

    def __init__(self, program):
        self._program = program
        self.name = program.name
        self.inputs = list(program.inputs)
        self.outputs = list(program.outputs)
        self.sizes = dict(program.sizes)
        self.statements = list(program.statements)
        self.warnings = list(program.warnings)

    def __iter__(self):
        return iter(self.outputs)

    def __len__(self):
        return len(self.outputs)

    def __getitem__(self, key):
        if isinstance(key, int):
            return self.outputs[key]
        for tensor in self.inputs + self.outputs:
            if tensor.name == key:
                return tensor
        raise KeyError(f"'{key}' is neither an input nor an output of '{self.name}'")

    @property
    def ranges(self):
        """{statement text: [range, ...]}, each range printing as `0 <= m < M`."""
        return {st.text: list(st.ranges) for st in self.statements}

    def ranges_text(self):
        """The inferred ranges, one statement per paragraph, in TC's notation."""
        return self._program.ranges_text().rstrip("\n")

    def __repr__(self):
        return f"TcProgram({self.name}: {', '.join(t.name for t in self.outputs)})"


def tc(source, **sizes):
    """Builds the stages of the TC definition in `source`; keyword arguments give sizes."""
    program = TcProgram(_core._tc_build(source, {k: int(v) for k, v in sizes.items()}, ""))
    for warning in program.warnings:
        _warnings.warn(warning, TcWarning, stacklevel=2)
    return program
