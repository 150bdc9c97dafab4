# The PassUpDomain example of the InferBound thread: C's axes are fused, split into 512 parts and
# B is computed at the outer loop. Each outer iteration reads one 8-element row segment of B.
# The seed's rules (TVM 0.5, --rules tvm-0.5) fall back to the full fused ranges: allocate B[int32 * 4096].
# Later TVM (--rules tvm) and --rules tight allocate the 8 elements actually needed.
import tvm

M = 64
N = 64

B = tvm.compute((M, N), lambda i, j: i + j, name='B')
C = tvm.compute((M, N), lambda i, j: B[i, j], name='C')

s = tvm.create_schedule(C.op)

all = s[C].fuse(C.op.axis[0], C.op.axis[1])
i, j = s[C].split(all, nparts=512)

s[B].compute_at(s[C], i)
