# TVM's low_level_custom_pass tutorial, shortened: a pass added with tir.add_lower_pass at
# phase 1 splits loops of a multiple of 8 and vectorizes the inner 8. The CLI and the app run
# it in their analyses too: `lower --after vectorize` shows the IR right after it.
import tvm
from tvm import te

n = tvm.tir.const(128, "int32")
a = te.placeholder((n,), name="a")
b = te.placeholder((n,), name="b")
c = te.compute((n,), lambda i: a[i] + b[i], name="c")
sch = te.create_schedule(c.op)
loops = []


def find_width8(op):
    if isinstance(op, tvm.tir.For) and isinstance(op.extent, tvm.tir.IntImm):
        if op.extent.value % 8 == 0:
            loops.append(op)


def vectorize8(op):
    if op in loops:
        extent = op.extent.value
        name = op.loop_var.name
        lo, li = te.var(name + ".outer"), te.var(name + ".inner")
        body = tvm.tir.stmt_functor.substitute(op.body, {op.loop_var: lo * 8 + li})
        body = tvm.tir.For(li, 0, 8, tvm.tir.ForKind.VECTORIZED, body)
        return tvm.tir.For(lo, 0, extent // 8, tvm.tir.ForKind.SERIAL, body)
    return None


@tvm.tir.transform.prim_func_pass(opt_level=0)
def vectorize(f, mod, ctx):
    tvm.tir.stmt_functor.post_order_visit(f.body, find_width8)
    if not loops:
        return f
    return f.with_body(tvm.tir.stmt_functor.ir_transform(f.body, None, vectorize8, ["tir.For"]))


with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, vectorize)]}):
    print(tvm.lower(sch, [a, b, c], simple_mode=True))
