"""The REPL in a real pseudo-terminal: its worker dies or is stopped, the front starts a new
one, the learner's variables come back and the prompt goes on."""
import os
import re
import sys
import time
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[2]
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    def __init__(self, child):
        self.child = child
        self.text = ""

    # generous: a loaded machine (load 10 on 2 cores) needs seconds to start a worker and
    # replay; a missing prompt still fails, only later
    def expect(self, wanted, timeout=180):
        deadline = time.monotonic() + timeout
        while wanted not in self.text:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"{wanted!r} not seen; the screen ended with "
                                     f"{self.text[-400:]!r}")
            try:
                self.text += CONTROL.sub("", self.child.read_nonblocking(
                    4096, timeout=min(remaining, 0.2)))
            except pexpect.TIMEOUT:
                continue
        before, self.text = self.text.split(wanted, 1)
        return before

    def line(self, text, n=[0]):
        """Type `text`, then a print whose output is not in the echo; what showed before it."""
        n[0] += 1
        self.child.send(text + "\r")
        self.expect(">>>")
        self.child.send(f"print('mark' + '{n[0]}')\r")
        shown = self.expect(f"mark{n[0]}\n")
        self.expect(">>>")          # the prompt is back (keys typed before it could be lost)
        return shown


def spawn(home):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES",
                                                             "GRADREPL_IN_PROCESS")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), TERM="xterm-256color",
               LANG="C.UTF-8", PROMPT_TOOLKIT_NO_CPR="1", NO_COLOR="1")
    child = pexpect.spawn(sys.executable, ["-m", "gradrepl"], cwd=str(ROOT), env=env,
                          dimensions=(40, 160), encoding="utf-8", timeout=180)
    terminal = Terminal(child)
    terminal.expect(">>>")
    return terminal


def worker_cpu_seconds(front_pid):
    """CPU time used so far by the front's worker processes (its children), from /proc."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == front_pid:          # state, ppid, ..., utime, stime
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def wait_until_busy(front_pid, cpu_seconds=0.5, timeout=180):
    """Wait until the worker has spent `cpu_seconds` of CPU since now: the statement typed
    last is running (a fixed sleep could send Ctrl-C before it started on a loaded machine)."""
    start = worker_cpu_seconds(front_pid)
    deadline = time.monotonic() + timeout
    while worker_cpu_seconds(front_pid) - start < cpu_seconds:
        assert time.monotonic() < deadline, "the worker never started the statement"
        time.sleep(0.05)


def test_crash_restarts_the_worker_with_the_variables(tmp_path):
    t = spawn(tmp_path)
    t.line("import torch")
    t.line("a = 5; x = torch.ones(2, requires_grad=True)")
    t.line("t = (1,)")
    t.line("for i in range(10**6): t = (t,)\r")      # a blank line ends the block
    shown = t.line("s = {t}")
    assert "<stdin>:1" in shown and "WorkerCrashed" in shown
    assert "restoring your variables: replaying the 9 statements that succeeded" in shown
    assert "gradrepl 0." not in shown            # no second banner
    shown = t.line("print(a * 2, x.sum())")
    assert "10 tensor(2., grad_fn=<SumBackward0>)" in shown
    t.child.sendeof()
    t.child.expect(pexpect.EOF)
    t.child.close()
    assert t.child.exitstatus == 0


def test_ctrl_c_in_one_long_c_call_returns_to_the_prompt(tmp_path):
    t = spawn(tmp_path)
    t.line("import torch")
    t.line("a = torch.ones(3000, 3000, dtype=torch.int64)")
    t.child.send("b = a @ a\r")          # minutes of integer matrix product inside NumPy
    wait_until_busy(t.child.pid)
    t.child.sendintr()
    started = time.monotonic()
    shown = t.expect("its worker process was stopped")
    # The front kills the stuck worker 0.8 s (INTERRUPT_GRACE) after Ctrl-C and reports it at
    # once; measured up to that report (not up to the new worker's replay, whose start-up is
    # load-dependent). The bound is wall time and the front needs the CPU to act, so it
    # allows for a loaded machine; it still tells "stopped" from "ran on" (the product takes
    # minutes).
    assert time.monotonic() - started < 10
    assert "KeyboardInterrupt: interrupted by Ctrl-C" in shown
    t.expect("restoring your variables")
    shown = t.line("print(a.shape)")
    assert "torch.Size([3000, 3000])" in shown
    t.child.sendeof()
    t.child.expect(pexpect.EOF)
