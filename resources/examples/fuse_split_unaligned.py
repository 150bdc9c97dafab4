# The PassUpDomain example with an unaligned split: 64x64 fused, split by factor 48, B at the
# outer loop. Each outer iteration needs 48 consecutive elements that lie in one or two rows, but
# --rules tvm takes whole rows (a symbolic row count); the allocation report names the cause:
# the fused segment wraps a row.
import tvm
from tvm import te

M = 64
N = 64

B = te.compute((M, N), lambda i, j: i + j, name='B')
C = te.compute((M, N), lambda i, j: B[i, j], name='C')

s = te.create_schedule(C.op)
fused = s[C].fuse(C.op.axis[0], C.op.axis[1])
outer, inner = s[C].split(fused, factor=48)
s[B].compute_at(s[C], outer)
