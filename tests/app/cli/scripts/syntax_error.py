# A syntax error on line 4.
import tvm

if True
    pass
