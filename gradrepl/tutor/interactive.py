"""A simple line-based lesson player (`gradrepl lesson NAME`).

Enter advances; at an exercise the learner types code until the check passes.
Commands: :hint :solution :skip :back :restart :quit. Input is read with
`input_fn` (plain `input` by default), so the same loop serves a terminal and
a piped file of answers. The prompt_toolkit REPL can drive `Player` itself for
the full experience; this loop needs nothing but a line of input at a time.
"""
from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.progress_bar import ProgressBar
from rich.text import Text as RichText

from gradrepl.tutor.display import make_console, show_check, show_code, show_output, show_step
from gradrepl.tutor.lesson import Code, Exercise, Lesson
from gradrepl.tutor.player import Player, Runner, replay
from gradrepl.tutor.progress import ProgressStore
from gradrepl.tutor.runner import SandboxRunner

COMMANDS = (":hint", ":solution", ":skip", ":back", ":restart", ":quit")

MESSAGES = {
    "enter": ("Enter: continue  (:back :restart :quit)", "回车：继续  （:back :restart :quit）"),
    "exercise": ("Type code at the prompt. :hint :solution :skip :back :restart :quit",
                 "在提示符后输入代码。:hint :solution :skip :back :restart :quit"),
    "resume": ("Resume at step {step} of {total}? [Y/n] ", "从第 {step}/{total} 步继续？[Y/n] "),
    "no_hint": ("No more hints; :solution shows the answer.", "没有更多提示了；:solution 显示答案。"),
    "skipped": ("Skipped; the reference solution was run so later steps work.",
                "已跳过；已运行参考答案，以便后续步骤正常进行。"),
    "already": ("(this step already ran)", "（此步骤已运行）"),
    "unknown": ("Unknown command {cmd}; commands: {all}", "未知命令 {cmd}；可用命令：{all}"),
    "finished": ("Lesson finished. Well done!", "课程完成，做得好！"),
    "saved": ("Progress saved; `gradrepl lesson {id}` resumes here.", "进度已保存；`gradrepl lesson {id}` 可从这里继续。"),
}


def msg(key: str, lang: str, **kwargs) -> str:
    en, zh = MESSAGES[key]
    return (zh if lang == "zh" else en).format(**kwargs)


class _Quit(Exception):
    """The learner asked to stop (:quit, end of input)."""


class _Finished(Exception):
    """The learner went past the last step."""


class LinePlayer:
    def __init__(self, lesson: Lesson, lang: str, input_fn: Callable[[str], str],
                 console: Console, store: ProgressStore, runner: Runner):
        self.lesson, self.lang, self.input, self.console, self.store = lesson, lang, input_fn, console, store
        self.player = Player(lesson, lang)
        self.runner = runner
        self.ran: set[int] = set()

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

    # steps -----------------------------------------------------------------
    def show_position(self) -> None:
        p = self.player
        bar = ProgressBar(total=p.total, completed=p.position + 1, width=30)
        self.console.print(bar, RichText(f" {p.position + 1}/{p.total}", style="dim"))

    def command(self, text: str) -> bool:
        """Handle a navigation command; True when it was one."""
        p = self.player
        if text == ":quit":
            raise _Quit
        if text == ":back":
            p.back()
        elif text == ":restart":
            p.restart()
            self.runner.reset()
            self.ran.clear()
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
                self.console.print(RichText(msg("already", self.lang), style="dim"))
            else:
                show_output(self.console, Player.run_code(step, self.runner).output)
                self.ran.add(index)
        if isinstance(step, Exercise) and index not in self.ran:
            self.exercise(index)
            return
        answer = self.read(msg("enter", self.lang) + " ").strip()
        if not self.command(answer):
            self.advance_or_finish()

    def exercise(self, index: int) -> None:
        p = self.player
        self.console.print(RichText(msg("exercise", self.lang), style="dim"))
        while True:
            text = self.read(">>> ")
            stripped = text.strip()
            if not stripped:
                continue
            if stripped.startswith(":"):
                if stripped == ":hint":
                    hint = p.next_hint()
                    self.console.print(RichText(hint or msg("no_hint", self.lang), style="yellow"))
                elif stripped == ":solution":
                    show_code(self.console, p.solution())
                elif stripped == ":skip":
                    self.runner.run(p.solution())
                    self.ran.add(index)
                    self.console.print(RichText(msg("skipped", self.lang), style="dim"))
                    self.advance_or_finish()
                    return
                elif self.command(stripped):
                    return
                else:
                    self.console.print(RichText(msg("unknown", self.lang, cmd=stripped,
                                                all=" ".join(COMMANDS))))
                continue
            show_output(self.console, self.runner.run(self.read_code(text)))
            for hint in self.runner.last_hints:
                self.console.print(RichText(f"hint: {hint}", style="yellow"))
            result = p.check(self.runner.namespace)
            if result.passed:
                show_check(self.console, result, self.lang)
                self.ran.add(index)
                self.advance_or_finish()
                return
            checked = [var.name for var in p.step.check.variables]
            if all(name in self.runner.namespace for name in checked):
                show_check(self.console, result, self.lang)  # an attempt is complete: say what is off

    def advance_or_finish(self) -> None:
        if not self.player.advance():
            raise _Finished

    def save(self) -> bool:
        return self.store.update(self.lesson.id, self.player.progress())

    def stop(self) -> None:
        """Save on the way out; say where to resume, or why progress could not be kept."""
        self.console.print()
        if self.save():
            self.console.print(RichText(msg("saved", self.lang, id=self.lesson.id), style="dim"))

    def run(self) -> int:
        saved = self.store.get(self.lesson.id)
        if 0 < saved.step < len(self.lesson.steps) and saved.total == len(self.lesson.steps) and not saved.finished:
            try:
                answer = self.read(msg("resume", self.lang, step=saved.step + 1, total=saved.total))
            except _Quit:
                return 0
            if answer.strip().lower() in ("", "y", "yes", "是"):
                self.player = Player(self.lesson, self.lang, saved)
                replay(self.lesson, self.runner, self.player.position)
                self.ran.update(range(self.player.position))
        self.console.print(RichText(f"{self.lesson.number}. {self.lesson.title.get(self.lang)}", style="bold"))
        status = 0
        previous = None
        try:
            while True:
                before = self.player.position
                self.play_step(previous)
                previous = self.lesson.steps[before]
                if self.player.position < before:
                    previous = None  # show the section title again after :back / :restart
                self.save()
        except _Finished:
            self.save()
            self.console.print(RichText(msg("finished", self.lang), style="green"))
        except _Quit:
            self.stop()
        except KeyboardInterrupt:
            self.stop()
            status = 130
        if self.store.warning:
            self.console.print(RichText(f"warning: {self.store.warning}", style="yellow"))
        return status


def play(lesson: Lesson, lang: str, input_fn: Callable[[str], str] = input, console: Console | None = None,
         store: ProgressStore | None = None, runner: Runner | None = None) -> int:
    """Play `lesson` line by line; a front end may pass its own input, console and session runner."""
    return LinePlayer(lesson, lang, input_fn, console or make_console(), store or ProgressStore(),
                      runner or SandboxRunner()).run()
