"""`gradrepl` on the command line: stdout, stderr and exit status, in a subprocess."""
import os
import signal
import subprocess
import sys
import time

import pytest

ENV = dict(os.environ, NO_COLOR="1", TERM="dumb")


def gradrepl(*args, stdin_text=None, timeout=60):
    return subprocess.run([sys.executable, "-m", "gradrepl", *args], capture_output=True, text=True,
                          input=stdin_text, timeout=timeout, env=ENV,
                          stdin=None if stdin_text is not None else subprocess.DEVNULL)


@pytest.fixture
def script(tmp_path):
    def write(text, name="prog.py"):
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write


def test_run_prints_like_python_and_exits_0(script):
    p = gradrepl("run", script("import torch\nx = torch.ones(2, requires_grad=True)\n"
                               "(x * 3).sum().backward()\nx.grad\nprint('done')\n"))
    assert (p.returncode, p.stdout, p.stderr) == (0, "tensor([3., 3.])\ndone\n", "")


def test_first_error_reports_place_line_message_and_hint(script):
    path = script("import torch\nw = torch.ones(2, requires_grad=True)\nloss = w * 3\nloss.backward()\n"
                  "print('never')\n")
    p = gradrepl("run", path)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.splitlines() == [
        f"{path}:4", "    loss.backward()",
        "RuntimeError: grad can be implicitly created only for scalar outputs",
        "hint: pass a gradient of the same shape, such as loss.backward(torch.ones_like(loss)), "
        "or reduce first: loss.sum().backward()"]


def test_syntax_error_runs_nothing_and_shows_a_caret(script):
    path = script("print('a')\nx = = 2\n")
    p = gradrepl("run", path)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.splitlines() == [f"{path}:2", "    x = = 2", "        ^",
                                     "SyntaxError: invalid syntax"]


def test_keep_going_reports_each_error_in_order(script):
    p = gradrepl("run", "--keep-going", script("print(1)\nnope\nprint(2)\n1/0\nprint(3)\n"))
    assert p.returncode == 1 and p.stdout == "1\n2\n3\n"
    assert [l for l in p.stderr.splitlines() if ": " in l and not l.startswith("hint")] == [
        "NameError: name 'nope' is not defined", "ZeroDivisionError: division by zero"]


def test_stdin_is_script_mode():
    p = gradrepl(stdin_text="def f():\n    x = 1\n\n    return x + 1\nf()\n")
    assert (p.returncode, p.stdout) == (0, "2\n")
    p = gradrepl("run", "-", stdin_text="print('dash')\n")
    assert (p.returncode, p.stdout) == (0, "dash\n")


def test_budget_flags(script):
    path = script("i = 0\nwhile True:\n    i += 1\n")
    p = gradrepl("run", "--max-steps", "1000", path)
    assert p.returncode == 1
    assert "BudgetExceeded: step budget exhausted: more than 1000 interpreter steps in one " \
           "statement (raise it with --max-steps)" in p.stderr.splitlines()
    p = gradrepl("--max-steps", "1000", stdin_text="while True:\n    pass\n")
    assert p.returncode == 1 and "--max-steps" in p.stderr
    p = gradrepl("run", "--time-limit", "0.5", "--max-steps", "1000000000", path)
    assert p.returncode == 1 and "--time-limit" in p.stderr


def test_usage_errors_exit_2(script):
    assert gradrepl("run").returncode == 2
    assert gradrepl("run", "--max-steps", "zero", script("1\n")).returncode == 2
    assert gradrepl("run", "--max-steps", "-5", script("1\n")).returncode == 2
    p = gradrepl("run", "/nonexistent/file.py")
    assert p.returncode == 2 and "cannot read" in p.stderr and "Traceback" not in p.stderr


def test_version_and_help():
    p = gradrepl("--version")
    assert p.returncode == 0 and p.stdout.startswith("gradrepl ")
    p = gradrepl("--help")
    assert p.returncode == 0
    for flag, default in [("--max-steps", "10000000"), ("--time-limit", "10"), ("--max-depth", "200"),
                          ("--max-elements", "50000000"), ("--max-memory", "2147483648"),
                          ("--max-int-bits", "100000"), ("--max-items", "10000000"),
                          ("--max-output", "1000000"), ("--max-source", "100000"),
                          ("--max-ast-depth", "100")]:
        assert flag in p.stdout and default in p.stdout
    assert "130" in p.stdout


def test_ctrl_c_exits_130(script):
    path = script("print('start')\nwhile True:\n    pass\n")
    p = subprocess.Popen([sys.executable, "-m", "gradrepl", "run", "--max-steps", "10000000000",
                          "--time-limit", "60", path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=ENV, stdin=subprocess.DEVNULL)
    assert p.stdout.readline() == "start\n"
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert "KeyboardInterrupt: interrupted by Ctrl-C" in err and "Traceback" not in err


def test_script_mode_does_not_import_the_repl_libraries(script):
    path = script("print(1)\n")
    code = ("import sys\nfrom gradrepl.cli import main\nrc = main(['run', %r])\n"
            "print(sorted(m for m in ('prompt_toolkit', 'rich', 'pygments') if m in sys.modules), rc)"
            % path)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.stdout == "1\n[] 0\n"


def test_output_is_plain_and_control_characters_escaped(script):
    p = gradrepl("run", script("print('red \\x1b[31m text\\ttab')\n"))
    assert p.stdout == "red \\x1b[31m text\ttab\n"


def test_internal_errors_exit_70_without_traceback(monkeypatch, capsys):
    from gradrepl import cli

    def broken(*args, **kwargs):
        raise AssertionError("simulated bug")
    monkeypatch.setattr(cli, "run_script", broken)
    monkeypatch.setattr(sys, "stdin", open(os.devnull))
    assert cli.main([]) == 70
    err = capsys.readouterr().err
    assert err.startswith("gradrepl: internal error") and "Traceback" not in err


def test_delegated_subcommands_reach_their_modules(monkeypatch):
    import types

    from gradrepl import cli
    seen = []
    fake = types.SimpleNamespace(main=lambda args: seen.append(args) or 0)
    monkeypatch.setitem(sys.modules, "gradrepl.viz.cli", fake)
    monkeypatch.setitem(sys.modules, "gradrepl.repl.lesson", fake)
    assert cli.main(["lesson", "list"]) == 0
    assert cli.main(["graph", "f.py", "y"]) == 0
    assert seen == [["list"], ["graph", "f.py", "y"]]


def test_closed_stdout_pipe_is_quiet(script):
    path = script("for i in range(100000):\n    print(i)\n1/0\n")
    p = subprocess.Popen([sys.executable, "-m", "gradrepl", "run", path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=ENV, stdin=subprocess.DEVNULL)
    assert p.stdout.readline() == b"0\n"
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=30) == 1
    assert "ZeroDivisionError: division by zero" in err and "Traceback" not in err
    assert "internal error" not in err


def test_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.py"
    path.write_bytes(b"\xef\xbb\xbfprint('bom ok')\n")
    p = gradrepl("run", str(path))
    assert (p.returncode, p.stdout) == (0, "bom ok\n")


def test_statement_stuck_in_one_host_call_ends_the_run(script):
    # comparing two 10**12-element nested lists runs in one C call that Python cannot interrupt
    path = script("x = [0] * 10 ** 6\nb = [x] * 10 ** 6\nc = [list(x)] * 10 ** 6\nprint('cmp')\n"
                  "b == c\nprint('never')\n")
    start = time.monotonic()
    p = gradrepl("run", "--time-limit", "0.2", path, timeout=30)
    assert time.monotonic() - start < 10
    assert (p.returncode, p.stdout) == (1, "cmp\n")
    assert "Traceback" not in p.stderr and "File " not in p.stderr
