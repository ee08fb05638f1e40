"""gradrepl's commands run learner code in a worker process: a crash inside one C call is
one clear error naming the statement, and the front (and with --keep-going, the
script) goes on."""
import os
import subprocess
import sys

import pytest

ENV = dict(os.environ, NO_COLOR="1", TERM="dumb")
ENV.pop("GRADREPL_IN_PROCESS", None)
# a tuple nested this deep crashes CPython's C recursion when hashed (SIGSEGV)
DEEP = "t = (1,)\nfor i in range(10**6): t = (t,)\n"


def gradrepl(*args, stdin_text=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "gradrepl", *args], capture_output=True,
                          text=True, input=stdin_text, timeout=timeout, env=ENV,
                          stdin=None if stdin_text is not None else subprocess.DEVNULL)


@pytest.fixture
def script(tmp_path):
    def write(text, name="prog.py"):
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write


def test_crash_is_one_error_naming_the_statement(script):
    path = script("import torch\nprint('before')\n" + DEEP + "s = {t}\nprint('never')\n")
    p = gradrepl("run", path)
    assert p.returncode == 1
    assert p.stdout == "before\n"
    lines = p.stderr.splitlines()
    assert lines[:2] == [f"{path}:5", "    s = {t}"]
    assert lines[2].startswith("WorkerCrashed: the statement crashed gradrepl's worker process")
    assert len(lines) == 3


def test_keep_going_restores_the_variables_and_goes_on(script):
    path = script("import torch\nx = torch.ones(2, requires_grad=True)\nprint('once')\n" + DEEP
                  + "d = {t: 1}\ny = (x * 3).sum()\ny.backward()\nprint(x.grad)\n"
                  + "{t}\nprint('still alive', x.grad)\n")
    p = gradrepl("run", "--keep-going", path)
    assert p.returncode == 1
    # the statements that succeeded ran again without output
    assert p.stdout == "once\ntensor([3., 3.])\nstill alive tensor([3., 3.])\n"
    assert p.stderr.count("WorkerCrashed") == 2
    assert f"{path}:6\n    d = {{t: 1}}\n" in p.stderr and f"{path}:10\n    {{t}}\n" in p.stderr
    assert "Traceback" not in p.stderr


def test_keep_going_on_piped_stdin():
    p = gradrepl("run", "--keep-going", "-", stdin_text=DEEP + "a = 5\n{t}\nprint('alive', a)\n")
    assert (p.returncode, p.stdout) == (1, "alive 5\n")
    assert p.stderr.startswith("<stdin>:4\n    {t}\nWorkerCrashed")


def test_piped_script_mode_crash_exits_1():
    p = gradrepl(stdin_text=DEEP + "{t}\nprint('never')\n")
    assert (p.returncode, p.stdout) == (1, "")
    assert "<stdin>:3" in p.stderr and "WorkerCrashed" in p.stderr


def test_worker_has_an_address_space_cap_from_the_memory_budget():
    code = ("import os, resource\n"
            "from gradrepl.worker import monitor\n"
            "from gradrepl.limits import Limits\n"
            "r, w = os.pipe()\n"
            "monitor.ACTIVE = monitor.Channel(w)\n"
            "monitor.ACTIVE.apply_limits(Limits(max_bytes=2**30))\n"
            "print(resource.getrlimit(resource.RLIMIT_AS))\n"
            "monitor.ACTIVE.apply_limits(Limits(max_bytes=2**40))\n"   # never raised again
            "print(resource.getrlimit(resource.RLIMIT_AS))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV,
                       timeout=60)
    cap = 2 ** 30 + 2 ** 30
    assert p.stdout.splitlines() == [str((cap, cap))] * 2


def test_memory_past_the_cap_is_a_clear_error(script):
    # 3 GiB of Python ints is past --max-memory 1 MiB + the worker's headroom
    path = script("a = 1\nb = list(range(3 * 10**7)) * 4\nprint('alive', a)\n")
    p = gradrepl("run", "--keep-going", "--max-items", "1000000000", "--max-memory", "1048576",
                 path)
    assert p.returncode == 1
    assert "alive 1" in p.stdout
    assert f"{path}:2" in p.stderr and "MemoryError: out of memory" in p.stderr
    assert "Traceback" not in p.stderr


def test_usage_errors_and_version_pass_through():
    assert gradrepl("--version").returncode == 0
    assert gradrepl("run").returncode == 2


def test_in_process_switch_still_runs(script):
    env = dict(ENV, GRADREPL_IN_PROCESS="1")
    p = subprocess.run([sys.executable, "-m", "gradrepl", "run", script("print(1 + 1)\n")],
                       capture_output=True, text=True, env=env, timeout=60)
    assert (p.returncode, p.stdout) == (0, "2\n")
