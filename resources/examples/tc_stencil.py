# Tensor Comprehensions as a front end (seed 003): a 1-D convolution written in TC, its ranges
# inferred from the inputs (k from K first, then i from B(i + k), so the output is W - 1
# elements shorter than B), then scheduled like any te stage. The TC ranges are input-driven;
# `boundscope bounds` on this script shows InferBound's consumer-driven ranges for the same
# stages.
import boundscope
from tvm import te

prog = boundscope.tc(
    """
    def conv1d(float(N) B, float(W) K) -> (A) {
        A(i) +=! B(i + k) * K(k)
    }
    """,
    N=1024,
    W=5,
)
print(prog.ranges_text())

B, K = prog.inputs
(A,) = prog
assert A.shape[0].value == 1020

s = te.create_schedule(A.op)
io, ii = s[A].split(A.op.axis[0], factor=32)
s[A].reorder(io, A.op.reduce_axis[0], ii)
s[A].vectorize(ii)
