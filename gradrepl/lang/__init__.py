"""gradrepl's language: a safe PyTorch-subset interpreter over Python's `ast`.

One entry point serves script mode, the REPL and lesson playback::

    from gradrepl.lang import Session, run_source
    session = Session()                      # torch and math pre-imported
    result = run_source(text, session, filename="demo.py")

`run_source(text, session, *, filename="<stdin>", trusted=False, keep_going=False,
echo="toplevel") -> RunResult`
    Parses the whole text first: a syntax error anywhere means nothing runs
    (RunResult.syntax_error).  Then compiles each top-level statement into
    closures once and runs them in order.  With echo="toplevel" a top-level
    expression statement whose value is not None is shown with
    `session.display(value)` (default: its repr, as the Python REPL and
    shared/conformance/torch_oracle.py do); echo="none" shows nothing.  The
    first error stops the run unless keep_going=True (then each failing
    top-level statement is reported and the next one runs).  Ctrl-C stops the
    running statement and the run (RunResult.interrupted).  trusted=True
    (only for what the learner types at the REPL prompt) adds `exit()` and
    `quit()`, which end the run with RunResult.exit_requested.

`Session(*, limits=None, write=None)`
    namespace         the learner's variables (dict; keeps its identity on reset())
    limits            gradrepl.limits.Limits; copied into gradrepl.limits.LIMITS per run
    write_out(text)   where program output goes (default sys.stdout.write); output is
                      counted against the output budget and control characters escaped
    display(value)    optional: how top-level values are shown (REPL rendering)
    report(error)     optional: called with each UserError as soon as it happens
    warn(category, message)   optional: engine warnings (e.g. UserWarning for .grad
                      of a non-leaf)
    after_statement(StatementResult)   optional: called after each top-level statement
    track_grads       when True, StatementResult.grads_changed lists the session tensors
                      whose .grad changed in that statement
    succeeded         source of each statement that ran without error (for :save)
    reset()           forget every variable

`RunResult`: ok, errors (list of UserError), statements (list of StatementResult:
line, end_line, source, assigned names, error, grads_changed), interrupted,
exit_requested, syntax_error.

`UserError`: type_name, message (PyTorch's / Python's exact text), filename,
line, col, source_line (of the innermost statement), hint, kind ('syntax' |
'error' | 'budget' | 'interrupt' | 'internal'), statement_line (first line of
the top-level statement that was running); `.headline` is the `Type: message`
line and `.format()` the plain-text report script mode prints.

`safe_repr(value)`: repr(value), but a container whose text would pass the output
budget (shared references: [a] * 10**7) raises BudgetExceeded before any text is
built.  Displays that show user values (a REPL's `display`) should use it.
`escape_control(text)` escapes control characters as everything printed must.

The sandbox policy (what user code may touch) lives in gradrepl.lang.policy.
"""
from gradrepl.lang.errors import UserError, escape_control
from gradrepl.lang.runtime import safe_repr
from gradrepl.lang.session import RunResult, Session, StatementResult, run_source

__all__ = ["RunResult", "Session", "StatementResult", "UserError", "escape_control", "run_source",
           "safe_repr"]
