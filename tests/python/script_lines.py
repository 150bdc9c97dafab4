"""Finding lines of a test script by marker: a line that ends with the comment `# @name` is
`line_of(__file__, "name")`. The tests compare these with the lines Boundscope records."""


def line_of(path, marker):
    tag = "# @" + marker
    with open(path) as source:
        lines = [k + 1 for k, text in enumerate(source) if text.rstrip().endswith(tag)]
    assert len(lines) == 1, "marker %s on %d lines of %s" % (tag, len(lines), path)
    return lines[0]


def innermost_line_in(path, error):
    """The innermost traceback line of `error` in file `path` (where Boundscope reports it)."""
    line, tb = None, error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
