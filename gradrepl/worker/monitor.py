"""The worker's side of the front/worker protocol (see gradrepl.worker).

`ACTIVE` is the channel to the front in a worker process and None everywhere else, so
that run_source and the REPL call these hooks unconditionally at no cost in-process.
"""
import marshal
import math
import os
import sys

ACTIVE = None

# Address space a worker may use beyond the live-tensor budget: the interpreter, NumPy
# and OpenBLAS (about 200 MB), the REPL's libraries, and the temporaries of one operation.
HEADROOM = 1024 ** 3
SOURCE_SHOWN = 300          # characters of a statement sent with its begin message


def pack(message) -> bytes:
    """One message for the pipe: its length (4 bytes, little-endian), then the dict in
    marshal's format (built into the interpreter: the front imports nothing to read it)."""
    body = marshal.dumps(message)
    return len(body).to_bytes(4, "little") + body


def unpack(buf: bytes):
    """(the whole messages at the start of buf, the rest) for pack()'s framing."""
    messages, at = [], 0
    while len(buf) - at >= 4:
        end = at + 4 + int.from_bytes(buf[at:at + 4], "little")
        if end > len(buf):
            break
        messages.append(marshal.loads(buf[at + 4:end]))
        at = end
    return messages, buf[at:]


class Channel:
    """Messages to the front; state the front handed over on a restart."""

    def __init__(self, fd, plan=None, replay=None):
        self.fd = fd
        self.plan = plan            # script restart: {"start": i, "replay": [indices]}
        self.replay = replay or []  # REPL restart: [[source, filename, trusted], ...]
        self.repl = None            # the Repl whose session is logged for replay
        self.quiet = 0              # >0 while replaying: nothing is logged again
        self.cap = None
        self.restarted = plan is not None or replay is not None

    def send(self, message):
        data = pack(message)
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError:             # the front is gone: nobody would see anything
            os._exit(1)

    # hooks called by run_source --------------------------------------------------------
    def begin(self, index, filename, line, source, time_limit):
        for stream in (sys.stdout, sys.stderr):   # what ran before is shown if this dies
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        limit = time_limit if isinstance(time_limit, (int, float)) and \
            math.isfinite(time_limit) and time_limit > 0 else 0
        self.send({"b": index, "f": filename, "l": line, "s": source[:SOURCE_SHOWN],
                   "t": limit})

    def end(self, session, ok, source, filename, trusted):
        self.send({"e": bool(ok)})
        if ok and not self.quiet and self.repl is not None and \
                session is getattr(self.repl, "_session", None):
            self.send({"log": [source, filename, bool(trusted)]})

    def reset(self, session):
        if not self.quiet and self.repl is not None and \
                session is getattr(self.repl, "_session", None):
            self.send({"reset": 1})

    def take_plan(self):
        plan, self.plan = self.plan, None
        return plan

    def apply_limits(self, limits):
        """The OS cap on the worker's address space, lowered only (hard limit too: code
        that got past the interpreter cannot raise it again)."""
        import resource
        cap = int(limits.max_bytes) + HEADROOM
        if self.cap is not None and cap >= self.cap:
            return
        try:
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            if hard != resource.RLIM_INFINITY:
                cap = min(cap, hard)
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            self.cap = cap
        except (ValueError, OSError):
            pass


def begin(index, filename, line, source, time_limit):
    if ACTIVE is not None:
        ACTIVE.begin(index, filename, line, source, time_limit)


def script_spec(text, filename, limits, keep_going):
    """run_script tells the front how to go on after a death (--keep-going only)."""
    if ACTIVE is not None and keep_going and ACTIVE.plan is None:
        ACTIVE.send({"spec": {"text": text, "filename": filename, "limits": limits.as_dict()}})


def attach_repl(repl, run_source):
    """The REPL's session is logged for replay; after a restart, its variables come back
    (run again with `run_source`, gradrepl.lang's: the worker does not import the language)."""
    if ACTIVE is None:
        return False
    ACTIVE.repl = repl
    ACTIVE.send({"repl": 1})
    handle = repl.handle_safely

    def handle_safely(text):
        """A meta command (:explain, :gradcheck, :load ...) counts as a statement for the
        front: Ctrl-C stuck in it, or a death in it, is reported and the REPL restarts."""
        stripped = text.strip()
        if not stripped.startswith(":"):
            return handle(text)
        ACTIVE.begin(-1, "<stdin>", 1, stripped, 0)
        try:
            return handle(text)
        finally:
            ACTIVE.send({"e": False})
    repl.handle_safely = handle_safely
    entries, ACTIVE.replay = ACTIVE.replay, []
    if entries:
        replay_into(repl, entries, run_source)
    return ACTIVE.restarted


def replay_into(repl, entries, run_source):
    repl.printer.note(f"restoring your variables: replaying the {len(entries)} "
                      f"statement{'s' if len(entries) != 1 else ''} that succeeded", style="")
    session = repl.session
    saved = (session.write_out, session.display, session.report, session.warn,
             session.after_statement)
    session.write_out = session.display = lambda *a: None
    session.report = session.warn = session.after_statement = None
    ACTIVE.quiet += 1
    try:
        for k, (source, filename, trusted) in enumerate(entries):
            ACTIVE.send({"r": k})       # a death here drops this entry and the rest
            run_source(source, session, filename=filename, trusted=trusted)
        ACTIVE.send({"r": -1})
    finally:
        ACTIVE.quiet -= 1
        (session.write_out, session.display, session.report, session.warn,
         session.after_statement) = saved
