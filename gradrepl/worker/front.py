"""The front: fork the worker, watch it, turn its death into one error, restart it.

Imports nothing heavy (no NumPy, no prompt_toolkit): the worker forked from here loads
the engine itself, so start-up costs one fork (about a millisecond).
"""
import gc
import os
import select
import sys

# the C module that `signal` wraps: the same functions, without building signal's enums
# (Signals, Handlers, Sigmasks) at every start; handlers come back as plain ints
import _signal as signal
import time

from gradrepl.worker.monitor import unpack

INTERRUPT_GRACE = 0.8     # seconds a Ctrl-C'd statement has to stop before its worker is killed
KILL_GRACE = 1.0          # after the in-process watchdog's own last alarm (see _kill_after)
_GIVE_UP = 3              # workers in a row that die before running a statement: stop restarting
_CRASH_SIGNALS = {"SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE", "SIGSYS"}


def supervise(main, argv, resume=None) -> int:
    """Run main(argv) in a worker process under OS limits; its exit status, or 1 / 130
    after a death inside a statement (see gradrepl.worker). resume(text, filename, limits,
    keep_going) runs a --keep-going script again in a new worker."""
    _tune_malloc()
    if os.environ.get("GRADREPL_IN_PROCESS") == "1" or not hasattr(os, "fork"):
        return main(argv)
    return Front(main, argv, resume).run()


# glibc's mallopt parameters
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3


def _tune_malloc():
    """Keep freed tensor memory for the next tensor instead of handing it back to the system.

    glibc serves blocks over 128 KiB-32 MiB with fresh pages (mmap, or a heap it trims at
    every free): each new array then pays a page fault per 4 KiB, which on a virtual
    machine costs more than the arithmetic (np.tanh of a 256x256 float64 temporary: 1.4 ms
    instead of 0.2 ms). Arrays up to 16 MiB are served from the heap, and up to 64 MiB of
    free heap is kept. Set in the front, so the worker inherits it; without glibc, nothing."""
    try:
        import ctypes
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, ImportError):
        return
    mallopt(_M_MMAP_THRESHOLD, 16 << 20)
    mallopt(_M_TRIM_THRESHOLD, 64 << 20)


def _kill_after(limit):
    """Seconds after a statement begins at which its worker is killed: the in-process
    watchdog stops it at `limit` (next step) or at limit + max(0.5, limit/2) (next
    bytecode); still running a second after that, it is inside one C call."""
    return limit + max(0.5, limit / 2) + KILL_GRACE


def _escape(text):
    out = []
    for ch in text:
        c = ord(ch)
        if (c < 32 and ch not in "\n\t") or 127 <= c < 160:
            out.append(f"\\x{c:02x}")
        elif 0xD800 <= c < 0xE000:
            out.append(f"\\u{c:04x}")
        else:
            out.append(ch)
    return "".join(out)


class Front:
    def __init__(self, main, argv, resume=None):
        self.main = main
        self.resume = resume
        self.argv = argv
        self.spec = None          # a --keep-going script: text, filename, limits
        self.succeeded = set()    # its statements (indices) that succeeded
        self.log = []             # the REPL's statements that succeeded, for replay
        self.repl = False
        self.pid = None
        self.interrupts = 0
        self.terminating = None
        self.tty = None
        try:
            if sys.stdin is not None and os.isatty(sys.stdin.fileno()):
                import termios
                self.tty = termios.tcgetattr(sys.stdin.fileno())
        except (OSError, ValueError, ImportError):
            self.tty = None

    # signals -------------------------------------------------------------------------------
    def _on_interrupt(self, signum, frame):
        self.interrupts += 1

    def _on_terminate(self, signum, frame):
        self.terminating = signum
        if self.pid is not None:
            try:
                os.kill(self.pid, signum)
            except OSError:
                pass

    def run(self) -> int:
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM,
                                                         signal.SIGHUP)}
        saved_wakeup = signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGINT, self._on_interrupt)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_terminate)
        try:
            return self._supervise()
        finally:
            signal.set_wakeup_fd(saved_wakeup)
            for sig, handler in saved.items():
                signal.signal(sig, handler)
            os.close(self.wake_r)
            os.close(self.wake_w)

    def _supervise(self):
        plan, replay, silent_deaths = None, None, 0
        while True:
            outcome = self._one_worker(plan, replay)
            if outcome[0] == "exit":
                # a --keep-going script that went on after a death still failed
                return outcome[1] or (1 if plan is not None else 0)
            _, rc, statement, said_anything = outcome
            silent_deaths = 0 if said_anything else silent_deaths + 1
            if silent_deaths >= _GIVE_UP:
                self._say("gradrepl: the worker process keeps dying at start-up; giving up")
                return 70
            if self.repl:
                plan, replay = None, list(self.log)
                continue
            if self.spec is not None and statement is not None and rc != 130:
                start = statement["b"] + 1
                if plan is not None and start <= plan["start"]:
                    # a statement that succeeded before died in the replay: left out from now
                    self.succeeded.discard(statement["b"])
                    start = plan["start"]
                plan = {"start": start, "replay": sorted(i for i in self.succeeded if i < start)}
                replay = None
                continue
            return rc

    # one worker ----------------------------------------------------------------------------
    def _one_worker(self, plan, replay):
        rfd, wfd = os.pipe()
        self.front_pid = os.getpid()
        pid = os.fork()
        if pid == 0:
            os.close(rfd)
            self._child(wfd, plan, replay)   # never returns
        os.close(wfd)
        self.pid = pid
        if not gc.isenabled():
            gc.enable()     # entry() turned it off for the start-up the worker inherited
        stack, killed, sigint_at, replaying, said = [], None, None, None, False
        kill_at = None
        seen = self.interrupts
        buf = b""
        while True:
            deadlines = [d for d in (kill_at, sigint_at and sigint_at + INTERRUPT_GRACE) if d]
            timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
            ready, _, _ = select.select([rfd, self.wake_r], [], [], timeout)
            if self.wake_r in ready:
                os.read(self.wake_r, 512)
            if self.interrupts != seen:
                seen = self.interrupts
                # outside the REPL every moment is busy (a lesson check, :explain's hooks)
                if (stack or not self.repl) and sigint_at is None:
                    sigint_at = time.monotonic()
            if rfd in ready:
                data = os.read(rfd, 1 << 16)
                if not data:
                    break
                messages, buf = unpack(buf + data)
                for m in messages:
                    if "b" in m:
                        stack.append(m)
                        kill_at = time.monotonic() + _kill_after(m["t"]) if m["t"] else None
                    elif "e" in m:
                        done = stack.pop() if stack else None
                        if replaying is None:
                            said = True     # a statement of its own ran: not a start-up death
                        if done is not None and m["e"] and len(stack) == 0 and replaying is None:
                            self.succeeded.add(done["b"])
                        kill_at = sigint_at = None
                    elif "log" in m:
                        self.log.append(m["log"])
                    elif "reset" in m:
                        self.log.clear()
                    elif "r" in m:
                        replaying = m["r"] if m["r"] >= 0 else None
                    elif "spec" in m:
                        self.spec = m["spec"]
                    elif "repl" in m:
                        self.repl = True
            now = time.monotonic()
            if killed is None:
                if stack and kill_at is not None and now >= kill_at:
                    killed = "time"
                elif sigint_at is not None and now >= sigint_at + INTERRUPT_GRACE and \
                        (stack or not self.repl):
                    killed = "interrupt"
                if killed is not None:
                    kill_at = sigint_at = None
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
        os.close(rfd)
        status = _wait(pid)
        self.pid = None
        self._restore_terminal()
        if self.terminating is not None:
            return ("exit", 128 + self.terminating)
        signum = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        if not stack:
            if killed == "interrupt":
                self._say("KeyboardInterrupt: interrupted by Ctrl-C")
                return ("exit", 130)
            if signum is None and not (self.repl and code == 70):
                return ("exit", code)
            if signum is None:      # the REPL's own internal error: the session goes on
                self._say("gradrepl: the REPL stopped on an internal error; starting it again")
                return ("died", 70, None, said)
            name = _signal_name(signum)
            self._say(f"gradrepl: the worker process died ({name}) outside a statement")
            return ("died", 1, None, said)
        statement = stack[-1]
        self._report(statement, killed, signum, code)
        if replaying is not None:
            dropped = len(self.log) - replaying
            del self.log[replaying:]
            self._say(f"gradrepl: the {dropped} statement{'s' if dropped != 1 else ''} from "
                      f"there on could not be restored")
        # a death inside a statement has its reason: never counted as a start-up failure
        return ("died", 130 if killed == "interrupt" else 1, stack[0], True)

    def _child(self, wfd, plan, replay):
        rc = 70
        try:
            os.close(self.wake_r)
            os.close(self.wake_w)
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            for sig in (signal.SIGTERM, signal.SIGHUP):
                signal.signal(sig, signal.SIG_DFL)
            _die_with(self.front_pid)
            import faulthandler
            faulthandler.disable()       # a crash is reported by the front, never as a dump
            import resource
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            from gradrepl.worker import monitor
            monitor.ACTIVE = monitor.Channel(wfd, plan, replay)
            if plan is not None:
                rc = _resume_script(self.spec, self.resume)
            else:
                rc = self.main(self.argv)
        except KeyboardInterrupt:
            rc = 130
        except BaseException:  # noqa: BLE001 - main() reports its own errors; never a traceback
            rc = 70
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(rc if isinstance(rc, int) else 1)

    # reports -------------------------------------------------------------------------------
    def _report(self, statement, killed, signum, code):
        name = _signal_name(signum) if signum is not None else None
        if killed == "time":
            kind, message = "BudgetExceeded", (
                f"time limit exceeded: the statement ran longer than {statement['t']:g} s inside "
                f"one computation that cannot be interrupted, so its worker process was stopped "
                f"(raise it with --time-limit)")
        elif killed == "interrupt":
            kind, message = "KeyboardInterrupt", (
                "interrupted by Ctrl-C: the statement was inside one computation that cannot be "
                "interrupted, so its worker process was stopped")
        elif name == "SIGXCPU":
            kind, message = "BudgetExceeded", "the worker process ran out of CPU time"
        elif name == "SIGKILL":
            kind, message = "MemoryError", (
                "the worker process was killed by the system, most likely for using too much "
                "memory (the tensor-memory limit is --max-memory)")
        elif name in _CRASH_SIGNALS:
            kind, message = "WorkerCrashed", (
                f"the statement crashed gradrepl's worker process ({name}), for example with "
                f"data nested too deeply for Python's own C code; gradrepl itself is fine")
        elif name is not None:
            kind, message = "WorkerCrashed", f"the worker process was stopped by {name}"
        else:
            kind, message = "WorkerCrashed", \
                f"the worker process ended in the middle of the statement (status {code})"
        lines = [f"{statement['f']}:{statement['l']}"]
        first = statement["s"].split("\n", 1)[0].strip()
        if first:
            lines.append("    " + first)
        lines.append(f"{kind}: {message}")
        self._say("\n".join(lines))

    def _say(self, text):
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        try:
            sys.stderr.write(_escape(text) + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass

    def _restore_terminal(self):
        if self.tty is not None:
            import termios
            try:
                termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self.tty)
            except (OSError, ValueError, termios.error):
                pass


def _wait(pid):
    while True:
        try:
            return os.waitpid(pid, 0)[1]
        except ChildProcessError:
            return 0
        except InterruptedError:
            continue


def _signal_name(signum):
    import signal as signals
    try:
        return signals.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def _die_with(parent):
    """The worker ends when the front does (PR_SET_PDEATHSIG on Linux)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError, ImportError):
        pass
    if os.getppid() != parent:
        os._exit(1)


def _resume_script(spec, run_script):
    """A --keep-going script after a death: the statements that succeeded run again
    without output, then the ones after the statement that died."""
    import gc

    from gradrepl.limits import Limits
    gc.set_threshold(20_000, 20, 20)
    return run_script(spec["text"], spec["filename"], Limits(**spec["limits"]), True)
