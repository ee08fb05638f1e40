"""The REPL driven through prompt_toolkit's pipe input: keys in, plain text out."""
import os
import signal
import threading
from pathlib import Path

from gradrepl.repl.history import AtomicFileHistory

TUTORIAL_004 = [
    "x = torch.ones(2, 2, requires_grad=True)",
    "y = x + 2",
    "z = y * y * 3",
    "out = z.mean()",
    "out.backward()",
    "print(x.grad)",
]


def test_tutorial_annotations_and_gradients(drive):
    out = drive("\r".join(TUTORIAL_004) + "\r")
    assert "x: requires_grad=True  is_leaf=True  grad_fn=None" in out
    assert "y: requires_grad=True  is_leaf=False  grad_fn=<AddBackward0>" in out
    assert "out: requires_grad=True  is_leaf=False  grad_fn=<MeanBackward0>" in out
    assert "tensor(27., grad_fn=<MeanBackward0>)" in out
    # the table after backward lists the leaf whose .grad changed, as PyTorch prints it
    table = out[out.index(".grad changed"):]
    assert "x" in table and "(2, 2)" in table and "tensor([[4.5000, 4.5000]," in table
    # print() output is PyTorch's text, unchanged
    assert "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n" in out
    assert drive.status == 0


def test_values_echo_exactly_as_pytorch_prints_them(drive):
    out = drive("torch.arange(12.).reshape(3, 4) / 7\r")
    assert out.splitlines()[1:4] == [
        "tensor([[0.0000, 0.1429, 0.2857, 0.4286],",
        "        [0.5714, 0.7143, 0.8571, 1.0000],",
        "        [1.1429, 1.2857, 1.4286, 1.5714]])"]


def test_tutor_off_gives_plain_python_output(drive):
    out = drive(":tutor off\rx = torch.ones(2, requires_grad=True)\rx.sum().backward()\rx.grad\r")
    assert "tutor annotations off" in out
    assert "requires_grad=True  is_leaf" not in out and ".grad changed" not in out
    assert out.rstrip().endswith("tensor([1., 1.])")


def test_non_leaf_grad_warns_as_pytorch_does(drive):
    out = drive("x = torch.ones(2, requires_grad=True)\ry = x * 2\ry.grad\r")
    assert "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being " \
           "accessed." in out.replace("\n", " ")
    assert out.count("UserWarning") == 1            # only the learner's own read warns


def test_other_assignments_are_shown_briefly(drive):
    out = drive("n = 3\rdef f(a):\rreturn a\r\r")
    assert "n = 3" in out
    assert "f =" not in out


def test_multiline_block_with_auto_indent(drive):
    out = drive("total = 0\rfor i in range(4):\rtotal += i\r\rprint(total)\r")
    assert "6\n" in out
    assert drive.repl.history.entries()[1] == "for i in range(4):\n    total += i"


def test_dedent_after_return_and_backspace(drive):
    drive("def f(a):\rif a:\rreturn 1\rreturn 2\r\rif True:\ra = 1\r\x7fb = 2\r")
    entries = drive.repl.history.entries()
    assert entries[0] == "def f(a):\n    if a:\n        return 1\n    return 2"
    assert entries[1] == "if True:\n    a = 1\nb = 2"


def test_tab_indents_at_line_start_and_completes_elsewhere(drive):
    out = drive(["if True:\r\tv = 1\r\rx = torch.ones(1, requires_grad=True)\rx.requ\t",
                 lambda repl: repl.prompt.default_buffer.text == "x.requires_grad", "\r"])
    assert drive.repl.history.entries()[0] == "if True:\n        v = 1"
    assert drive.repl.history.entries()[-1] == "x.requires_grad"
    assert out.rstrip().endswith("True")


def test_escape_enter_runs_a_block_at_once(drive):
    out = drive("for i in range(2): print('hi', i)\x1b\r")
    assert "hi 0\nhi 1\n" in out


def test_bracketed_paste_keeps_indentation(drive):
    block = "def g(t):\n    if t:\n        return 1\n\n    return 2\nprint(g(0))\n"
    out = drive("\x1b[200~" + block + "\x1b[201~\r")
    assert "2\n" in out
    assert drive.repl.history.entries()[0] == block.rstrip()


def test_ctrl_c_clears_the_line_and_ctrl_d_exits(drive):
    out = drive("never_run = 1\x03kept = 2\r\x04after_exit = 3\r")
    assert "kept = 2" in out
    assert "never_run" not in out and "after_exit" not in out
    assert drive.repl.history.entries() == ["kept = 2"]
    assert drive.status == 0


def test_exit_and_quit_without_parentheses(drive):
    assert "a = 1" not in drive("exit\ra = 1\r")
    assert "a = 1" not in drive("quit\ra = 1\r")
    assert "a = 1" not in drive("exit()\ra = 1\r")


def test_syntax_error_is_held_back_before_running(drive):
    out = drive("x = )\r\x03ok = 1\r")
    assert "SyntaxError" not in out          # shown at the prompt by the validator, nothing ran
    assert "ok = 1" in out


def test_errors_show_source_caret_message_and_hint(drive):
    out = drive("x = torch.ones(2, requires_grad=True)\ry = x * 2\ry.backward()\rz = x + torch.ones(3)\r")
    assert "    y.backward()\nRuntimeError" in out          # the whole line failed: no carets (Python 3.11)
    assert "    z = x + torch.ones(3)\n        ~~^~~~~~~~~~~~~~~\n" in out     # under the failing part
    assert "RuntimeError: grad can be implicitly created only for scalar outputs" in out
    assert "hint: pass a gradient of the same shape, such as y.backward(torch.ones_like(y))" in out
    assert "Traceback" not in out


def test_meta_commands_run_only_from_typed_input(drive, tmp_path):
    script = tmp_path / "script.py"
    script.write_text("w = torch.ones(3)\n:reset\n")
    out = drive(f":load {script}\rw\r")
    assert "SyntaxError" in out                     # `:reset` in a file is not a command
    assert "w = torch.ones(3)" not in out


def test_load_and_save(drive, tmp_path):
    script = tmp_path / "in.py"
    script.write_text("a = torch.tensor([1., 2.], requires_grad=True)\nb = (a * a).sum()\n")
    saved = tmp_path / "out.py"
    out = drive(f":load {script}\rb.backward()\rbroken(\r)\ra.grad\r:save {saved}\r")
    assert "2 statements ran; names: a, b" in out
    assert "tensor([2., 4.])" in out
    assert saved.read_text() == ("import torch\na = torch.tensor([1., 2.], requires_grad=True)\n"
                                 "b = (a * a).sum()\nb.backward()\nprint(a.grad)\n")
    assert not list(tmp_path.glob(".out.py-*"))    # the temporary file was renamed into place


def test_vars_grad_reset_and_unknown_command(drive):
    out = drive("x = torch.ones(2, requires_grad=True)\ry = x * 3\ry.sum().backward()\r"
                ":vars\r:grad\r:grad y\r:reset\r:vars\r:vras\r")
    table = out[out.index("tensors"):]
    assert "MulBackward0" in table and "yes (2,)" in table
    assert "y.grad is None: it is not a leaf: call .retain_grad() on it before backward()" in out
    assert "session reset" in out and "no variables yet" in out
    assert "unknown command :vras; did you mean :vars?" in out


def test_help_topics(drive):
    out = drive("help\r:help autograd\r:help :graph\r:help nonsense\r")
    assert ":jacobian Y X" in out and "x.grad" in out
    assert ":graph NAME [dot|mermaid|FILE]\n  draw the autograd graph that produced NAME" in out
    assert "no help on 'nonsense'" in out


def test_history_persists_and_is_listed(drive, tmp_path):
    path = tmp_path / "hist" / "history"
    drive("first = 1\rsecond = 2\r", history=AtomicFileHistory(path))
    again = AtomicFileHistory(path)
    assert again.load_history_strings() == ["second = 2", "first = 1"]
    out = drive(":history\r", history=again)
    assert "   1  first = 1\n   2  second = 2\n" in out


def test_unwritable_history_warns_and_goes_on(drive, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the directory should be")
    out = drive("a = 1\rb = 2\r", history=AtomicFileHistory(blocked / "history"))
    assert out.index("a = 1") < out.index("warning: could not save history to") < out.index("b = 2")
    assert out.count("could not save history") == 1


def test_ctrl_c_stops_a_running_statement_and_keeps_variables(drive):
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        out = drive("keep = torch.ones(1)\rwhile True:\rpass\r\rkeep * 2\r")
    finally:
        timer.cancel()
    assert "KeyboardInterrupt: stopped; your variables are kept" in out
    assert out.rstrip().endswith("tensor([2.])")


def test_no_traceback_on_internal_error(drive, monkeypatch):
    from gradrepl.repl import repl as repl_module

    def broken(self, text, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(repl_module.Repl, "run_code", broken)
    out = drive("x = 1\r")
    assert "gradrepl: internal error (ValueError: boom)" in out and "Traceback" not in out


def test_several_statements_show_flags_without_repeating_values(drive):
    out = drive("\x1b[200~x = torch.ones(2)\nprint(x)\n\x1b[201~\r")
    assert out.count("tensor([1., 1.])") == 1
    assert "x: shape (2,)  requires_grad=False  is_leaf=True  grad_fn=None" in out


def test_graph_explain_gradcheck_jacobian(drive, tmp_path):
    setup = "x = torch.ones(2, 2, requires_grad=True)\ry = x + 2\rz = y * y * 3\rout = z.mean()\r"
    picture = tmp_path / "out.mmd"
    out = drive(setup + f":graph out\r:graph out {picture}\r:explain out\r:gradcheck out\r"
                ":jacobian z x\r:grad x\r:graph nope\r:jacobian z\ry.grad\r")
    graph = out[out.index("MeanBackward0"):]
    assert "AddBackward0" in graph and "AccumulateGrad" in graph
    assert picture.read_text().startswith("graph BT")
    assert f"graph of out saved to {picture}" in out
    assert "x.grad = [[4.5000, 4.5000], [4.5000, 4.5000]]" in out
    assert "d out / d x_i = 3/2 (x_i + 2)" in out
    assert "passed:" in out
    assert "tensor([[18.,  0.,  0.,  0.]," in out
    assert "x.grad is None: no backward() has reached it yet" in out   # the learner's grads untouched
    assert ":graph: name 'nope' is not defined" in out
    assert "usage: :jacobian Y X" in out
    assert "make sure you access the leaf Tensor" in out and out.rstrip().endswith("for more information.")  # warned


def test_gradcheck_replays_random_draws(drive):
    out = drive("w = torch.randn(3, requires_grad=True)\rloss = (w.sin() * w).sum()\r"
                ":reset\rw = torch.randn(3, requires_grad=True)\rloss = (w * w * w).sum()\r"
                ":gradcheck loss\r")
    assert "passed:" in out


def test_history_reads_prompt_toolkit_files(tmp_path):
    path = tmp_path / "history"
    path.write_text("\n# 2026-11-30 02:00:00.1\n+x = 1\n\n# 2026-11-30 02:00:01.2\n"
                    "+for i in range(2):\n+    print(i)\n")
    assert AtomicFileHistory(path).entries() == ["x = 1", "for i in range(2):\n    print(i)"]


def test_explain_after_backward_while_the_tutor_is_on(drive):
    from gradrepl.engine import autograd

    setup = "x = torch.ones(2, requires_grad=True)\ry = (x * x).sum()\ry.backward()\r"
    out = drive(setup + ":explain y\ry.backward()\r")
    assert "x.grad = [2., 2.]" in out
    assert "RuntimeError: Trying to backward through the graph a second time" in out
    assert autograd.KEEP_SAVED == [False]           # only while the learner's code runs
    out = drive(":tutor off\r" + setup + ":explain y\r")     # the tools do not depend on the tutor
    assert "x.grad = [2., 2.]" in out and ":explain: " not in out


def test_every_tool_works_after_an_ordinary_backward(drive):
    """Issue 17: the README's `:gradcheck out` right after the tutorial's `out.backward()`."""
    setup = ("x = torch.ones(2, 2, requires_grad=True)\ry = x + 2\rz = y * y * 3\rout = z.mean()\r"
             "out.backward()\r")
    out = drive(setup + ":gradcheck out\r:jacobian z x\r:explain z\r:graph out\r:gradcheck y\r"
                ":jacobian y x\rx.grad\r")
    assert "internal error" not in out and "Trying to backward" not in out
    assert out.count("passed:") == 2
    assert "tensor([[18.,  0.,  0.,  0.]," in out
    assert "tensor([[1., 0., 0., 0.]," in out
    assert "MeanBackward0" in out
    assert out.rstrip().endswith("tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])")   # .grad as it was


def test_tools_on_a_graph_changed_in_place_say_why(drive):
    setup = ("w = torch.ones(3, requires_grad=True)\rloss = (w * w).sum()\rloss.backward()\r"
             "with torch.no_grad():\r    w -= 0.1 * w.grad\r\r")
    out = drive(setup + ":explain loss\r:gradcheck loss\r:jacobian loss w\r")
    assert out.count("w changed in place after loss was computed") == 3
    assert "internal error" not in out


def test_output_without_newline_is_finished_before_the_next_prompt(drive):
    out = drive('print("abc", end="")\rprint("def", end="")\rn = 1\r')
    assert "abc\ndef\nn = 1\n" in out
    out = drive('for i in range(3): print(i, end=" ")\x1b\r:tutor\r')
    assert "0 1 2 \ni = 2\n" in out


def test_start_takes_budgets_colour_and_lesson_from_the_cli(monkeypatch):
    import argparse

    from gradrepl.repl import repl as repl_module

    made = {}

    class FakeRepl:
        def __init__(self, **options):
            made.update(options)

        def run(self, lesson, banner=True):
            made["lesson"] = lesson
            return 0

    monkeypatch.setattr(repl_module, "Repl", FakeRepl)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    args = argparse.Namespace(max_steps=123, time_limit=None, no_color=True)
    assert repl_module.start(args, lesson="tiny", lang="zh") == 0
    assert made["limits"].max_steps == 123 and made["limits"].time_limit is None   # the prompt: no clock
    assert made["lesson_limits"].max_steps == 123 and made["lesson_limits"].time_limit == 10.0
    assert made["plain"] is True and made["simple"] is False
    assert made["lesson"] == "tiny" and made["lang"] == "zh"


def test_save_writes_a_script_for_real_pytorch(drive, tmp_path):
    """The golden export of tests/data/export/cases/05_math.py, typed line by line at the prompt."""
    data = Path(__file__).resolve().parents[1] / "data" / "export"
    typed = (data / "cases" / "05_math.py").read_text().splitlines()
    saved = tmp_path / "session.py"
    out = drive("".join(line + "\r" for line in typed) + "oops(\r)\r" + f":save {saved}\r")
    assert "NameError: name 'oops' is not defined" in out
    assert saved.read_text() == (data / "expected" / "05_math.py").read_text()
    assert "as a PyTorch script" in " ".join(out.split())


def test_last_result_help_and_dir_at_the_prompt(drive):
    out = drive("torch.ones(2) * 3\r_ + 1\rhelp(torch.ones)\r'backward' in dir(_)\r_ = 5\r_\r")
    assert "tensor([4., 4.])" in out
    assert "Help on torch.ones:" in out and "ones(*size, *, out=None" in out
    assert "True\n" in out
    assert out.rstrip().endswith("5")                  # the learner's own `_` wins, as in Python


def test_the_tutor_points_shorthand_to_its_torch_spelling_once(drive):
    out = drive("x = tensor([1., 2.])\ry = exp(x)\rz = exp(x) + sigmoid(x)\rw = torch.exp(x)\r")
    flat = " ".join(out.split())
    assert "tip: tensor without torch. is gradrepl shorthand; a PyTorch script writes torch.tensor" in flat
    assert flat.count("tip: exp without torch.") == 1
    assert "tip: sigmoid without torch." in flat
    assert flat.count("tip:") == 3


def test_enter_inside_a_block_opens_a_new_line_as_ptpython_does(drive):
    """Issue 17: Enter on a half-typed line of a block does not check it (no cursor jump)."""
    keys = "if True:\ry = 1 +\r" + "\x7f\x7f" + " 2\r\ry * 10\r"
    out = drive(keys)
    assert "30" in out.split("y = 3")[-1]
    assert "SyntaxError" not in out


def test_tutor_lines_for_tensors_changed_in_place(drive):
    out = drive("x = torch.ones(2, 2, requires_grad=True)\ry = x * 2\ry[0, 0] = 5\rc = y.detach_()\r"
                "def f(t):\r    t.zero_()\r\rw = torch.zeros(2)\rfor i in range(2):\r    w.add_(1)\r\r")
    lines = out.splitlines()
    assert "y (changed in place): requires_grad=True  is_leaf=False  " \
           "grad_fn=<torch::autograd::CopySlices>" in lines
    assert "y (changed in place): requires_grad=False  is_leaf=True  grad_fn=None" in lines
    assert "c: requires_grad=False  is_leaf=True  grad_fn=None" in lines
    assert "tensor([[5., 2.],\n        [2., 2.]], grad_fn=<CopySlices>)" in out
    assert "t (changed in place)" not in out                          # a def's body did not run
    assert "tensor([2., 2.])\nw (changed in place): requires_grad=False  is_leaf=True  grad_fn=None" in out


def test_lessons_keep_their_budgets_while_the_prompt_has_none(tmp_path):
    import io

    from gradrepl.limits import Limits
    from gradrepl.repl.render import make_console
    from gradrepl.repl.repl import Repl

    out = io.StringIO()
    repl = Repl(plain=True, lang="en", console=make_console(True, file=out, width=100),
                history=AtomicFileHistory(tmp_path / "history"), simple=True,
                lesson_limits=Limits.for_lessons(max_steps=1000))
    loop = "n = 0\nfor i in range(5000):\n    n += 1\n"
    assert repl.run_code(loop).ok                       # the prompt: no step limit
    repl.lesson = object()                              # while a lesson runs
    result = repl.run_code(loop, filename="<lesson>", trusted=False)
    assert not result.ok and result.errors[0].type_name == "BudgetExceeded"
    assert repl.session.limits.max_steps is None        # the prompt's limits are back
