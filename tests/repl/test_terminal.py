"""End to end in a real pseudo-terminal (pexpect): `python -m gradrepl` as a learner uses it."""
import os
import re
import sys
import time
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[2]
COLOR = re.compile(r"\x1b\[(?:\d+;)*(?:3[0-8]|9[0-7]|4[0-8])(?:;\d+)*m")
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")


class Terminal:
    """A pexpect child whose output is matched as text, escape sequences removed (values are
    highlighted token by token, so `tensor([3., 5.])` is not contiguous on the wire)."""

    def __init__(self, child):
        self.child = child
        self.raw = ""        # everything read so far, with escape sequences
        self.text = ""       # unmatched text, escape sequences removed

    # generous: start-up on a loaded machine takes seconds; a missing text still fails
    def expect(self, wanted, timeout=120):
        deadline = time.monotonic() + timeout
        while wanted not in self.text:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"{wanted!r} not seen; the screen ended with {self.text[-300:]!r}")
            try:
                chunk = self.child.read_nonblocking(4096, timeout=min(remaining, 0.2))
            except pexpect.TIMEOUT:
                continue
            self.raw += chunk
            self.text += CONTROL.sub("", chunk)
        self.text = self.text[self.text.index(wanted) + len(wanted):]

    def send(self, keys):
        self.child.send(keys)

    def prompt(self):
        self.expect(">>>")

# 004's code as a learner types it: block bodies without indentation (the REPL indents
# after `:`), a blank line to end each block.
TUTORIAL_004 = [
    ("import torch", ">>>"),
    ("x = torch.ones(2, 2, requires_grad=True)", "x: requires_grad=True  is_leaf=True  grad_fn=None"),
    ("print(x)", "requires_grad=True)"),
    ("y = x + 2", "grad_fn=<AddBackward0>"),
    ("print(y.grad_fn)", "<AddBackward0 object at 0x"),
    ("z = y * y * 3", "z: requires_grad=True  is_leaf=False  grad_fn=<MulBackward0>"),
    ("out = z.mean()", "out: requires_grad=True  is_leaf=False  grad_fn=<MeanBackward0>"),
    ("a = torch.randn(2, 2)", "a: requires_grad=False  is_leaf=True  grad_fn=None"),
    ("a = ((a * 3) / (a - 1))", "a: requires_grad=False"),
    ("a.requires_grad_(True)", "requires_grad=True)"),
    ("b = (a * a).sum()", "b: requires_grad=True  is_leaf=False  grad_fn=<SumBackward0>"),
    ("out.backward()", ".grad changed"),
    ("print(x.grad)", "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])"),
    ("x = torch.randn(3, requires_grad=True)", "x: requires_grad=True"),
    ("y = x * 2", "y: requires_grad=True"),
    ("while y.data.norm() < 1000:", None),
    ("y = y * 2", None),
    ("", "y: requires_grad=True  is_leaf=False  grad_fn=<MulBackward0>"),
    ("v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)", "v: requires_grad=False"),
    ("y.backward(v)", ".grad changed"),
    ("with torch.no_grad():", None),
    ("print((x ** 2).requires_grad)", None),
    ("", "False"),
    ("y = x.detach()", "y: requires_grad=False  is_leaf=True  grad_fn=None"),
    ("print(x.eq(y).all())", "tensor(True)"),
]


def spawn(home, *args, **env):
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    environment.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), TERM="xterm-256color",
                       LANG="C.UTF-8", PROMPT_TOOLKIT_NO_CPR="1")
    environment.update(env)
    child = pexpect.spawn(sys.executable, ["-m", "gradrepl", *args], cwd=str(ROOT), env=environment,
                          dimensions=(40, 120), encoding="utf-8", timeout=120)
    terminal = Terminal(child)
    terminal.prompt()
    return terminal


def run(terminal, line, expected):
    """Type a line, see `expected`, wait for the next prompt."""
    terminal.send(line + "\r")
    terminal.expect(expected)
    terminal.prompt()


def finish(terminal):
    terminal.child.sendcontrol("d")
    terminal.child.expect(pexpect.EOF)
    terminal.child.close()
    assert terminal.child.exitstatus == 0


def test_tutorial_004_line_by_line(tmp_path):
    terminal = spawn(tmp_path)
    for line, expected in TUTORIAL_004:
        if expected is None:
            terminal.send(line + "\r")
            terminal.expect("...")
        else:
            run(terminal, line, expected)
    finish(terminal)


def test_tab_completion(tmp_path):
    terminal = spawn(tmp_path)
    run(terminal, "x = torch.ones(2, requires_grad=True)", "x: requires_grad=True")
    terminal.send("x.requ")
    terminal.send("\t")
    terminal.expect("requires_grad_")             # the menu offers both
    terminal.send("\r")
    terminal.expect("\nTrue\n")
    terminal.prompt()
    finish(terminal)


def test_ctrl_c_stops_a_loop_and_keeps_variables(tmp_path):
    terminal = spawn(tmp_path)
    run(terminal, "kept = torch.tensor([1.5, 2.5])", "kept: requires_grad=False")
    for line in ("def spin():", "print('spin' + 'ning')", "while True:", "pass", ""):
        terminal.send(line + "\r")
    terminal.send("spin()\r")
    terminal.expect("spinning")                   # printed (not echoed): the loop is running
    terminal.child.sendintr()
    terminal.expect("KeyboardInterrupt: stopped; your variables are kept")
    terminal.prompt()
    run(terminal, "kept * 2", "tensor([3., 5.])")
    finish(terminal)


def test_history_is_recalled_after_restart(tmp_path):
    terminal = spawn(tmp_path)
    run(terminal, "marker_12345 = torch.zeros(1)", "marker_12345: requires_grad=False")
    finish(terminal)
    history = (tmp_path / "data" / "gradrepl" / "history").read_text()
    assert "+marker_12345 = torch.zeros(1)" in history
    terminal = spawn(tmp_path)
    terminal.send("\x1b[A")                         # Up
    terminal.expect("marker_12345")
    run(terminal, "", "marker_12345: requires_grad=False")
    run(terminal, "other = 2", "other = 2")
    terminal.send("\x12")                           # Ctrl-R: search back past `other = 2`
    terminal.send("marker")
    terminal.expect("I-search backward:")
    terminal.send("\r")                             # accept the found entry
    run(terminal, "", "marker_12345: requires_grad=False")
    finish(terminal)


@pytest.mark.parametrize("args, env, colored", [
    ((), {}, True), ((), {"NO_COLOR": "1"}, False), ((), {"TERM": "dumb"}, False),
    (("--no-color",), {}, False)])
def test_colour_follows_no_color_and_term(tmp_path, args, env, colored):
    terminal = spawn(tmp_path, *args, **env)
    run(terminal, "undefined_name", "is not defined")
    run(terminal, "torch.ones(3)", "tensor([1., 1., 1.])")
    assert bool(COLOR.search(terminal.raw)) == colored
    finish(terminal)


def test_dumb_terminal_reads_plain_lines_with_continuation(tmp_path):
    terminal = spawn(tmp_path, TERM="dumb")
    terminal.send("for i in range(2):\r")
    terminal.expect("...")
    terminal.send("    print('row', i)\r")
    terminal.expect("...")
    run(terminal, "", "row 0\nrow 1\n")
    finish(terminal)


def test_lang_flag_starts_the_repl_in_chinese(tmp_path):
    """`gradrepl --lang zh` on an English locale: banner, annotations, the tools, hints."""
    terminal = spawn(tmp_path, "--lang", "zh")
    assert "看得见的 autograd" in CONTROL.sub("", terminal.child.before or "") + terminal.raw
    run(terminal, "y = torch.ones(2, requires_grad=True) * 2", "y：requires_grad=True  is_leaf=False")
    run(terminal, ":explain y", "y 的链式法则")
    run(terminal, "y.backward()", "提示：传入一个形状相同的梯度")
    run(terminal, ":lang en", "language: en")
    run(terminal, ":explain y", "Chain rule for y")
    finish(terminal)
