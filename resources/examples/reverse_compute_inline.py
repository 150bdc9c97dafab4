# reverse_compute_inline (seed 004): an epilogue (scale and bias add) folded into the elementwise
# stage that produces its input. The producer's stage keeps its schedule (the split below) and
# now computes and stores C; the intermediate B disappears. A reduction producer (a matmul)
# would be refused: its values are final only after the whole reduction (use compute_at).
import tvm
from tvm import te

M, N = 64, 48
A = te.placeholder((M, N), name="A")
bias = te.placeholder((N,), name="bias")
B = te.compute((M, N), lambda i, j: te.exp(A[i, j]), name="B")
C = te.compute((M, N), lambda i, j: B[i, j] * 0.5 + bias[j], name="C")

s = te.create_schedule(C.op)
jo, ji = s[B].split(B.op.axis[1], factor=16)
s[C].reverse_compute_inline(s)
print(tvm.lower(s, [A, bias, C], simple_mode=True))
