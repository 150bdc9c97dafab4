# The engine refuses a division by zero on line 7.
import tvm
from tvm import te

n = te.var("n")
print("before")
bad = n // tvm.tir.const(0)
print("never printed")
