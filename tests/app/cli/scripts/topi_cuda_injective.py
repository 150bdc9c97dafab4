# TVM's CUDA injective schedule (topi.cuda.schedule_injective): a broadcast add of a relu, the
# relu inlined, the output fused and split over blocks of 1024 threads.
import tvm
from tvm import te, topi

A = te.placeholder((40, 60), name="A")
b = te.placeholder((60,), name="b")
with tvm.target.Target("cuda"):
    C = topi.add(topi.nn.relu(A), b)
    s = topi.cuda.schedule_injective(C)
print(tvm.lower(s, [A, b, C], simple_mode=True))
