# Prints an index expression and a line on stderr.
import sys

import tvm
from tvm import te

i = te.var("i")
print("index:", (i * 8 + 7) // 8)
print("note", file=sys.stderr)
