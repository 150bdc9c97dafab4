# boundscope.graph: the app's and `boundscope graph`'s pictures of a schedule from a script, as
# DOT, SVG (what a notebook shows through _repr_svg_) or a file.
import os
import tempfile

import pytest

import boundscope
import tvm
import tvm.testing
from tvm import te


def _program():
    A = te.placeholder((64, 64), name="A")
    B = te.compute((64, 64), lambda i, j: A[i, j] * 2, name="B")
    C = te.compute((64, 64), lambda i, j: B[i, j] + 1, name="C")
    s = te.create_schedule(C.op)
    xo, xi = s[C].split(C.op.axis[0], factor=8)
    s[B].compute_at(s[C], xo)
    return s


def test_each_kind_of_graph_names_the_schedules_parts():
    s = _program()
    dag = boundscope.graph(s, "dag")
    assert dag.dot.startswith("digraph") and all(n in dag.dot for n in ("A", "B", "C"))
    itervars = boundscope.graph(s, "itervar", stage="C")
    assert "i.outer" in itervars.dot and "i.inner" in itervars.dot
    attach = boundscope.graph(s, "attach", stage="B")
    assert "root" in attach.dot and "i.outer" in attach.dot
    requests = boundscope.graph(s, "requests", stage="B")
    assert "consumer0" in requests.dot and "bounds" in requests.dot


def test_a_graph_renders_for_notebooks_and_files():
    g = boundscope.graph(_program(), "dag")
    svg = g._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    with tempfile.TemporaryDirectory() as folder:
        for name in ("g.dot", "g.svg", "g.png"):
            path = os.path.join(folder, name)
            g.save(path)
            assert os.path.getsize(path) > 100
        with open(os.path.join(folder, "g.dot")) as f:
            assert f.read() == g.dot
        with pytest.raises(ValueError, match="not a .dot, .svg or .png file"):
            g.save(os.path.join(folder, "g.pdf"))


def test_mistakes_are_clear():
    s = _program()
    with pytest.raises(tvm.error.TVMError, match="unknown graph kind 'tree'"):
        boundscope.graph(s, "tree")
    with pytest.raises(tvm.error.TVMError, match="Z"):
        boundscope.graph(s, "itervar", stage="Z")


if __name__ == "__main__":
    tvm.testing.main()
