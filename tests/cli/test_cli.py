"""`gradrepl` on the command line: stdout, stderr and exit status, in a subprocess."""
import os
import resource
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
    assert "no step or time limit unless a flag sets one" in " ".join(p.stdout.split())
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
    seen.clear()        # --lang before the subcommand goes after it, as the budget flags may
    assert cli.main(["--lang", "zh", "lesson", "list"]) == 0
    assert cli.main(["--lang=en", "explain", "f.py", "y"]) == 0
    assert seen == [["list", "--lang", "zh"], ["explain", "f.py", "y", "--lang=en"]]


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
    # CPU time of the run and its worker (waited-for descendants), not wall time: start-up
    # on a loaded machine takes seconds; the comparison itself would take hours
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = gradrepl("run", "--time-limit", "0.2", path, timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime) < 10
    assert (p.returncode, p.stdout) == (1, "cmp\n")
    assert "Traceback" not in p.stderr and "File " not in p.stderr


@pytest.mark.parametrize("argv, stdin_tty, expected", [
    (["run", "F"], True, {"max_steps": None, "time_limit": None, "keep_going": False}),
    (["--time-limit", "5", "run", "F"], True, {"max_steps": None, "time_limit": 5.0}),
    (["run", "F", "--max-steps=7", "--keep-going"], True, {"max_steps": 7, "time_limit": None,
                                                           "keep_going": True}),
    (["run", "--time-limit", "2", "F"], True, {"time_limit": 2.0}),
    (["--keep-going"], False, {"max_steps": None, "time_limit": None, "keep_going": True}),
    (["--max-depth", "50"], False, {"max_depth": 50, "time_limit": None, "keep_going": False}),
])
def test_budget_flags_before_or_after_the_subcommand(monkeypatch, tmp_path, argv, stdin_tty, expected):
    """DECISIONS: `run`, pipes and the prompt have no step or time limit unless a flag sets one."""
    import io

    from gradrepl import cli
    (tmp_path / "F").write_text("1\n")
    monkeypatch.chdir(tmp_path)
    seen = {}

    def fake_run(text, filename, limits, keep_going):
        seen.update(vars(limits), keep_going=keep_going)
        return 0
    monkeypatch.setattr(cli, "run_script", fake_run)
    stdin = io.StringIO("1\n")
    stdin.isatty = lambda: stdin_tty
    monkeypatch.setattr(sys, "stdin", stdin)
    assert cli.main(argv) == 0
    assert {k: seen[k] for k in expected} == expected


def test_lesson_limits_keep_their_defaults():
    from gradrepl.limits import Limits
    assert (Limits.for_lessons().max_steps, Limits.for_lessons().time_limit) == (10_000_000, 10.0)
    assert Limits.for_lessons(time_limit=3.0).time_limit == 3.0
    assert (Limits.open_ended().max_steps, Limits.open_ended().time_limit) == (None, None)


def test_no_step_limit_means_none(script):
    path = script("n = 0\nfor i in range(30000):\n    n += 1\nprint(n)\n")
    p = gradrepl("run", path)
    assert (p.returncode, p.stdout) == (0, "30000\n")
    p = gradrepl("run", path, "--max-steps", "1000")
    assert p.returncode == 1 and "--max-steps" in p.stderr


def test_piped_input_keeps_going_and_flags_go_anywhere():
    p = gradrepl("--keep-going", stdin_text="print(1)\n1/0\nprint(2)\n")
    assert (p.returncode, p.stdout) == (1, "1\n2\n")
    assert "ZeroDivisionError: division by zero" in p.stderr
    p = gradrepl("--max-steps", "100", "run", "-", stdin_text="while True:\n    pass\n")
    assert p.returncode == 1 and "more than 100 interpreter steps" in p.stderr


def test_a_file_name_instead_of_a_command_gets_a_hint(script):
    p = gradrepl("foo.py")
    assert p.returncode == 2
    assert "gradrepl: error: 'foo.py' is not a command; to run the file: gradrepl run foo.py" in p.stderr
    p = gradrepl("bogus")
    assert p.returncode == 2 and "unknown command 'bogus'" in p.stderr and "Traceback" not in p.stderr


def test_budget_flags_reach_graph_explain_gradcheck_and_export(script):
    path = script("x = torch.ones(2, requires_grad=True)\nn = 0\nfor i in range(100):\n    n += 1\ny = (x * n).sum()\n")
    assert gradrepl("explain", path, "y").returncode == 0
    for argv in (["--max-steps", "20", "explain", path, "y"], ["explain", path, "y", "--max-steps=20"],
                 ["export", path, "--max-steps", "20"]):
        p = gradrepl(*argv)
        assert "more than 20 interpreter steps" in p.stderr, argv
