# tensorize_gemv.py (resources/examples) at n = 256: 16.8 M multiply-adds, past the interpreter's
# budget. The tensorized C is a packed call, whose touched elements the access sets do not count
# (the interpreter counts the whole span a call is given), so `alloc` does not count it from them.
# The example's schedule is run as it is, up to its build.
import pathlib

example = pathlib.Path(__file__).resolve().parents[4] / "resources/examples/tensorize_gemv.py"
source = example.read_text().replace("\nn = 64\n", "\nn = 256\n")
exec(source[: source.index("print(tvm.lower(")])
