import io

import pytest

from gradrepl.repl.render import Printer, make_console, plain_wanted, short_repr


def test_plain_output_rules():
    assert plain_wanted(environ={"NO_COLOR": "1"})
    assert plain_wanted(environ={"TERM": "dumb"})
    assert plain_wanted(no_color=True, environ={})
    assert not plain_wanted(environ={"TERM": "xterm-256color"})


def nested(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("value, shown", [
    (3, "3"), (2.5, "2.5"), ("ab", "'ab'"), ((1, "x"), "(1, 'x')"), ({"a": [1, 2]}, "{'a': [1, 2]}"),
    (None, "None"),
    (list(range(100)), None),          # too long
    ([[0] * 10 ** 6], None),           # short outside, huge inside: never stringified
    (nested(100), None),
    ("line\nbreak", "'line\\nbreak'"),   # the repr escapes the newline: one line
])
def test_short_repr(value, shown):
    assert short_repr(value, 40) == shown


def test_short_repr_survives_a_list_that_contains_itself():
    loop = []
    loop.append(loop)
    assert short_repr(loop, 40) is None


def test_values_keep_pytorchs_layout_on_a_narrow_terminal():
    out = io.StringIO()
    printer = Printer(make_console(True, file=out, width=30))
    text = "tensor([[0.0000, 0.1429, 0.2857, 0.4286],\n        [0.5714, 0.7143, 0.8571, 1.0000]])\n"
    printer.value(text)
    assert out.getvalue() == text
