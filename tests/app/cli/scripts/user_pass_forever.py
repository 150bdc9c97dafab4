# A pass added with tir.add_lower_pass that returns when the script's own tvm.lower runs it and
# never again: the CLI's analysis, which runs the script's passes too, must still stop at
# --timeout, and the app's Stop must reach it (the pass is interrupted with KeyboardInterrupt).
import tvm
from tvm import te

a = te.placeholder((64,), name="a")
b = te.compute((64,), lambda i: a[i] + 1.0, name="b")
sch = te.create_schedule(b.op)
calls = []


@tvm.tir.transform.prim_func_pass(opt_level=0)
def forever(f, mod, ctx):
    calls.append(f)
    while len(calls) > 1:
        pass
    return f


with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, forever)]}):
    tvm.lower(sch, [a, b])
