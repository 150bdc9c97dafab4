# An expression 50,000 levels deep, built by a Python loop (a long sum written out): the
# engine's visitors recurse through it, which must neither overflow the stack nor take long.
import tvm
from tvm import te

A = te.placeholder((10,), name="A")


def body(i):
    e = A[i]
    for _ in range(50000):
        e = e + 1.0
    return e


C = te.compute((10,), body, name="C")
s = te.create_schedule(C.op)
