"""The graphs the app and `boundscope graph` draw, from a script: `boundscope.graph(s, kind)`
with kind `dag` (the stage DAG), `itervar` (IterVar relations, of one stage or all), `attach`
(the attach tree, one stage's path highlighted) or `requests` (one stage's consumer requests).
A Graph has its `dot` text, `svg()`, `save(path)` (.dot, .svg or .png) and shows itself in a
notebook (`_repr_svg_`)."""

import os as _os

import _boundscope as _core


class Graph:
    """One picture of a schedule, rendered by the Graphviz built into Boundscope."""

    def __init__(self, dot):
        self.dot = dot

    def svg(self):
        return _core._render_dot(self.dot, "svg").decode("utf-8")

    def _repr_svg_(self):
        return self.svg()

    def save(self, path):
        """Writes the graph as .dot, .svg or .png, by the file's extension."""
        ext = _os.path.splitext(path)[1].lower().lstrip(".")
        if ext not in ("dot", "gv", "svg", "png"):
            raise ValueError("Graph.save: '%s' is not a .dot, .svg or .png file" % path)
        data = self.dot.encode("utf-8") if ext in ("dot", "gv") else _core._render_dot(self.dot, ext)
        with open(path, "wb") as out:
            out.write(data)

    def __str__(self):
        return self.dot


def graph(sch, kind="dag", stage="", rules="tvm"):
    """The `kind` graph of schedule `sch` as the app draws it (`stage`: the stage of an itervar,
    attach or requests graph; `rules`: tvm, tvm-0.5, tight or compact)."""
    return Graph(_core._graph_dot(sch, kind, stage, rules))
