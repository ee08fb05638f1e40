"""A lesson played inside the REPL: the tutor's Player driven by what the learner types.

Enter (an empty line) advances; code steps run in the learner's session with the
REPL's tutor displays. At an exercise the learner's inputs make up the answer and Enter on
an empty line (or :check) checks the state it left; every attempt starts from a session
rebuilt from the lesson's steps. `:hint :solution :check :skip :back :restart :quit` and
`:reset` steer (gradrepl.repl.meta routes them here). Lesson code is untrusted: it runs with trusted=False.

`main(args)` is `gradrepl lesson ...`: the tutor's command line (gradrepl.tutor.cli) with
this REPL as the front end on a terminal. The dependency runs one way, repl -> tutor.
"""
import argparse
import contextlib

from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from gradrepl.messages import msg
from gradrepl.tutor.display import show_check, show_code, show_step, show_tool
from gradrepl.tutor.interactive import ask_predict
from gradrepl.tutor.lesson import Code, Exercise, Tool
from gradrepl.tutor.messages import yes
from gradrepl.tutor.player import Attempt, Player, missing_needs, rebuild, tool_output
from gradrepl.tutor.progress import ProgressStore


class ReplRunner:
    """The REPL's own session as the tutor's Runner: lesson code runs untrusted and quietly."""

    def __init__(self, repl):
        self.repl = repl
        self.last_hints: list[str] = []

    def run(self, source: str) -> str:
        self.repl.run_code(source, filename="<lesson>", trusted=False, quiet=True)
        return ""

    @property
    def namespace(self):
        return self.repl.session.namespace

    @property
    def session(self):
        return self.repl.session

    def reset(self) -> None:
        self.repl.reset_session()


class LessonMode:
    def __init__(self, repl, lesson, store=None):
        self.repl = repl
        self.lesson = lesson
        self.store = store if store is not None else ProgressStore()
        self.player = Player(lesson, repl.lang)
        self.runner = ReplRunner(repl)
        self.ran: set[int] = set()
        self.previous = None
        self.attempt: Attempt | None = None
        self._warned = False

    @property
    def console(self):
        return self.repl.printer.console

    @property
    def lang(self):
        return self.player.lang

    def note(self, key: str, **kwargs) -> None:
        self.repl.printer.note(msg(key, self.lang, **kwargs))

    def status(self) -> str:
        step, total = self.player.position + 1, self.player.total
        return msg("repl.lesson_status", self.lang, id=self.lesson.id, step=step, total=total)

    def _ask(self, question: str) -> str:
        try:
            return self.repl.ask(question)
        except (EOFError, KeyboardInterrupt):
            return ""

    # starting ------------------------------------------------------------------------------
    def start(self) -> None:
        """A lesson runs in a fresh session: nothing from before (or from an earlier run of
        this lesson) can answer its exercises."""
        missing = missing_needs(self.lesson)
        if missing:
            self.repl.printer.problem(msg("repl.lesson_needs", self.lang, id=self.lesson.id,
                                          names=", ".join(missing)))
            self.repl.end_lesson()
            return
        saved = self.store.get(self.lesson.id)
        total = self.player.total
        self.repl.reset_session()
        if saved.finished and saved.total == total:
            if yes(self._ask(msg("finished_before", self.lang)), default=False):
                self.store.update(self.lesson.id, self.player.progress())
            else:
                self.player = Player(self.lesson, self.lang, saved)
                self.note("review")
        elif 0 < saved.step < total and saved.total == total:
            if yes(self._ask(msg("resume", self.lang, step=saved.step + 1, total=total)), default=True):
                self.player = Player(self.lesson, self.lang, saved)
                rebuild(self.lesson, self.runner, self.player.position)
                self.ran.update(range(self.player.position))
        self.repl.printer.print(Text(f"{self.lesson.number}. {self.lesson.title.get(self.lang)}", style="bold"))
        self.show()

    # showing -------------------------------------------------------------------------------
    def show(self) -> None:
        p = self.player
        index = p.position
        self.leave_attempt()
        bar = Table.grid(padding=(0, 1))
        bar.add_row(ProgressBar(total=p.total, completed=index + 1, width=30),
                    Text(f"{index + 1}/{p.total}", style="dim"))
        self.console.print(bar)
        show_step(self.console, self.lesson, index, self.lang, self.previous)
        self.previous = p.step
        step = p.step
        if isinstance(step, Code):
            if index in self.ran:
                self.note("already")
            else:
                if step.predict is not None:
                    ask_predict(step.predict, self.lang, self._ask, self.console)
                self.ran.add(index)
                self.repl.run_code(step.source, filename="<lesson>", trusted=False)
        elif isinstance(step, Tool) and index not in self.ran:
            self.note("tool_try", cmd=str(step.call))   # the learner types it: Enter shows it instead
            return
        if self._pending_exercise():
            with self.repl.without_warnings():
                self.attempt = Attempt(self.lesson, index, self.runner)
            self.note("exercise")
        else:
            self.note("enter")

    def _pending_exercise(self) -> bool:
        return isinstance(self.player.step, Exercise) and self.player.position not in self.ran

    def leave_attempt(self) -> None:
        if self.attempt is not None:
            self.attempt.close()
            self.attempt = None

    # input ---------------------------------------------------------------------------------
    def enter(self) -> None:
        """An empty line: at an exercise, check the answer typed so far; at a tool step the
        learner has not run, show it for them; else the next step."""
        if self._pending_exercise():
            self.check()
            return
        step = self.player.step
        if isinstance(step, Tool) and self.player.position not in self.ran:
            shown, error = tool_output(self.runner, step, self.console.width, self.lang)
            show_tool(self.console, step, shown if error is None else error, self.lang)
            self._tool_done()
            return
        self.advance()

    def tools_running(self):
        """While a meta command runs: an attempt's Watch does not count the backward passes
        that :explain or :jacobian replay."""
        if self.attempt is not None and self.attempt.watch is not None:
            return self.attempt.watch.pause()
        return contextlib.nullcontext()

    def after_command(self, text: str) -> None:
        """A meta command ran: at a tool step, the learner's own `:explain out` completes it."""
        step = self.player.step
        if isinstance(step, Tool) and self.player.position not in self.ran and \
                text.split() == [step.call.command, *step.call.args]:
            self._tool_done()

    def _tool_done(self) -> None:
        self.ran.add(self.player.position)
        self.note("enter")

    def after_input(self) -> None:
        """The learner's code ran: at an exercise it is part of the answer being written."""
        if self._pending_exercise() and self.attempt is not None:
            self.attempt.typed += 1

    def check(self) -> None:
        if self.attempt is None or not self.attempt.typed:
            self.note("nothing_typed")
            return
        with self.repl.without_warnings():
            result = self.attempt.judge(self.player)
        show_check(self.console, result, self.lang)
        if result.passed:
            self.leave_attempt()
            self.ran.add(self.player.position)
            self.advance()
            return
        with self.repl.without_warnings():
            self.attempt.again()
        self.note("again")

    def advance(self) -> None:
        if not self.player.advance():
            self.leave_attempt()
            self.save()
            self.repl.printer.print(Text(msg("finished", self.lang), style="green"))
            self.repl.end_lesson()
            return
        self.save()
        self.show()

    def restart(self) -> None:
        self.leave_attempt()
        self.player.restart()
        self.repl.reset_session()
        self.ran.clear()
        self.previous = None
        self.save()
        self.show()

    def command(self, command: str) -> None:
        p = self.player
        if command == ":quit":
            self.leave_attempt()
            self.save()
            self.note("saved_repl", id=self.lesson.id)
            self.repl.end_lesson()
        elif command == ":back":
            if p.back():
                self.previous = None
                self.save()
                self.show()
            else:
                self.note("first_step")
        elif command == ":restart":
            self.restart()
        elif command == ":reset":
            if yes(self._ask(msg("reset_ask", self.lang)), default=False):
                self.restart()
                return
            self.leave_attempt()
            rebuild(self.lesson, self.runner, p.position)
            self.ran = {i for i in self.ran if i < p.position}
            self.note("reset_rebuilt")
            self.previous = None
            self.show()
        elif not isinstance(p.step, Exercise):
            self.note("not_exercise", cmd=command)
        elif command == ":check":
            self.check()
        elif command == ":hint":
            hint = p.next_hint()
            self.repl.printer.print(Text(hint or msg("no_hint", self.lang), style="yellow"))
        elif command == ":solution":
            show_code(self.console, p.solution())
        elif command == ":skip":
            self.leave_attempt()
            rebuild(self.lesson, self.runner, p.position)
            self.repl.run_code(p.solution(), filename="<lesson>", trusted=False, quiet=True)
            self.ran.add(p.position)
            self.note("skipped")
            self.advance()

    def save(self) -> None:
        self.store.update(self.lesson.id, self.player.progress())
        if self.store.warning and not self._warned:
            self._warned = True
            self.repl.printer.warning("warning", self.store.warning)


def _play_in_repl(lesson, lang) -> int:
    from gradrepl.repl import start

    return start(argparse.Namespace(no_color=False), lesson=lesson.id, lang=lang)


def main(args: list[str]) -> int:
    """`gradrepl lesson ...`; on a terminal a lesson plays inside the full REPL."""
    from gradrepl.tutor.cli import main as tutor_main

    return tutor_main(args, play_on_terminal=_play_in_repl)
