"""Learner code runs in a worker process under OS limits; the front survives it.

The process started by `gradrepl` (the *front*) imports nothing heavy: it forks a
*worker* child at once, and the worker runs the whole command (script mode, pipes,
`lesson`, `graph`, `explain`, `gradcheck`, the REPL with its prompt) exactly as the
in-process code does, under an address-space cap (the tensor-memory budget plus
headroom), no core files, and death with the front.

Protocol (worker -> front, one dict per message on a pipe, framed by monitor.pack: a
4-byte length, then the dict in marshal's format; `monitor.py` writes, `front.py` reads):

  {"b": index, "f": file, "l": line, "s": source, "t": seconds | 0}  a top-level
        statement begins (t: its time limit; the front kills the worker when the
        statement is still running a grace period after it, i.e. stuck in one C call)
  {"e": ok}                     it ended
  {"log": [source, file, trusted]}  a REPL statement succeeded (replayed on restart)
  {"reset": 1}                  the REPL session forgot its variables
  {"spec": {...}}               how to resume a `run --keep-going` script elsewhere

When the worker dies inside a statement (a signal, the memory cap, the time-limit
kill, Ctrl-C that does not stop one C call within a second), the front prints ONE
error naming the statement. Script mode then exits 1 (130 for Ctrl-C); with
`--keep-going` and in the REPL the front forks a new worker that replays, without
output, the statements that succeeded, says so in one line, and goes on.

In-process use (tests, `cli.main`) never forks: `monitor.ACTIVE` is None there and
every hook is a no-op.
"""
