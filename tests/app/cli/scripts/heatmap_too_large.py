# tiled_large.py at 8192 x 8192: 134 million stores and argument elements, past the limits of
# the heatmap and the animation, so `heatmap` and `animate` say so at once instead of running
# the interpreter for minutes and gigabytes.
import pathlib

source = (pathlib.Path(__file__).resolve().parent / "tiled_large.py").read_text()
exec(source.replace("\nN = 2048\n", "\nN = 8192\n"))
