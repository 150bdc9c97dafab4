# Takes 1.2 s to run: `edit`, which runs the script again to check its edit, passes a
# 2 s limit (CliEdit.AnEditPastTheTimeLimitSaysSoAndLeavesTheFileAlone), and so does `diff` of
# two such scripts (CliDiff.TheSecondScriptGetsWhatTheFirstLeftOfTheTimeLimit).
import time
import tvm
from tvm import te

time.sleep(1.2)
A = te.placeholder((64,), name="A")
B = te.compute((64,), lambda i: A[i] + 1.0, name="B")
s = te.create_schedule(B.op)
