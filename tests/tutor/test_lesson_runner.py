"""Lesson code runs untrusted in the sandbox; output is script mode's, errors end a step."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gradrepl.lang import Session
from gradrepl.tutor.runner import SandboxRunner


def test_output_echo_and_error_line_as_script_mode_prints_them():
    runner = SandboxRunner()
    assert runner.run("x = torch.ones(2)\nx * 2\nprint('done')") == "tensor([2., 2.])\ndone\n"
    assert runner.run("x.sum().backward()\nprint('not reached')") == (
        "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n")
    assert runner.namespace["x"].tolist() == [1.0, 1.0]


def test_lesson_code_is_untrusted():
    runner = SandboxRunner()
    assert runner.run("exit()").startswith("NameError: name 'exit' is not defined")
    assert runner.run("import os").startswith("ImportError")
    assert runner.run(":load /etc/passwd").startswith("SyntaxError")


def test_a_repl_session_keeps_its_writer_and_can_see_the_output_too():
    shown = []
    session = Session(write=shown.append)
    runner = SandboxRunner(session, tee=True)
    assert runner.run("print(1 + 1)") == "2\n"
    assert "".join(shown) == "2\n"
    session.write("after\n")
    assert "".join(shown).endswith("after\n")
    assert SandboxRunner(session).run("print(3)") == "3\n" and "3" not in "".join(shown)


def test_reset_forgets_the_variables():
    runner = SandboxRunner()
    runner.run("k = torch.ones(1)")
    runner.reset()
    assert "k" not in runner.namespace
    assert runner.run("k").startswith("NameError: name 'k' is not defined")


def test_hints_for_errors_are_kept_apart_from_the_output():
    runner = SandboxRunner()
    out = runner.run("y = torch.ones(2, requires_grad=True) * 2\ny.backward()")
    assert out == "RuntimeError: grad can be implicitly created only for scalar outputs\n"
    assert any("ones_like" in hint for hint in runner.last_hints)
    runner.run("print(1)")
    assert runner.last_hints == []


BUDGET_LESSON = Path(__file__).resolve().parents[1] / "data" / "tutor" / "budget"


@pytest.mark.parametrize("how", [["--auto"], ["--check"], []])
def test_budget_flags_reach_every_lesson_runner(how, tmp_path):
    """`gradrepl lesson ... --max-steps N` limits lesson code as the REPL's lessons are limited:
    --auto, --check and the line-based player (piped) all build their session from the flags."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "COLUMNS": "100"}
    base = [sys.executable, "-m", "gradrepl", "lesson", *(["loop"] if how != ["--check"] else []), *how,
            "--dir", str(BUDGET_LESSON)]
    fine = subprocess.run(base, input="\n", capture_output=True, text=True, env=env, timeout=120)
    assert fine.returncode == 0, fine.stdout + fine.stderr
    assert "BudgetExceeded" not in fine.stdout + fine.stderr
    for flag, budget in ((["--max-steps", "1000"], "--max-steps"), (["--max-elements", "500"], "--max-elements")):
        for argv in (base + flag, base[:4] + flag + base[4:]):    # flags after or before the subcommand
            proc = subprocess.run(argv, input="\n", capture_output=True, text=True, env=env, timeout=120)
            shown = proc.stdout + proc.stderr
            assert "BudgetExceeded" in shown and f"(raise it with {budget})" in shown, (argv, shown)
            assert proc.returncode == (0 if not how else 1), (argv, shown)
