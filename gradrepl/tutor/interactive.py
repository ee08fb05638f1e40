"""A simple line-based lesson player (`gradrepl lesson NAME` when not on a terminal).

Enter advances. At an exercise the learner types an answer (each line runs as it is
typed) and presses Enter on an empty line to have it checked: the check judges the state
the whole answer left. Every attempt starts from a clean session rebuilt from the
lesson's steps. A code step with a question asks it before it runs; a tool step shows
what gradrepl's tool prints. Commands: :hint :solution :check :skip :back :restart
:reset :quit. Input is read with `input_fn` (plain `input` by default), so the same
loop serves a terminal and a piped file of answers.
"""
from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.progress_bar import ProgressBar
from rich.text import Text as RichText

from gradrepl.messages import localize, msg
from gradrepl.tutor.display import (make_console, show_check, show_code, show_output, show_predict,
                                    show_predict_feedback, show_step, show_tool, wrapping)
from gradrepl.tutor.lesson import Code, Exercise, Lesson, Tool
from gradrepl.tutor.messages import COMMANDS, yes
from gradrepl.tutor.player import Attempt, Player, Runner, rebuild, replay, tool_output
from gradrepl.tutor.progress import ProgressStore
from gradrepl.tutor.runner import SandboxRunner


class _Quit(Exception):
    """The learner asked to stop (:quit, end of input)."""


class _Finished(Exception):
    """The learner went past the last step."""


def ask_predict(predict, lang: str, read: Callable[[str], str], console: Console) -> None:
    """Ask a code step's question until a valid answer (or Enter), then say why."""
    show_predict(console, predict, lang)
    n = len(predict.choices)
    while True:
        answer = read(msg("predict_prompt", lang, n=n)).strip()
        if not answer or answer.startswith(":"):   # Enter (or a command): just run it
            chosen = None
            break
        if answer.isdigit() and 1 <= int(answer) <= n:
            chosen = int(answer) - 1
            break
        console.print(RichText(msg("predict_bad", lang, n=n), style="yellow"))
    show_predict_feedback(console, predict, lang, chosen)


class LinePlayer:
    def __init__(self, lesson: Lesson, lang: str, input_fn: Callable[[str], str],
                 console: Console, store: ProgressStore, runner: Runner):
        self.lesson, self.lang, self.input, self.console, self.store = lesson, lang, input_fn, console, store
        self.player = Player(lesson, lang)
        self.runner = runner
        self.ran: set[int] = set()
        self.attempt: Attempt | None = None

    # input -----------------------------------------------------------------
    def read(self, prompt: str) -> str:
        try:
            return self.input(prompt)
        except EOFError:
            raise _Quit from None

    def read_code(self, first: str) -> str:
        """A statement, continued on '... ' lines after ':' or '\\' or inside an indented block."""
        lines = [first]
        if not (first.rstrip().endswith((":", "\\")) or first.count("(") > first.count(")")):
            return first
        while True:
            line = self.read("... ")
            if not line.strip():
                return "\n".join(lines)
            lines.append(line)

    def note(self, key: str, style: str = "dim", **kwargs) -> None:
        self.console.print(RichText(msg(key, self.lang, **kwargs), style=style))

    # steps -----------------------------------------------------------------
    def show_position(self) -> None:
        p = self.player
        bar = ProgressBar(total=p.total, completed=p.position + 1, width=30)
        self.console.print(bar, RichText(f" {p.position + 1}/{p.total}", style="dim"))

    def leave_attempt(self) -> None:
        if self.attempt is not None:
            self.attempt.close()
            self.attempt = None

    def restart(self) -> None:
        self.leave_attempt()
        self.player.restart()
        self.runner.reset()
        self.ran.clear()

    def command(self, text: str) -> bool:
        """Handle a navigation command; True when it was one."""
        p = self.player
        if text == ":quit":
            raise _Quit
        if text == ":back":
            if not p.back():
                self.note("first_step")
            self.leave_attempt()
        elif text == ":restart":
            self.restart()
        elif text == ":reset":
            if yes(self.read(msg("reset_ask", self.lang)), default=False):
                self.restart()
            else:
                self.leave_attempt()
                rebuild(self.lesson, self.runner, p.position)
                self.ran = {i for i in self.ran if i < p.position}
                self.note("reset_rebuilt")
        elif text in (":hint", ":solution", ":skip", ":check"):
            self.note("not_exercise", "yellow", cmd=text)
            return True
        else:
            return False
        return True

    def play_step(self, previous) -> None:
        p = self.player
        index = p.position
        self.show_position()
        show_step(self.console, self.lesson, index, self.lang, previous)
        step = p.step
        if isinstance(step, Code):
            if index in self.ran:
                self.note("already")
            else:
                if step.predict is not None:
                    ask_predict(step.predict, self.lang, self.read, self.console)
                show_output(self.console, Player.run_code(step, self.runner).output)
                self.ran.add(index)
        elif isinstance(step, Tool):
            shown, error = tool_output(self.runner, step, self.console.width, self.lang)
            show_tool(self.console, step, shown if error is None else error, self.lang)
        if isinstance(step, Exercise) and index not in self.ran:
            self.exercise(index)
            return
        while True:
            answer = self.read(msg("enter", self.lang) + " ").strip()
            if not answer.startswith(":"):
                self.advance_or_finish()
                return
            if self.command(answer):
                if self.player.position != index or answer in (":reset", ":restart"):
                    return
                continue
            self.note("unknown", "yellow", cmd=answer, all=" ".join(COMMANDS))

    def exercise(self, index: int) -> None:
        p = self.player
        self.note("exercise")
        self.attempt = Attempt(self.lesson, index, self.runner)
        while True:
            text = self.read(">>> ")
            stripped = text.strip()
            if stripped.startswith(":") and stripped not in (":check",):
                if stripped == ":hint":
                    hint = p.next_hint()
                    self.console.print(RichText(hint or msg("no_hint", self.lang), style="yellow"))
                elif stripped == ":solution":
                    show_code(self.console, p.solution())
                elif stripped == ":skip":
                    self.leave_attempt()
                    rebuild(self.lesson, self.runner, index)
                    self.runner.run(p.solution())
                    self.ran.add(index)
                    self.note("skipped")
                    self.advance_or_finish()
                    return
                elif self.command(stripped):
                    return
                else:
                    self.note("unknown", "yellow", cmd=stripped, all=" ".join(COMMANDS))
                continue
            if stripped and stripped != ":check":
                show_output(self.console, self.runner.run(self.read_code(text)))
                for hint in self.runner.last_hints:
                    self.note("hint", "yellow", text=localize(hint, self.lang))
                self.attempt.typed += 1
                continue
            if not self.attempt.typed:
                self.note("nothing_typed")
                continue
            result = self.attempt.judge(p)
            show_check(self.console, result, self.lang)
            if result.passed:
                self.leave_attempt()
                self.ran.add(index)
                self.advance_or_finish()
                return
            self.attempt.again()
            self.note("again")

    def advance_or_finish(self) -> None:
        if not self.player.advance():
            raise _Finished

    def save(self) -> bool:
        return self.store.update(self.lesson.id, self.player.progress())

    def stop(self) -> None:
        """Save on the way out; say where to resume, or why progress could not be kept."""
        self.leave_attempt()
        self.console.print()
        if self.save():
            self.note("saved", id=self.lesson.id)

    def open(self) -> bool:
        """Resume, review or start over, as the saved progress and the learner say; False: quit."""
        saved = self.store.get(self.lesson.id)
        total = len(self.lesson.steps)
        try:
            if saved.finished and saved.total == total:
                if yes(self.read(msg("finished_before", self.lang)), default=False):
                    self.store.update(self.lesson.id, self.player.progress())   # start over
                else:
                    self.player = Player(self.lesson, self.lang, saved)
                    self.note("review")
            elif 0 < saved.step < total and saved.total == total:
                if yes(self.read(msg("resume", self.lang, step=saved.step + 1, total=total)), default=True):
                    self.player = Player(self.lesson, self.lang, saved)
                    replay(self.lesson, self.runner, self.player.position)
                    self.ran.update(range(self.player.position))
        except _Quit:
            return False
        return True

    def run(self) -> int:
        if not self.open():
            return 0
        self.console.print(RichText(f"{self.lesson.number}. {self.lesson.title.get(self.lang)}", style="bold"))
        status = 0
        previous = None
        try:
            while True:
                before = self.player.position
                self.play_step(previous)
                previous = self.lesson.steps[before]
                if self.player.position <= before:
                    previous = None  # show the section title again after :back / :restart / :reset
                self.save()
        except _Finished:
            self.player.completed = True
            self.save()
            self.note("finished", "green")
        except _Quit:
            self.stop()
        except KeyboardInterrupt:
            self.stop()
            status = 130
        if self.store.warning:
            self.note("warning", "yellow", text=self.store.warning)
        return status


def play(lesson: Lesson, lang: str, input_fn: Callable[[str], str] = input, console: Console | None = None,
         store: ProgressStore | None = None, runner: Runner | None = None) -> int:
    """Play `lesson` line by line; a front end may pass its own input, console and session runner."""
    with wrapping(lang):
        return LinePlayer(lesson, lang, input_fn, console or make_console(), store or ProgressStore(),
                          runner or SandboxRunner()).run()
