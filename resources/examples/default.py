# Boundscope's default example (a placeholder until the te layer is bound, then Ex. 6 of the
# InferBound thread replaces it): index arithmetic with symbolic variables, as InferBound and
# lowering build it. `//` is floordiv and `%` floormod, as for Python ints; constants fold, so
# `i*1 + 0` is just `i`; a flattened 2-D index of a row-major [n, 64] buffer is `i*64 + j`.
import tvm
from tvm import te

n = te.size_var("n")
i = te.var("i")
j = te.var("j")

flat = i * 64 + j
print("flat index of A[i, j] in a [n, 64] buffer:", flat)
print("row of element (i*64 + j):", flat // 64)
print("column of element (i*64 + j):", flat % 64)
print("folded constants:", i * 1 + 0, "and", tvm.tir.const(6) * 7)
print("a split of i by 8 (outer, inner):", i // 8, i % 8)
print("its extent when n is not a multiple of 8:", tvm.tir.min(8, n - (i // 8) * 8))
