"""tvm.contrib.tedd: TVM's Tensor Expression Debug Display. Three views of a schedule as DOT,
with TEDD's graph names, node ids, ports and labels, so its users' scripts and patterns work:

    viz_dataflow_graph(s, show_svg=False, dot_file_path="", output_dot_string=False)
    viz_schedule_tree(s, ...)                 # stages on their attach points, leaf loops
    viz_itervar_relationship_graph(s, ...)    # every IterVar and the relations between them

`dot_file_path` writes the DOT to a file, `output_dot_string` returns it, and `show_svg` shows
it rendered (by the Graphviz built into Boundscope) in a notebook. Beyond TEDD: tensors and
their consumers are matched by operation, not by name; Singleton and Rebase relations are drawn;
a scan's update (dashed, on the scan) and the stages of a group are drawn on what they are
computed in; store predicates,
pragmas, prefetches and double buffering are listed under their stage in the schedule tree.
"""

import html as _html
import warnings as _warnings

import _boundscope as _core

from tvm.te import schedule as _schedule
from tvm.te import PlaceholderOp as _PlaceholderOp

__all__ = ["viz_dataflow_graph", "viz_schedule_tree", "viz_itervar_relationship_graph"]

# TVM's IterVar types in TVM's order, with TEDD's legend colours.
_ITERVAR_TYPES = [
    ("kDataPar", "#FFFFFF"),
    ("kThreadIndex", "#2980B9"),
    ("kCommReduce", "#FAD7A0"),
    ("kOrdered", "#D35400"),
    ("kOpaque", "#ABB2B9"),
    ("kUnrolled", "#D2B4DE"),
    ("kVectorized", "#AED6F1"),
    ("kParallelized", "#F5B7B1"),
    ("kTensorized", "#A9DFBF"),
]
# TEDD's colours of attach edges, by the attach loop's position among the stage's IterVars
# (black: the root, or past 8).
_EDGE_PALETTE = ["#000000", "#922B21", "#76448A", "#1F618D", "#148F77", "#B7950B", "#AF601A",
                 "#F5B7B1", "#A9DFBF"]
_THREAD_COLOR = "#2980B9"
_SCOPE, _SCAN_UPDATE = 4, 5  # the attach types of compute_at and of a scan's update
_LINE = 30  # TEDD breaks long label text every 30 characters


def _text(value, width=_LINE):
    """HTML-escaped text in lines of at most `width` characters, broken after a space where
    there is one (TEDD breaks every 30 characters, inside words too)."""
    rest = str(value)
    parts = []
    while len(rest) > width:
        cut = rest.rfind(" ", 1, width + 1)
        cut = cut if cut > 0 else width
        parts.append(rest[:cut].rstrip(" "))
        rest = rest[cut:].lstrip(" ")
    parts.append(rest)
    return "<br/>".join(_html.escape(p, quote=True) for p in parts)


def _range_text(rng):
    if rng is None:
        return "range(N/A)"
    return "T.Range(%s, %s)" % (rng.min, rng.extent)


class _Stage:
    """What the three views show of one stage (TEDD's serialized stage)."""

    def __init__(self, index, stage, ranges):
        self.index = index
        self.stage = stage
        self.name = stage.op.name if stage.op is not None else "group"
        self.scope = stage.scope
        op = stage.op
        body = getattr(op, "body", None) if op is not None else None
        self.compute = None if body is None else str(list(body) if isinstance(body, (list, tuple)) else body)
        self.all_itervars = list(stage.all_iter_vars)
        self.leaves = list(stage.leaf_iter_vars)
        self.attrs = stage.iter_var_attrs
        self.ranges = ranges
        self.outputs = [] if op is None else list(range(op.num_outputs))

    def leaf_index(self, iv):
        for k, leaf in enumerate(self.leaves):
            if leaf.same_as(iv):
                return k
        return -1

    def itervar_index(self, iv):
        for k, other in enumerate(self.all_itervars):
            if other.same_as(iv):
                return k
        return -1

    def itervar_id(self, iv):
        return "IterVar_%d_%d" % (self.index, self.itervar_index(iv))

    def attr_of(self, iv):
        """The stage's IterVarAttr of `iv` (what a primitive set on it), or None."""
        return self.attrs.get(iv)

    def type_of(self, iv):
        attr = self.attr_of(iv)
        kind = attr.iter_type if attr is not None else iv.iter_type
        return _ITERVAR_TYPES[kind] if 0 <= kind < len(_ITERVAR_TYPES) else ("k%d" % kind, "#FFFFFF")

    def thread_of(self, iv):
        attr = self.attr_of(iv)
        thread = attr.bind_thread if attr is not None else None
        if thread is None and iv.thread_tag:
            return iv.thread_tag
        return None if thread is None else thread.var.name

    def intrin_of(self, iv):
        attr = self.attr_of(iv)
        intrin = attr.tensor_intrin if attr is not None else None
        if intrin is None:
            return None
        body = getattr(intrin, "body", None)
        return str(body) if body is not None else intrin.name

    def itervar_label(self, iv):
        """`name(kType)`, the bound thread, the tensor intrinsic and the range (TEDD's cell)."""
        kind, _ = self.type_of(iv)
        text = _text("%s(%s)" % (iv.var.name, kind))
        thread = self.thread_of(iv)
        if thread:
            text += '<br/><font color="%s">(%s)</font>' % (_THREAD_COLOR, _text(thread))
        intrin = self.intrin_of(iv)
        if intrin:
            text += "<br/>" + _text("(tensor_intrin:%s)" % intrin)
        return text + "<br/>" + _text(_range_text(self.ranges.get(iv)))

    def annotations(self):
        """What TEDD does not show: store predicate, pragmas, prefetch, double buffer."""
        notes = []
        stage = self.stage
        predicate = stage.store_predicate
        if predicate is not None:
            notes.append("store predicate: %s" % predicate)
        if stage._is_double_buffered:
            notes.append("double-buffered")
        for iv in self.all_itervars:
            attr = self.attr_of(iv)
            if attr is None:
                continue
            for key in getattr(attr, "pragma_keys", []) or []:
                notes.append("pragma %s on %s" % (getattr(key, "value", key), iv.var.name))
            for tensor in getattr(attr, "prefetch_data", []) or []:
                notes.append("prefetch %s in %s" % (tensor.name, iv.var.name))
        return notes


def _model(sch, with_ranges):
    if not isinstance(sch, _schedule.Schedule):
        raise TypeError("TEDD draws a tvm.te.Schedule, got %s" % type(sch).__name__)
    ranges = {}
    if with_ranges:
        try:
            ranges = dict(_schedule.InferBound(sch.normalize()).items())
        except Exception as error:  # noqa: BLE001 - TEDD warns and shows no ranges
            _warnings.warn("Ranges are not available, because InferBound fails with the "
                           "following error:\n" + str(error))
    stages = [_Stage(k, stage, ranges) for k, stage in enumerate(sch.stages)]
    return stages, sch


def _graph(sch, kind):
    """The engine's graph model of `kind` (`dag`, `attach`, `itervar`) of the schedule as
    written: the nodes and edges the app draws, with the positions (stage, IterVar, relation)
    each shows. TEDD's three views take their structure from these."""
    return _core._graph_model(sch, kind)


def _stage_of_op(stages, op):
    for st in stages:
        if st.stage.op is not None and st.stage.op.same_as(op):
            return st
    return None


def _legend():
    rows = "".join('<TR><TD BGCOLOR="%s">%s</TD></TR>' % (color, name)
                   for name, color in _ITERVAR_TYPES)
    return ('  subgraph cluster_legend {\n    label=Legend\n'
            '    legend [label=<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4">'
            '<TR><TD BGCOLOR="lightgrey"><B>IterVar Type</B></TD></TR>%s</TABLE>> shape=plaintext]\n'
            '  }\n' % rows)


def _table(rows):
    return '<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0">%s</TABLE>>' % "".join(rows)


def _dataflow_dot(model):
    stages, sch = model
    lines = ['digraph "Dataflow Graph" {', "  graph [rankdir=LR]"]
    edges = []
    for st in stages:
        op = st.stage.op
        if op is None:
            continue
        inputs = list(op.input_tensors)
        height = max(len(inputs), len(st.outputs), 1)
        rows = []
        for r in range(height):
            cells = ""
            if r < len(inputs):
                cells += '<TD PORT="I_%d">%d</TD>' % (r, r)
            elif r == len(inputs) and inputs:
                cells += '<TD ROWSPAN="%d"></TD>' % (height - r)
            if r == 0:
                cells += '<TD BGCOLOR="lightgrey" ROWSPAN="%d">%s<br/>Scope: %s</TD>' % (
                    height, _text(st.name), _text(st.scope))
            if r < len(st.outputs):
                cells += '<TD PORT="O_%d">%d</TD>' % (r, r)
            elif r == len(st.outputs) and st.outputs:
                cells += '<TD ROWSPAN="%d"></TD>' % (height - r)
            rows.append("<TR>%s</TR>" % cells)
        lines.append("  Stage_%d [label=%s shape=none]" % (st.index, _table(rows)))
        for v in st.outputs:
            tensor = op.output(v)
            shape = "[%s]" % ", ".join(str(d) for d in tensor.shape)
            lines.append('  Tensor_%d_%d [label="%s\\n%s" shape=oval]' % (st.index, v, shape, tensor.dtype))
            edges.append("  Stage_%d:O_%d -> Tensor_%d_%d" % (st.index, v, st.index, v))
    # One dataflow edge of the stage DAG per tensor a consumer reads, in its order of reading:
    # TEDD's edge goes from that tensor to the consumer's input port.
    used = {}
    for edge in _graph(sch, "dag")["edges"]:
        if edge["style"] != "dataflow":
            continue
        producer = stages[_stage_of_node(edge["from"])]
        consumer = stages[_stage_of_node(edge["to"])]
        taken = used.setdefault(consumer.index, set())
        for k, tensor in enumerate(consumer.stage.op.input_tensors):
            if k not in taken and tensor.op.same_as(producer.stage.op):
                taken.add(k)
                edges.append("  Tensor_%d_%d -> Stage_%d:I_%d"
                             % (producer.index, tensor.value_index, consumer.index, k))
                break
    return "\n".join(lines + edges + ["}"]) + "\n"


def _stage_of_node(node_id):
    """The stage position of a graph model's stage node (`stage3`)."""
    return int(node_id[len("stage"):])


def _attach_edges(sch, stages):
    """Stage position -> (parent stage, leaf position or None), from the attach tree model:
    the loop each stage is computed in (None for ROOT). A scan's update hangs on the scan
    without a loop (leaf None). Stages outside the loop nest (inlined) have none: ROOT."""
    points = {}
    for edge in _graph(sch, "attach")["edges"]:
        if edge["style"] != "attach":
            continue
        child = _stage_of_node(edge["to"])
        if edge["from"] == "root":
            points[child] = None
        else:
            port = edge["from_port"]
            leaf = int(port[1:]) if port.startswith("l") else None
            points[child] = (stages[_stage_of_node(edge["from"])], leaf)
    return points


def _schedule_tree_dot(model):
    stages, sch = model
    points = _attach_edges(sch, stages)
    lines = ['digraph "Schedule Tree" {', "  graph [rankdir=BT]", _legend().rstrip("\n"),
             "  ROOT [label=ROOT shape=oval]"]
    edges = []
    for st in stages:
        if st.stage.op is None:
            continue
        rows = ['<TR><TD COLSPAN="2" BGCOLOR="lightgrey">%s<br/>Scope: %s</TD></TR>'
                % (_text(st.name), _text(st.scope))]
        for k, leaf in enumerate(st.leaves):
            _, color = st.type_of(leaf)
            rows.append('<TR><TD PORT="%s" BGCOLOR="%s">%d</TD><TD>%s</TD></TR>'
                        % (st.itervar_id(leaf), color, k, st.itervar_label(leaf)))
        for note in st.annotations():
            rows.append('<TR><TD COLSPAN="2">%s</TD></TR>' % _text(note))
        if st.compute is not None:
            rows.append('<TR><TD COLSPAN="2">%s</TD></TR>' % _text(st.compute))
        lines.append("  Stage_%d [label=%s shape=none]" % (st.index, _table(rows)))
        point = points.get(st.index)
        if point is None:
            edges.append('  Stage_%d -> ROOT [color="%s"]' % (st.index, _EDGE_PALETTE[0]))
        elif point[1] is None:  # a scan's update: in the scan's loop
            edges.append('  Stage_%d -> Stage_%d [color="%s" style=dashed]'
                         % (st.index, point[0].index, _EDGE_PALETTE[0]))
        else:
            parent, leaf = point
            iv = parent.leaves[leaf]
            k = parent.itervar_index(iv)
            color = _EDGE_PALETTE[k + 1] if 0 <= k < 8 else _EDGE_PALETTE[0]
            edges.append('  Stage_%d -> Stage_%d:%s [color="%s"]'
                         % (st.index, parent.index, parent.itervar_id(iv), color))
    return "\n".join(lines + edges + ["}"]) + "\n"


def _relation_node(node_id, name, inputs, outputs):
    width = max(len(inputs), len(outputs), 1)
    row_in = "".join('<TD PORT="%s">%s</TD>' % (p, p) for p in inputs) or "<TD></TD>"
    row_out = "".join('<TD PORT="%s">%s</TD>' % (p, p) for p in outputs)
    rows = ["<TR>%s</TR>" % row_in,
            '<TR><TD BGCOLOR="lightgrey" COLSPAN="%d">%s</TD></TR>' % (width, name),
            "<TR>%s</TR>" % row_out]
    return "    %s [label=%s shape=none]" % (node_id, _table(rows))


# The relation graph model's port names, as TEDD spells them.
_TEDD_PORTS = {"parent": "Input", "outer": "Outer", "inner": "Inner", "fused": "Fused",
               "rebased": "Rebased", "iter": "Iter"}


def _itervar_graph_dot(model):
    stages, sch = model
    graph = _graph(sch, "itervar")
    # The model's IterVar and relation nodes by stage, and the ports of each relation's edges.
    itervars, relations, ports = {}, {}, {}
    for node in graph["nodes"]:
        stage, itervar, relation = node["ref"]
        if node["kind"] == "itervar":
            itervars.setdefault(stage, []).append(itervar)
        elif node["kind"] == "relation":
            relations.setdefault(stage, []).append((relation, node["id"]))
            ports[node["id"]] = ([], [])
    ivs = {node["id"]: node["ref"] for node in graph["nodes"] if node["kind"] == "itervar"}
    for edge in graph["edges"]:
        if edge["to"] in ports:  # IterVar -> relation
            ports[edge["to"]][0].append((_TEDD_PORTS[edge["to_port"]], ivs[edge["from"]]))
        elif edge["from"] in ports:  # relation -> IterVar
            ports[edge["from"]][1].append((_TEDD_PORTS[edge["from_port"]], ivs[edge["to"]]))
    lines = ['digraph "IterVar Relationship Graph" {', "  graph [rankdir=TB]",
             _legend().rstrip("\n")]
    edges = []
    for st in stages:
        if st.stage.op is None:
            continue
        lines.append("  subgraph cluster_Stage_%d {" % st.index)
        lines.append('    label="%s"' % st.name.replace('"', '\\"'))
        if not itervars.get(st.index):
            lines.append("    Stage_%d_placeholder [style=invis]" % st.index)
        for i in itervars.get(st.index, []):
            iv = st.all_itervars[i]
            _, color = st.type_of(iv)
            row = '<TR><TD PORT="itervar" BGCOLOR="%s">%d</TD><TD>%s</TD></TR>' % (
                color, st.leaf_index(iv), st.itervar_label(iv))
            lines.append("    IterVar_%d_%d [label=%s shape=none]" % (st.index, i, _table([row])))
        for r, model_id in relations.get(st.index, []):
            kind = type(st.stage.relations[r]).__name__
            node_id = "%s_Relation_%d_%d" % (kind, st.index, r)
            inputs, outputs = ports[model_id]
            lines.append(_relation_node(node_id, kind, [p for p, _ in inputs],
                                        [p for p, _ in outputs]))
            for port, (s_, i, _) in inputs:
                edges.append("  IterVar_%d_%d:itervar -> %s:%s" % (s_, i, node_id, port))
            for port, (s_, i, _) in outputs:
                edges.append("  %s:%s -> IterVar_%d_%d:itervar" % (node_id, port, s_, i))
        lines.append("  }")
    return "\n".join(lines + edges + ["}"]) + "\n"


def _output(dot, show_svg, dot_file_path, output_dot_string):
    if dot_file_path:
        with open(dot_file_path, "w") as out:
            out.write(dot)
    if show_svg:
        svg = _core._render_dot(dot, "svg").decode("utf-8")
        try:
            from IPython.display import SVG, display  # pylint: disable=import-outside-toplevel
        except ImportError:
            _warnings.warn("show_svg shows the graph in a notebook, which needs IPython; "
                           "write it with dot_file_path instead")
        else:
            display(SVG(svg))
    return dot if output_dot_string else None


def viz_dataflow_graph(sch, show_svg=False, dot_file_path="", output_dot_string=False):
    """TEDD's dataflow graph: a node per stage with its input ports I_k and output ports O_v,
    a node per tensor (shape and dtype), edges producer -> tensor -> consumer."""
    return _output(_dataflow_dot(_model(sch, False)), show_svg, dot_file_path, output_dot_string)


def viz_schedule_tree(sch, show_svg=False, dot_file_path="", output_dot_string=False):
    """TEDD's schedule tree: each stage's leaf loops (type, bound thread, range from InferBound)
    and its compute, with an edge to the loop it is computed in (or to ROOT)."""
    return _output(_schedule_tree_dot(_model(sch, True)), show_svg, dot_file_path,
                   output_dot_string)


def viz_itervar_relationship_graph(sch, show_svg=False, dot_file_path="", output_dot_string=False):
    """TEDD's IterVar relationship graph: per stage, every IterVar (leaf index or -1, type,
    range) and the Split / Fuse / Rebase / Singleton relations between them."""
    return _output(_itervar_graph_dot(_model(sch, True)), show_svg, dot_file_path,
                   output_dot_string)
