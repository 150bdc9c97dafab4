# Prints its arguments and whether tvm is Boundscope.
import sys
import tvm
print(sys.argv[1:], tvm.__boundscope__)
