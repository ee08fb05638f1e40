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
    def __init__(self, session=None):
        from gradrepl.lang import Session

        self._captured: list[str] = []
        if session is None:
            session = Session(write=self._captured.append)
        else:  # a session the REPL owns: capture its output while a lesson step runs
            session.write_out = self._captured.append
        self.session = session

    def run(self, source: str) -> str:
        from gradrepl.lang import run_source

        self._captured.clear()
        result = run_source(source, self.session, filename="<lesson>", trusted=False)
        text = "".join(self._captured)
        for error in result.errors:
            if text and not text.endswith("\n"):
                text += "\n"
            text += error.headline + "\n"
        return text

    @property
    def namespace(self) -> Mapping[str, object]:
        return self.session.namespace
