"""Lesson code runs in the gradrepl sandbox, through the one shared entry point.

`SandboxRunner` is a learner's session as the player sees it: `run(source)`
returns exactly what script mode prints for that source (program output, then
the `Type: message` line of an error, which ends the step), and `namespace`
is the session's variables for checks. Lesson files are untrusted input: they
run with trusted=False, so meta commands, exit() and quit() do not exist there.
"""
from __future__ import annotations

from collections.abc import Mapping


class SandboxRunner:
    """Runs lesson code in `session` (a fresh one by default) and captures what it prints.

    A fresh session has the lesson steps' budgets (DECISIONS: 10^7 steps and 10 s per
    statement) with the command line's budget flags applied, as the REPL's lessons have:
    `gradrepl lesson NAME --time-limit 2` reaches the line-based player, --auto and --check.

    With a session the REPL owns, pass tee=True to also send the output on to the
    session's own writer while it is captured; the writer is restored after each run.
    """

    def __init__(self, session=None, *, tee: bool = False):
        if session is None:
            from gradrepl.lang import Session
            from gradrepl.limits import FLAGS, Limits

            session = Session(limits=Limits.for_lessons(**FLAGS), write=lambda text: None)
        self.session = session
        self.tee = tee
        self.last_hints: list[str] = []   # gradrepl's one-line hints for the errors of the last run

    def run(self, source: str) -> str:
        from gradrepl.engine import api
        from gradrepl.lang import run_source

        captured: list[str] = []
        previous = self.session.write_out

        def write(text: str) -> None:
            captured.append(text)
            if self.tee:
                previous(text)

        self.session.write_out = write
        # as in the REPL with the tutor on: backward keeps what it saved (the graph still counts
        # as freed) so that a lesson's `:explain` step can replay a graph after its backward
        api.keep_saved_for_explain(True)
        try:
            result = run_source(source, self.session, filename="<lesson>", trusted=False)
        finally:
            api.keep_saved_for_explain(False)
            self.session.write_out = previous
        text = "".join(captured)
        self.last_hints = [error.hint for error in result.errors if error.hint]
        for error in result.errors:
            if text and not text.endswith("\n"):
                text += "\n"
            text += error.headline + "\n"
        return text

    @property
    def namespace(self) -> Mapping[str, object]:
        return self.session.namespace

    def reset(self) -> None:
        """Forget every variable (:restart, a new attempt at an exercise)."""
        self.session.reset()
