"""Start-up stays light (issue 18): `gradrepl run FILE` loads only what the file uses.

What a process imported is read from `python -X importtime` (one line per module, the
forked worker's included): no timing is asserted, only which modules were loaded.
"""
import os
import subprocess
import sys

import pytest

ENV = dict(os.environ, NO_COLOR="1", TERM="dumb")
ENV.pop("GRADREPL_IN_PROCESS", None)

# never needed to run a script that does not use them
HEAVY = {"json", "argparse", "dataclasses", "shutil", "gettext", "locale", "decimal", "string", "threading",
         "rich", "prompt_toolkit", "pygments", "markdown_it", "ml_dtypes"}
LIBRARY = {"gradrepl.nn", "gradrepl.optim", "gradrepl.data"}


def imported(argv, tmp_path, text):
    """(modules the whole run imported, stdout) of `python -X importtime -m gradrepl ARGV`."""
    path = tmp_path / "prog.py"
    path.write_text(text)
    argv = [str(path) if a == "PROG" else a for a in argv]
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "gradrepl", *argv],
                       capture_output=True, text=True, timeout=120, env=ENV,
                       stdin=subprocess.DEVNULL)
    names = set()
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    assert p.returncode == 0, p.stderr[-2000:]
    return names, p.stdout


def test_an_empty_script_imports_the_engine_and_nothing_it_does_not_use(tmp_path):
    names, out = imported(["run", "PROG"], tmp_path, "")
    assert out == ""
    assert {"numpy", "gradrepl.engine", "gradrepl.lang", "gradrepl.worker.front"} <= names
    assert not names & HEAVY
    assert not names & LIBRARY
    assert "random" not in names          # `import random` in user code loads it
    assert not {n for n in names if n.startswith(("gradrepl.repl", "gradrepl.tutor",
                                                   "gradrepl.viz"))}


def test_torch_nn_loads_when_first_used_not_when_imported(tmp_path):
    names, out = imported(["run", "PROG"], tmp_path,
                          "import torch\nimport torch.nn as nn\nfrom torch import optim\n"
                          "print(nn, 'nn' in dir(torch))\nx = torch.ones(2, requires_grad=True)\n"
                          "(x * x).sum().backward()\nprint(x.grad)\n")
    assert out == "<facade module 'torch.nn'> True\ntensor([2., 2.])\n"
    assert not names & LIBRARY

    names, out = imported(["run", "PROG"], tmp_path,
                          "import torch.nn as nn\nprint(nn.Linear(2, 3).weight.shape)\n")
    assert out == "torch.Size([3, 2])\n"
    assert "gradrepl.nn" in names and "gradrepl.optim" not in names


def test_bfloat16_loads_ml_dtypes_when_used(tmp_path):
    names, out = imported(["run", "PROG"], tmp_path,
                          "import torch\nprint(torch.bfloat16, torch.bfloat16.itemsize)\n"
                          "print(torch.finfo(torch.float32).bits)\n")
    assert out == "torch.bfloat16 2\n32\n"
    names, out = imported(["run", "PROG"], tmp_path,
                          "import torch\nx = torch.ones(2, dtype=torch.bfloat16) / 3\nprint(x)\n"
                          "print(x.dtype, x.float(), torch.finfo(torch.bfloat16).eps)\n")
    assert out == ("tensor([0.3340, 0.3340], dtype=torch.bfloat16)\n"
                   "torch.bfloat16 tensor([0.3340, 0.3340]) 0.0078125\n")
    assert "ml_dtypes" in names


def test_random_loads_when_used(tmp_path):
    names, out = imported(["run", "PROG"], tmp_path, "import random\nrandom.seed(1)\n"
                          "print(random.randint(0, 1000))\n")
    assert out == "137\n"                  # CPython's numbers
    assert "random" in names


@pytest.mark.parametrize("argv", [["run", "PROG"], ["run", "PROG", "--max-steps", "100000"],
                                  ["--max-depth", "50", "run", "PROG"],
                                  ["run", "--keep-going", "PROG"]])
def test_run_gives_the_same_result_with_and_without_flags(tmp_path, argv):
    """`run FILE` alone skips argparse; with flags argparse parses them as before."""
    names, out = imported(argv, tmp_path, "print(sum(range(10)))\n")
    assert out == "45\n"
    assert ("argparse" in names) == (len(argv) > 2)


def test_the_front_imports_neither_numpy_nor_the_language():
    code = ("import sys\nimport gradrepl.cli, gradrepl.worker.front\n"
            "print(sorted(m for m in ('numpy', 'gradrepl.lang', 'gradrepl.engine', 'json', "
            "'argparse', 'dataclasses', 'gradrepl.cli') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env=ENV)
    assert p.stdout == "['gradrepl.cli']\n", p.stderr


def test_the_collector_runs_again_after_start_up(tmp_path):
    """entry() turns the cycle collector off for the start-up only: user code runs with it on
    (a cycle made by the script is collected)."""
    path = tmp_path / "prog.py"
    path.write_text("import torch\nx = torch.ones(3, requires_grad=True)\ny = (x * 2).sum()\n"
                    "y.backward()\nprint(x.grad)\n")
    code = ("import gc, sys\nsys.argv = ['gradrepl', 'run', %r]\n"
            "import gradrepl.cli as cli\n"
            "real = cli.run_script\n"
            "def spy(*a):\n    rc = real(*a)\n    print('collector on:', gc.isenabled(), "
            "'frozen:', gc.get_freeze_count() > 10000)\n    return rc\n"
            "cli.run_script = spy\ncli.entry()\n" % str(path))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env=ENV, stdin=subprocess.DEVNULL)
    assert p.stdout == "tensor([2., 2., 2.])\ncollector on: True frozen: True\n", p.stderr


def test_script_mode_imports_numpy_without_its_docstring_modules(tmp_path):
    # numpy._core._add_newdocs(_scalars) only attach docstrings (a tenth of `import numpy`):
    # script mode puts empty modules in their place; NumPy itself works as ever
    names, out = imported(["run", "PROG"], tmp_path,
                          "import torch\nx = torch.arange(6.).view(2, 3)\nprint(x.sum(0), x.exp().mean())\n")
    assert out == "tensor([3., 5., 7.]) tensor(39.0340)\n"
    assert "numpy" in names
    assert not {"numpy._core._add_newdocs", "numpy._core._add_newdocs_scalars"} & names


def test_numpy_without_docstrings_is_numpy(tmp_path):
    code = ("import sys\nfrom gradrepl import cli\ncli._numpy_without_docstrings()\nimport numpy as np\n"
            "assert all(sys.modules[n].__dict__.get('__file__') is None for n in cli.NUMPY_DOCS)\n"
            "a = np.arange(12, dtype=np.float32).reshape(3, 4)\n"
            "print(a.sum(), np.add.reduce(a, 1).tolist(), np.float32(1.5) * 2, np.dtype('f4'))\n"
            "cli._numpy_without_docstrings()\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=ENV)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout == "66.0 [6.0, 22.0, 38.0] 3.0 float32\n"
