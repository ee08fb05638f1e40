"""The front (gradrepl.worker.front) with stand-in worker mains: deaths become one error
naming the statement, stuck statements are killed, the REPL's statements are replayed."""
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from gradrepl.worker import front, monitor


def _stuck():
    """Like a long C call: no Python signal handler can run (SIGINT, SIGALRM blocked)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGALRM})
    time.sleep(60)


def _begin(line, source, limit=0):
    monitor.ACTIVE.begin(0, "prog.py", line, source, limit)


def _supervise(main, capfd):
    rc = front.Front(main, []).run()
    return rc, capfd.readouterr()


def test_normal_exit_status_passes_through(capfd):
    def main(argv):
        print("hello")
        return 3
    rc, out = _supervise(main, capfd)
    assert (rc, out.out, out.err) == (3, "hello\n", "")


def test_no_worker_no_monitor():
    assert monitor.ACTIVE is None


def test_signal_death_is_one_error_naming_the_statement(capfd):
    def main(argv):
        print("before")
        _begin(7, "s = {t}\nmore")
        os.kill(os.getpid(), signal.SIGSEGV)
    rc, out = _supervise(main, capfd)
    assert rc == 1
    assert out.out == "before\n"      # flushed when the statement began
    lines = out.err.splitlines()
    assert lines[:2] == ["prog.py:7", "    s = {t}"]
    assert lines[2].startswith("WorkerCrashed: the statement crashed gradrepl's worker process "
                               "(SIGSEGV)")
    assert len(lines) == 3


def test_statement_stuck_past_its_time_limit_is_killed(capfd):
    def main(argv):
        _begin(2, "b = a @ a", limit=0.2)
        _stuck()
    started = time.monotonic()
    rc, out = _supervise(main, capfd)
    assert rc == 1
    assert time.monotonic() - started < 0.2 + front._kill_after(0.2) + 5
    assert out.err.splitlines()[2].startswith(
        "BudgetExceeded: time limit exceeded: the statement ran longer than 0.2 s")
    assert "--time-limit" in out.err


def test_statement_without_time_limit_is_not_killed(capfd):
    def main(argv):
        _begin(1, "x = 1")
        time.sleep(front._kill_after(0) + 0.5)
        monitor.ACTIVE.end(None, True, "x = 1", "prog.py", False)
        return 0
    rc, out = _supervise(main, capfd)
    assert (rc, out.err) == (0, "")


def test_ctrl_c_stops_a_stuck_statement_within_a_second(capfd):
    def main(argv):
        _begin(4, "0.5 in range(10**18)")
        _stuck()
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    rc, out = _supervise(main, capfd)
    timer.join()
    assert rc == 130
    assert "KeyboardInterrupt: interrupted by Ctrl-C" in out.err
    # the front put the handlers back
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_repl_worker_restarts_with_its_statements(capfd, tmp_path):
    seen = tmp_path / "seen"

    def main(argv):
        channel = monitor.ACTIVE
        if channel.restarted:
            seen.write_text(repr(channel.replay))
            return 0
        channel.send({"repl": 1})
        channel.repl = type("R", (), {"_session": "S"})()
        for source in ("a = 1", "b = 2"):
            _begin(1, source)
            channel.end("S", True, source, "<stdin>", True)
        _begin(1, "crash()")
        os.kill(os.getpid(), signal.SIGKILL)
    rc, out = _supervise(main, capfd)
    assert rc == 0
    assert eval(seen.read_text()) == [["a = 1", "<stdin>", True], ["b = 2", "<stdin>", True]]
    assert "MemoryError: the worker process was killed by the system" in out.err


def test_a_worker_that_keeps_dying_silently_is_given_up(capfd):
    def main(argv):
        channel = monitor.ACTIVE
        if not channel.restarted:
            channel.send({"repl": 1})
        os.kill(os.getpid(), signal.SIGABRT)
    rc, out = _supervise(main, capfd)
    assert rc == 70
    assert "giving up" in out.err


@pytest.mark.parametrize("text,shown", [("a\x1b[31m", "a\\x1b[31m"), ("\ud800", "\\ud800"),
                                        ("x\ty", "x\ty")])
def test_front_escapes_what_it_prints(text, shown):
    assert front._escape(text) == shown


def test_repl_worker_internal_error_restarts_it(capfd, tmp_path):
    runs = tmp_path / "runs"

    def main(argv):
        n = len(runs.read_text()) if runs.exists() else 0
        runs.write_text("x" * (n + 1))
        monitor.ACTIVE.send({"repl": 1})
        if n == 0:
            _begin(1, "a = 1")
            monitor.ACTIVE.end(None, True, "a = 1", "<stdin>", True)
            return 70
        return 0
    rc, out = _supervise(main, capfd)
    assert rc == 0 and runs.read_text() == "xx"
    assert "the REPL stopped on an internal error; starting it again" in out.err


def test_consecutive_deaths_inside_statements_are_never_given_up(capfd, tmp_path):
    """--keep-going over ten statements that each crash: each is reported, the last one's
    worker ends normally."""
    def main(argv):
        channel = monitor.ACTIVE
        start = channel.plan["start"] if channel.plan else 0
        if start == 0:
            channel.send({"spec": {"text": "", "filename": "p", "limits": {}}})
        if start < 10:
            channel.begin(start, "prog.py", start + 1, f"crash{start}", 0)
            channel.plan = None
            os.kill(os.getpid(), signal.SIGSEGV)
        return 0
    front_obj = front.Front(main, [])
    original = front._resume_script
    front._resume_script = lambda spec, plan: main([])
    try:
        rc = front_obj.run()
    finally:
        front._resume_script = original
    err = capfd.readouterr().err
    assert rc == 1, err
    assert err.count("WorkerCrashed") == 10 and "giving up" not in err


def test_ctrl_c_outside_the_repl_stops_a_stuck_command_anywhere(capfd):
    """`gradrepl explain` running a hook stuck in C: no statement is running, still Ctrl-C
    ends the command within a second."""
    def main(argv):
        _stuck()
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    rc, out = _supervise(main, capfd)
    timer.join()
    assert rc == 130 and out.err == "KeyboardInterrupt: interrupted by Ctrl-C\n"


def test_ctrl_c_at_a_repl_worker_between_statements_does_not_kill_it(capfd, tmp_path,
                                                                     monkeypatch):
    # Ctrl-C goes to the front once it knows its worker is a REPL (not after a fixed delay,
    # which a loaded machine can outrun); the worker then lives on past the kill grace
    fronts, sent = [], tmp_path / "sent"
    init = front.Front.__init__

    def capture(self, *args, **kwargs):
        init(self, *args, **kwargs)
        fronts.append(self)
    monkeypatch.setattr(front.Front, "__init__", capture)

    def main(argv):
        monitor.ACTIVE.send({"repl": 1})
        signal.signal(signal.SIGINT, lambda *a: None)
        deadline = time.monotonic() + 120
        while not sent.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(front.INTERRUPT_GRACE + 1)
        return 0

    def ctrl_c_once_the_front_knows():
        deadline = time.monotonic() + 120
        while not (fronts and fronts[0].repl) and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)
        sent.touch()
    timer = threading.Thread(target=ctrl_c_once_the_front_knows)
    timer.start()
    rc, out = _supervise(main, capfd)
    timer.join()
    assert (rc, out.err) == (0, "")


def test_repl_meta_commands_are_statements_for_the_front():
    r, w = os.pipe()
    seen = []

    class FakeRepl:
        _session = None

        def handle_safely(self, text):
            seen.append(text)

    repl = FakeRepl()
    monitor.ACTIVE = monitor.Channel(w)
    try:
        assert monitor.attach_repl(repl, None) is False    # nothing to restore: not a restart
        repl.handle_safely(":explain y")
        repl.handle_safely("x = 1")
    finally:
        monitor.ACTIVE = None
        os.close(w)
    with os.fdopen(r, "rb") as f:
        messages, rest = monitor.unpack(f.read())
    assert rest == b""
    assert seen == [":explain y", "x = 1"]
    assert messages == [{"repl": 1}, {"b": -1, "f": "<stdin>", "l": 1, "s": ":explain y", "t": 0},
                        {"e": False}]


def test_messages_are_framed_whole_across_reads():
    """The front reads the pipe in chunks: a message split between two reads (a --keep-going
    script's spec is the whole file) comes out once, whole, with surrogates and non-ASCII text."""
    messages = [{"b": 3, "f": "a.py", "l": 7, "s": "x = 'é\ud800'", "t": 2.5}, {"e": True},
                {"spec": {"text": "y = 1\n" * 30_000, "filename": "b.py", "limits": {"max_depth": 5}}},
                {"log": ["x = 1", "<stdin>", True]}]
    data = b"".join(monitor.pack(m) for m in messages)
    got, buf = [], b""
    for start in range(0, len(data), 4093):
        chunk, buf = monitor.unpack(buf + data[start:start + 4093])
        got.extend(chunk)
    assert buf == b""
    assert got == messages
    assert monitor.unpack(data[:-1])[0] == messages[:-1]


PAGE_FAULTS = """
import resource, sys
import numpy as np
if sys.argv[1] == "tuned":
    from gradrepl.worker.front import _tune_malloc
    _tune_malloc()
b = np.ones((256, 256))
for i in range(5):
    np.tanh(b.copy())
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for i in range(100):
    np.tanh(b.copy())
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_freed_tensor_memory_is_reused_without_page_faults():
    """The front tunes malloc (inherited by the worker): a loop that makes and drops 512 KiB
    temporaries reuses the same pages instead of faulting in fresh ones every time."""
    def faults(mode):
        p = subprocess.run([sys.executable, "-c", PAGE_FAULTS, mode], capture_output=True,
                           text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        return int(p.stdout)
    assert faults("plain") > 5000       # glibc's defaults: fresh pages for each temporary
    assert faults("tuned") < 500
