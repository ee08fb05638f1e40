"""`gradrepl export` and `:save`: a script for real PyTorch that prints what the session printed.

Golden data (tests/data/export, recorded by scripts/record_export_golden.py): for each case,
the exported script and what PyTorch 2.13 prints running it.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gradrepl.export import shorthand_uses, to_pytorch
from gradrepl.lang import Session, run_source

DATA = Path(__file__).resolve().parents[1] / "data" / "export"
CASES = sorted(p.stem for p in (DATA / "cases").glob("*.py"))
ENV = dict(os.environ, NO_COLOR="1", TERM="dumb")


def _masked(text):
    return re.sub(r"0x[0-9a-fA-F]+", "0x...", text)


def _run(text, keep_going=True):
    out = []
    session = Session(write=out.append)
    result = run_source(text, session, filename="case.py", keep_going=keep_going)
    return session, result, _masked("".join(out))


@pytest.mark.parametrize("name", CASES)
def test_export_matches_the_golden_script(name):
    session, result, _ = _run((DATA / "cases" / f"{name}.py").read_text())
    assert to_pytorch(session.transcript) == (DATA / "expected" / f"{name}.py").read_text()


@pytest.mark.parametrize("name", CASES)
def test_the_session_prints_what_pytorch_prints_for_the_export(name):
    """The learner's program (failing statements skipped) and PyTorch running its export agree."""
    _, _, printed = _run((DATA / "cases" / f"{name}.py").read_text())
    assert printed == (DATA / "expected" / f"{name}.out").read_text()


@pytest.mark.parametrize("name", CASES)
def test_the_exported_script_runs_in_gradrepl_too(name):
    """It imports torch, so it runs with bare names off: it must not use any."""
    _, result, printed = _run((DATA / "expected" / f"{name}.py").read_text(), keep_going=False)
    assert result.ok, [e.format() for e in result.errors]
    assert printed == (DATA / "expected" / f"{name}.out").read_text()


def test_the_export_command(tmp_path):
    case = DATA / "cases" / "01_shorthand.py"
    done = subprocess.run([sys.executable, "-m", "gradrepl", "export", str(case)], capture_output=True,
                          text=True, env=ENV, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0
    assert done.stdout == (DATA / "expected" / "01_shorthand.py").read_text()
    assert "NameError: name 'not_defined_here' is not defined" in done.stderr
    assert "1 failing statements left out" in done.stderr
    target = tmp_path / "out.py"
    done = subprocess.run([sys.executable, "-m", "gradrepl", "--max-steps", "1000000", "export", str(case),
                           "-o", str(target)], capture_output=True, text=True, env=ENV, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and f"wrote {target}" in done.stderr
    assert target.read_text() == (DATA / "expected" / "01_shorthand.py").read_text()
    done = subprocess.run([sys.executable, "-m", "gradrepl", "export", str(tmp_path / "none.py")],
                          capture_output=True, text=True, env=ENV, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "cannot read" in done.stderr and "Traceback" not in done.stderr


def _export(*statements, echo=None):
    return to_pytorch([(s, (echo or {}).get(i)) for i, s in enumerate(statements)])


def test_import_torch_once_and_math_when_used():
    assert _export("import torch", "x = torch.ones(1)") == "import torch\nx = torch.ones(1)\n"
    assert _export("x = ones(1)") == "import torch\nx = torch.ones(1)\n"
    assert _export("y = math.pi") == "import torch\nimport math\ny = math.pi\n"
    assert _export("import math as m", "y = m.pi") == "import torch\nimport math as m\ny = m.pi\n"


def test_only_free_shorthand_names_are_expanded():
    assert _export("def f(exp):\n    return exp(1) + tanh(2)", "y = 1") == \
        "import torch\n\ndef f(exp):\n    return exp(1) + torch.tanh(2)\n\ny = 1\n"
    assert _export("tensor = 3", "y = tensor + 1") == "import torch\ntensor = 3\ny = tensor + 1\n"
    assert _export("y = [ones(n) for ones in [1]]") == "import torch\ny = [ones(n) for ones in [1]]\n"
    assert _export("y = exp(1); z = 'exp(1)'  # exp(2)") == "import torch\ny = torch.exp(1); z = 'exp(1)'  # exp(2)\n"
    assert _export("s = 'ééé'; t = sin(s)") == "import torch\ns = 'ééé'; t = torch.sin(s)\n"   # byte columns


def test_echoes_become_prints():
    assert _export("x", "'s'", "a, b", "f(x)", echo={0: "print", 1: "repr", 2: "print"}) == \
        "import torch\nprint(x)\nprint(repr('s'))\nprint((a, b))\nf(x)\n"


def test_last_result_and_help_at_the_prompt():
    assert _export("ones(2)", "y = _ * 2", echo={0: "print"}) == \
        "import torch\n_ = torch.ones(2)\nprint(_)\ny = _ * 2\n"
    assert _export("help(torch.ones)", "dir(x)", "x = 1") == "import torch\nx = 1\n"


def test_shorthand_uses():
    assert shorthand_uses("y = exp(x) + tensor([1.]) * exp(2)") == ["exp", "tensor"]
    assert shorthand_uses("y = exp(x)", bound={"exp"}) == []
    assert shorthand_uses("y = torch.exp(x)") == []
    assert shorthand_uses("y = (") == []


def test_statements_on_one_line_are_saved_once():
    session, _, _ = _run("a = 1; b = 2\nc = a + b\n")
    assert session.succeeded == ["a = 1", "b = 2", "c = a + b"]
