"""A lesson played inside the REPL: the tutor's Player driven by what the learner types.

Enter (an empty line) advances; code steps run in the learner's session with the
REPL's tutor displays; at an exercise every input is followed by the check on the
session's state. `:hint :solution :skip :back :restart :quit` steer (gradrepl.repl.meta
routes them here). Lesson code is untrusted: it runs with trusted=False.

`main(args)` is `gradrepl lesson ...`: the tutor's command line (gradrepl.tutor.cli) with
this REPL as the front end on a terminal. The dependency runs one way, repl -> tutor.
"""
import argparse

from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from gradrepl.tutor.display import show_check, show_code, show_step
from gradrepl.tutor.interactive import msg
from gradrepl.tutor.lesson import Code, Exercise
from gradrepl.tutor.player import Player
from gradrepl.tutor.progress import ProgressStore

_YES = ("", "y", "yes", "是")
_SAVED = ("Progress saved; :lesson {id} resumes here.", "进度已保存；:lesson {id} 可从这里继续。")


class LessonMode:
    def __init__(self, repl, lesson, store=None):
        self.repl = repl
        self.lesson = lesson
        self.store = store if store is not None else ProgressStore()
        self.player = Player(lesson, repl.lang)
        self.ran: set[int] = set()
        self.previous = None
        self._warned = False

    @property
    def console(self):
        return self.repl.printer.console

    @property
    def lang(self):
        return self.player.lang

    def status(self) -> str:
        return f"lesson {self.lesson.id} {self.player.position + 1}/{self.player.total}"

    # starting ------------------------------------------------------------------------------
    def start(self) -> None:
        saved = self.store.get(self.lesson.id)
        total = self.player.total
        if 0 < saved.step < total and saved.total == total and not saved.finished:
            try:
                answer = self.repl.ask(msg("resume", self.lang, step=saved.step + 1, total=total))
            except (EOFError, KeyboardInterrupt):
                answer = "n"
            if answer.strip().lower() in _YES:
                self.player = Player(self.lesson, self.lang, saved)
                self._replay(self.player.position)
        self.console.print(Text(f"{self.lesson.number}. {self.lesson.title.get(self.lang)}",
                                style="bold"))
        self.show()

    def _replay(self, position: int) -> None:
        """Rebuild the session quietly up to `position` (resuming)."""
        for index, step in enumerate(self.lesson.steps[:position]):
            source = step.source if isinstance(step, Code) else \
                step.solution if isinstance(step, Exercise) else None
            if source is not None and index not in self.ran:
                self.repl.run_code(source, filename="<lesson>", trusted=False, quiet=True)
                self.ran.add(index)

    # showing -------------------------------------------------------------------------------
    def show(self) -> None:
        p = self.player
        index = p.position
        bar = Table.grid(padding=(0, 1))
        bar.add_row(ProgressBar(total=p.total, completed=index + 1, width=30),
                    Text(f"{index + 1}/{p.total}", style="dim"))
        self.console.print(bar)
        show_step(self.console, self.lesson, index, self.lang, self.previous)
        self.previous = p.step
        step = p.step
        if isinstance(step, Code):
            if index in self.ran:
                self.repl.printer.note(msg("already", self.lang))
            else:
                self.ran.add(index)
                self.repl.run_code(step.source, filename="<lesson>", trusted=False)
        if self._pending_exercise():
            self.repl.printer.note(msg("exercise", self.lang))
        else:
            self.repl.printer.note(msg("enter", self.lang))

    def _pending_exercise(self) -> bool:
        return isinstance(self.player.step, Exercise) and self.player.position not in self.ran

    # input ---------------------------------------------------------------------------------
    def enter(self) -> None:
        """An empty line: the next step (an exercise waits for its check to pass)."""
        if self._pending_exercise():
            self.repl.printer.note(msg("exercise", self.lang))
            return
        self.advance()

    def after_input(self) -> None:
        """After the learner's code ran: check the exercise on the session's state."""
        if not self._pending_exercise():
            return
        with self.repl.without_warnings():
            result = self.player.check(self.repl.session.namespace)
        if result.passed:
            show_check(self.console, result, self.lang)
            self.ran.add(self.player.position)
            self.advance()
            return
        checked = [var.name for var in self.player.step.check.variables]
        if all(name in self.repl.session.namespace for name in checked):
            show_check(self.console, result, self.lang)   # a complete attempt: say what is off

    def advance(self) -> None:
        if not self.player.advance():
            self.save()
            self.console.print(Text(msg("finished", self.lang), style="green"))
            self.repl.end_lesson()
            return
        self.save()
        self.show()

    def command(self, command: str) -> None:
        p = self.player
        if command == ":quit":
            self.save()
            saved = _SAVED[1] if self.lang == "zh" else _SAVED[0]
            self.repl.printer.note(saved.format(id=self.lesson.id))
            self.repl.end_lesson()
        elif command == ":back":
            if p.back():
                self.previous = None
                self.save()
                self.show()
            else:
                self.repl.printer.note("(this is the first step)")
        elif command == ":restart":
            p.restart()
            self.repl.reset_session()
            self.ran.clear()
            self.previous = None
            self.save()
            self.show()
        elif not isinstance(p.step, Exercise):
            self.repl.printer.note(f"{command}: this step is not an exercise")
        elif command == ":hint":
            hint = p.next_hint()
            self.console.print(Text(hint or msg("no_hint", self.lang), style="yellow"))
        elif command == ":solution":
            show_code(self.console, p.solution())
        elif command == ":skip":
            self.repl.run_code(p.solution(), filename="<lesson>", trusted=False, quiet=True)
            self.ran.add(p.position)
            self.repl.printer.note(msg("skipped", self.lang))
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
