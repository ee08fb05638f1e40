"""Carets under the failing sub-expression: CPython 3.11's own caret lines are the oracle."""
import subprocess
import sys

import pytest
from lang_helpers import run

PLAIN = [
    "a = 1\nb = 0\nprint(1); x = a + a / b",
    "d = {}\nx = 1 + d['k']",
    "x = 1\ny = x.foo + 1",
    "def f(x):\n    return x\ny = f(1, 2) + 1",
    "x = 1\nx.foo()",
    "n = 5\nn[0] + 1",
    "y = undefined_name * 2",
    "xs = [1, 2]\nv = xs[5] + 1",
    "s = 'a' + 1",                       # the whole right-hand side: ~~~^~~
    "undefined_name",                    # the whole line: no carets, in CPython either
    "def g():\n    return 1 / 0\ng()",
]


def _cpython_carets(src, tmp_path):
    """The caret line CPython prints under the innermost frame's source line, or None."""
    path = tmp_path / "case.py"
    path.write_text(src + "\n")
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=60)
    frame = done.stderr.splitlines()[-4:-1]
    if frame[0].lstrip().startswith("File ") and set(frame[2].strip()) <= set("^~"):
        return frame[2][4:]
    return None


@pytest.mark.parametrize("src", PLAIN)
def test_carets_match_cpython(src, tmp_path):
    expected = _cpython_carets(src, tmp_path)
    _, result = run(src)
    error = result.errors[0]
    assert error.carets == expected, (error.format(), expected)
    report = error.format().splitlines()
    if expected is not None:
        assert report[2] == "    " + expected


@pytest.mark.parametrize("src, carets", [
    ("x = torch.ones(3)\nz = x + torch.ones(2)", "    ~~^~~~~~~~~~~~~~~"),
    ("x = torch.ones(3, requires_grad=True)\nw = torch.exp(x).sum() + x.foo(1)", " " * 25 + "^^^^^"),
    ("x = torch.ones(3, requires_grad=True)\ny = x * 2\ny.backward()", None),    # the whole line
    ("x = torch.ones(3, requires_grad=True)\nv = 2 * (x * 2).backward()", " " * 8 + "^" * 18),
])
def test_carets_for_tensor_errors(src, carets):
    _, result = run(src)
    assert result.errors[0].carets == carets
