# A pipeline of 50 elementwise stages, written as a Python loop: how the app stays readable at
# that size. The stage DAG draws the long chain as one node (click it, or select a stage in it,
# to expand it; Collapse folds it again), and every graph is fitted no smaller than the app's
# text, scrolling instead. Each stage is computed at the root, so each is a full buffer.
import tvm
from tvm import te

def add_one(t, k):
    return te.compute((64,), lambda i: t[i] + 1.0, name=f"S{k}")

t = te.placeholder((64,), name="A")
for k in range(1, 51):
    t = add_one(t, k)
s = te.create_schedule(t.op)
