# Uses an undefined name on line 5.
import tvm

x = 1
print(undefined_name)
