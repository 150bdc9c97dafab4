# A gather whose intermediate the script holds in a variable of another name (Tmp for T) and
# whose schedule is `sch`: the allocation report's hint is written in those names.
import tvm
from tvm import te

A = te.placeholder((4, 4), name="A")
Tmp = te.compute((4, 4), lambda i, j: A[i, j] + 1.0, name="T")
CA = te.compute((2, 2), lambda i, j: Tmp[i, j] * 2.0, name="CA")
CB = te.compute((2, 2), lambda i, j: Tmp[i + 2, j + 2] * 3.0, name="CB")
Out = te.compute((2, 2), lambda i, j: CA[i, j] + CB[i, j], name="Out")
sch = te.create_schedule(Out.op)
