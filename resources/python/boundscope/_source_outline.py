"""The outline of a script that schedule edits are placed by (engine/script/edit).

CPython's own parser reads the script; the engine gets plain data back: for each top-level
statement, where it is (lines and byte offsets into the UTF-8 text), the names it binds and
reads, the plain names it assigns and the text of the value, and, when it calls a schedule
primitive (``s[C].split(...)``, ``s.cache_read(...)``), which one with which arguments.
Nothing here imports tvm or runs the script.
"""

import ast
import io
import tokenize

_SCHEDULE_METHODS = ("cache_read", "cache_write", "rfactor", "create_group")


def _plain_targets(node):
    """`a, (b, c)` -> ['a', 'b', 'c']; None when a target is not a plain name."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        names = []
        for element in node.elts:
            inner = _plain_targets(element)
            if inner is None:
                return None
            names.extend(inner)
        return names
    return None


class _Names(ast.NodeVisitor):
    """The names a statement binds at module scope and every name it reads."""

    def __init__(self):
        self.binds = []
        self.loads = set()
        self.bare = set()  # read other than as `x[...]` or `x.attr`: handed on whole
        self._depth = 0  # inside a function, lambda or class body: bindings are local

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self.loads.add(node.id)
            self.bare.add(node.id)
        elif self._depth == 0:
            self.binds.append(node.id)

    def _visit_through(self, node):
        if isinstance(node.value, ast.Name) and isinstance(node.value.ctx, ast.Load):
            self.loads.add(node.value.id)
            for field, value in ast.iter_fields(node):
                if field != "value" and isinstance(value, ast.AST):
                    self.visit(value)
            return
        self.generic_visit(node)

    visit_Subscript = visit_Attribute = _visit_through

    def _scope(self, node, name=None):
        if name is not None and self._depth == 0:
            self.binds.append(name)
        for decorator in getattr(node, "decorator_list", []):
            self.visit(decorator)
        self._depth += 1
        for field in ("args", "body", "bases", "keywords", "returns"):
            value = getattr(node, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self.visit(item)
            elif isinstance(value, ast.AST):
                self.visit(value)
        self._depth -= 1

    def visit_FunctionDef(self, node):
        self._scope(node, node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self._scope(node, node.name)

    def visit_Lambda(self, node):
        self._scope(node)

    def visit_ListComp(self, node):
        self._scope_comprehension(node)

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp

    def _scope_comprehension(self, node):
        self._depth += 1
        self.generic_visit(node)
        self._depth -= 1

    def visit_alias(self, node):
        if self._depth == 0:
            self.binds.append(node.asname or node.name.split(".")[0])

    def visit_ExceptHandler(self, node):
        if node.name and self._depth == 0:
            self.binds.append(node.name)
        self.generic_visit(node)


def _imports(node):
    """(module, bound name) pairs: `from tvm import te` -> ('tvm.te', 'te')."""
    pairs = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                pairs.append((alias.name, alias.asname))
            else:
                top = alias.name.split(".")[0]
                pairs.append((top, top))
    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
        for alias in node.names:
            pairs.append((node.module + "." + alias.name, alias.asname or alias.name))
    return pairs


def _primitive(value):
    """A call of a schedule primitive: `s[C].split(x, 4)` or `s.cache_read(A, ...)`."""
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return None
    receiver = value.func.value
    record = {
        "method": value.func.attr,
        "args": [ast.unparse(a) for a in value.args],
        "keywords": {k.arg: ast.unparse(k.value) for k in value.keywords if k.arg},
    }
    if isinstance(receiver, ast.Subscript) and isinstance(receiver.value, ast.Name):
        record["schedule"] = receiver.value.id
        record["stage"] = ast.unparse(receiver.slice)
        return record
    if isinstance(receiver, ast.Name) and value.func.attr in _SCHEDULE_METHODS:
        record["schedule"] = receiver.id
        record["stage"] = record["args"][0] if record["args"] else ""
        return record
    return None


def _line_offsets(source_bytes):
    offsets = [0]
    for index, byte in enumerate(source_bytes):
        if byte == 0x0A:
            offsets.append(index + 1)
    return offsets


def outline(source):
    """The top-level statements of `source` (a str), as dicts; raises SyntaxError."""
    tree = ast.parse(source)
    offsets = _line_offsets(source.encode("utf-8"))
    statements = []
    for node in tree.body:
        names = _Names()
        names.visit(node)
        entry = {
            "line": node.lineno,
            "end_line": node.end_lineno,
            "start": offsets[node.lineno - 1] + node.col_offset,
            "end": offsets[node.end_lineno - 1] + node.end_col_offset,
            "binds": names.binds,
            "loads": sorted(names.loads),
            "bare": sorted(names.bare),
            "targets": [],
            "value": "",
            "imports": _imports(node),
            "primitive": None,
        }
        value = None
        if isinstance(node, ast.Assign):
            value = node.value
            if len(node.targets) == 1:
                entry["targets"] = _plain_targets(node.targets[0]) or []
        elif isinstance(node, ast.Expr):
            value = node.value
        if value is not None:
            entry["value"] = ast.unparse(value)
            entry["primitive"] = _primitive(value)
        statements.append(entry)
    return statements


def identifiers(source):
    """Every identifier-like word of `source`, in code, strings and comments alike."""
    words = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME:
                words.add(token.string)
            elif token.type in (tokenize.STRING, tokenize.COMMENT):
                words.update(_words(token.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        words.update(_words(source))
    return sorted(words)


def _words(text):
    import re

    return re.findall(r"[A-Za-z_]\w*", text)


def parse_call(text):
    """`C.split(i.outer, factor=8)` -> the receiver's text, the method and the arguments.

    Each argument is a dict: its source text, and its kind: 'name' (a dotted name such as
    `i.outer`), 'string', 'int', 'list' (of such arguments, in 'items') or 'other'.
    Raises SyntaxError, or ValueError when the text is not one method call.
    """
    tree = ast.parse(text.strip(), mode="eval")
    call = tree.body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        raise ValueError("expected STAGE.PRIMITIVE(ARGS), e.g. C.split(i, factor=8)")
    return {
        "receiver": ast.unparse(call.func.value),
        "method": call.func.attr,
        "args": [_argument(a) for a in call.args],
        "keywords": {k.arg: _argument(k.value) for k in call.keywords if k.arg},
    }


def _argument(node):
    text = ast.unparse(node)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {"kind": "string", "text": text, "value": node.value}
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(
        node.value, bool
    ):
        return {"kind": "int", "text": text, "value": str(node.value)}
    if isinstance(node, (ast.List, ast.Tuple)):
        return {"kind": "list", "text": text, "items": [_argument(e) for e in node.elts]}
    dotted = node
    while isinstance(dotted, ast.Attribute):
        dotted = dotted.value
    if isinstance(dotted, ast.Name):
        return {"kind": "name", "text": text}
    return {"kind": "other", "text": text}


def name_offsets(source, name):
    """Byte offsets of the variable `name` in `source`: every NAME token spelled so, except
    attributes (`x.name`) and keyword arguments (`f(name=...)`)."""
    lines = io.StringIO(source).readlines()  # the lines tokenize counts (only \n ends one)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode("utf-8")))
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT,
                          tokenize.DEDENT)
    ]
    offsets = []
    depth = 0
    for index, token in enumerate(tokens):
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        if token.type != tokenize.NAME or token.string != name:
            continue
        before = tokens[index - 1] if index > 0 else None
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        if before is not None and before.string == ".":
            continue
        if depth > 0 and after is not None and after.string == "=":
            continue
        row, col = token.start
        line = lines[row - 1] if row - 1 < len(lines) else ""
        offsets.append(starts[row - 1] + len(line[:col].encode("utf-8")))
    return offsets


# The calls that make a stage, and the position of their `name` argument.
_NAME_POSITION = {"compute": 2, "placeholder": 2, "extern": 3, "scan": 4}


def name_insertion(text):
    """Where a `name=` argument goes in `text`, one top-level statement that assigns the stage a
    te.compute (placeholder, extern, scan) call makes without naming it: the byte offset of the
    call's closing parenthesis, and whether a comma must come first. None when the statement is
    not such a call, or names the stage already (by keyword, position or **kwargs)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Assign):
        return None
    call = tree.body[0].value
    if not isinstance(call, ast.Call):
        return None
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    position = _NAME_POSITION.get(called)
    if position is None or len(call.args) > position:
        return None
    if any(k.arg in ("name", None) for k in call.keywords):
        return None
    source = text.encode("utf-8")
    close = _line_offsets(source)[call.end_lineno - 1] + call.end_col_offset - 1
    before = source[:close].rstrip()
    return (close, not (before.endswith(b",") or before.endswith(b"(")))
