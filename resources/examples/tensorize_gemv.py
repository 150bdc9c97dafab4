# Tensorize (TVM's te.decl_tensor_intrin and s[C].tensorize): the inner loops of a matrix
# product become calls of a matrix-vector intrinsic, as TVM's tensorize tutorial does with a
# hardware instruction. C[i, j] = sum_k A[i, k] * B[j, k]; after splitting j by 16 and k by 16,
# the loops j.inner and k.inner compute C[i, j.outer*16 : +16] += B[16 rows, 16 cols] . A[i, 16
# cols], which is what the intrinsic `gemv` declares. Lowering checks that the loops compute
# exactly that, infers the region of A, B and C the tensorized loops cover (the `tensorize`
# steps), and binds the intrinsic's buffers to them: W to 16 rows of B with row stride 64 (its
# strides are declared as variables, so any row stride binds), x to 16 elements of A, z to 16 of
# C. The reduction over k.outer stays a loop: the first call resets z (reduce_init), each one
# adds its part (reduce_update). Here the intrinsic is a Python function (tvm.register_func);
# on hardware it would be one instruction.
import numpy as np

import tvm
from tvm import te

n = 64
factor = 16
A = te.placeholder((n, n), name="A")
B = te.placeholder((n, n), name="B")
k = te.reduce_axis((0, n), name="k")
C = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[j, k], axis=k), name="C")


def intrin_gemv(m, l):
    """z[i] = sum_k w[i, k] * x[k] for an m x l block, as three packed calls."""
    w = te.placeholder((m, l), name="w")
    x = te.placeholder((l,), name="x")
    kk = te.reduce_axis((0, l), name="kk")
    z = te.compute((m,), lambda i: te.sum(x[kk] * w[i, kk], axis=kk), name="z")
    Wb = tvm.tir.decl_buffer(w.shape, w.dtype, name="W", offset_factor=1,
                             strides=[te.var("ldw"), 1])

    def intrin_func(ins, outs):
        xx, ww = ins
        zz = outs[0]
        body = tvm.tir.call_packed("gemv", ww, xx, zz)
        reset = tvm.tir.call_packed("fill_zero", zz)
        update = tvm.tir.call_packed("gemv_add", ww, xx, zz)
        return body, reset, update

    return te.decl_tensor_intrin(z.op, intrin_func, name="gemv", binds={w: Wb},
                                 default_buffer_params={"offset_factor": 1})


@tvm.register_func("gemv", override=True)
def gemv(w, x, z):
    z.copyfrom(w.numpy() @ x.numpy())


@tvm.register_func("fill_zero", override=True)
def fill_zero(z):
    z.copyfrom(np.zeros(z.shape, z.dtype))


@tvm.register_func("gemv_add", override=True)
def gemv_add(w, x, z):
    z.copyfrom(z.numpy() + w.numpy() @ x.numpy())


s = te.create_schedule(C.op)
i, j = C.op.axis
jo, ji = s[C].split(j, factor=factor)
ko, ki = s[C].split(k, factor=factor)
s[C].reorder(i, jo, ko, ji, ki)
s[C].tensorize(ji, intrin_gemv(factor, factor))
print(tvm.lower(s, [A, B, C], simple_mode=True))

f = tvm.build(s, [A, B, C], "llvm")
a = np.random.uniform(size=(n, n)).astype("float32")
b = np.random.uniform(size=(n, n)).astype("float32")
c = tvm.nd.array(np.zeros((n, n), "float32"))
f(tvm.nd.array(a), tvm.nd.array(b), c)
np.testing.assert_allclose(c.numpy(), a @ b.T, rtol=1e-5)
print("tensorized gemv matches numpy")
