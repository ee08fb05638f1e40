"""The lesson player as a model, with no terminal in it.

`Player` is the state machine a front end drives (the REPL's `:lesson`, the
line-based player in gradrepl.tutor.interactive, `--auto`): the current step,
moving between steps, progressive hints, the reference solution, and
`check(namespace)` on the learner's state. Code runs through a `Runner`
(gradrepl.tutor.runner.SandboxRunner runs it in the gradrepl sandbox).

`play_through` runs a whole lesson without a learner: every code step with its
output compared, every reference solution with its check. `--check` and
`--auto` are both built on it.

An exercise attempt starts from a clean session rebuilt from the lesson's steps
(`rebuild`), with a `Watch` on the tensors the check counts backward passes through;
the learner's whole answer runs, then the check judges the state it left.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from gradrepl.tutor.check import CheckResult, Watch, check_state
from gradrepl.tutor.expect import difference, normalise
from gradrepl.tutor.lesson import Code, Exercise, Lesson, Step, Tool
from gradrepl.tutor.progress import LessonProgress


class Runner(Protocol):
    """A learner's session as the player sees it."""

    def run(self, source: str) -> str:
        """Run untrusted source; return its plain script-mode output (an error ends with `Type: message`)."""

    @property
    def namespace(self) -> Mapping[str, object]:
        """The session's variables, for checks."""

    def reset(self) -> None:
        """Start the session afresh."""

    @property
    def last_hints(self) -> list[str]:
        """Hints (not part of the compared output) for the errors of the last run."""

    @property
    def session(self):
        """The gradrepl.lang Session the code runs in (for tool steps)."""


@dataclass(frozen=True)
class CodeResult:
    output: str
    expected: str
    diff: str          # '' when the output matched

    @property
    def matched(self) -> bool:
        return not self.diff


class Player:
    def __init__(self, lesson: Lesson, lang: str = "en", progress: LessonProgress | None = None):
        self.lesson = lesson
        self.lang = lang
        self.position = 0
        self.solved: set[int] = set()
        self.hints_shown: dict[int, int] = {}
        self.completed = False  # the learner went past the last step (kept once true)
        if progress is not None and progress.total == len(lesson.steps):
            self.solved = {i for i in progress.solved if 0 <= i < len(lesson.steps)}
            self.completed = progress.finished
            if not progress.finished:   # a finished lesson is looked at again from the start
                self.position = min(max(progress.step, 0), len(lesson.steps) - 1)

    # where we are -------------------------------------------------------
    @property
    def total(self) -> int:
        return len(self.lesson.steps)

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.position]

    @property
    def at_last_step(self) -> bool:
        return self.position == self.total - 1

    def progress(self) -> LessonProgress:
        return LessonProgress(step=self.position, total=self.total, solved=sorted(self.solved),
                              finished=self.completed)

    # moving -------------------------------------------------------------
    def advance(self) -> bool:
        """Go to the next step; False (and the lesson completed) at the last one."""
        if self.at_last_step:
            self.completed = True
            return False
        self.position += 1
        return True

    def back(self) -> bool:
        if self.position == 0:
            return False
        self.position -= 1
        return True

    def restart(self) -> None:
        self.position = 0
        self.solved.clear()
        self.hints_shown.clear()
        self.completed = False

    # exercises ----------------------------------------------------------
    def _exercise(self) -> Exercise:
        if not isinstance(self.step, Exercise):
            raise ValueError("the current step is not an exercise")
        return self.step

    def next_hint(self) -> str | None:
        """The next hint of the current exercise in the player's language; None when all were shown."""
        hints = self._exercise().hints
        shown = self.hints_shown.get(self.position, 0)
        if shown >= len(hints):
            return None
        self.hints_shown[self.position] = shown + 1
        return hints[shown].get(self.lang)

    def solution(self) -> str:
        return self._exercise().solution

    def check(self, namespace: Mapping[str, object], watch: Watch | None = None) -> CheckResult:
        """Check the learner's state against the current exercise; a pass marks it solved."""
        result = check_state(self._exercise().check, dict(namespace), watch)
        if result.passed:
            self.solved.add(self.position)
        return result

    # code ---------------------------------------------------------------
    @staticmethod
    def run_code(code: Code, runner: Runner) -> CodeResult:
        output = runner.run(code.source)
        return CodeResult(output, code.expected, difference(code.expected, output))


def replay(lesson: Lesson, runner: Runner, upto: int) -> None:
    """Rebuild a session quietly: run the code steps and reference solutions before step `upto`."""
    for step in lesson.steps[:upto]:
        if isinstance(step, Code):
            runner.run(step.source)
        elif isinstance(step, Exercise):
            runner.run(step.solution)


def missing_needs(lesson: Lesson) -> list[str]:
    """The names in the lesson's `needs` that this gradrepl does not have (yet)."""
    if not lesson.needs:
        return []
    from gradrepl.tutor.runner import SandboxRunner

    runner = SandboxRunner()
    return [name for name in lesson.needs if runner.run(f"_ = {name}\n").strip()]


def rebuild(lesson: Lesson, runner: Runner, upto: int) -> None:
    """A clean session as the lesson has it before step `upto`: nothing the learner typed survives."""
    runner.reset()
    replay(lesson, runner, upto)


class Attempt:
    """One try at the exercise at `index`: the session rebuilt clean, a Watch on it.

    The front end runs what the learner types (`typed` counts the inputs); when the learner
    submits, `judge(player)` checks the state the whole answer left. After a failed check
    `again()` rebuilds the session for the next try; `close()` when leaving the exercise.
    """

    def __init__(self, lesson: Lesson, index: int, runner: Runner):
        self.lesson, self.index, self.runner = lesson, index, runner
        self.watch: Watch | None = None
        self.typed = 0
        self.again()

    def again(self) -> None:
        self.close()
        rebuild(self.lesson, self.runner, self.index)
        self.watch = Watch(self.lesson.steps[self.index].check, dict(self.runner.namespace))
        self.typed = 0

    def judge(self, player: Player) -> CheckResult:
        return player.check(self.runner.namespace, self.watch)

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()
            self.watch = None


def judge(lesson: Lesson, index: int, answer: str, runner: Runner) -> CheckResult:
    """One whole attempt at exercise `index`: a clean rebuilt session, the answer, the check."""
    exercise = lesson.steps[index]
    if not isinstance(exercise, Exercise):
        raise ValueError(f"step {index + 1} is not an exercise")
    rebuild(lesson, runner, index)
    watch = Watch(exercise.check, dict(runner.namespace))
    try:
        runner.run(answer)
        return check_state(exercise.check, dict(runner.namespace), watch)
    finally:
        watch.close()


def predict_problem(code: Code, output: str) -> str | None:
    """A question whose right choice is not in the step's real output (in_output questions)."""
    predict = code.predict
    if predict is None or not predict.in_output:
        return None
    right = normalise(predict.choices[predict.answer])
    if right not in normalise(output):
        return f"predict: the right choice {right!r} is not in the step's output"
    wrong = [c for i, c in enumerate(predict.choices) if i != predict.answer and normalise(c) == right]
    return f"predict: choice {wrong[0]!r} repeats the right one" if wrong else None


def tool_output(runner: Runner, tool: Tool, width: int | None = None, lang: str = "en"):
    """The tool's renderable; a VizError's message as text (the lesson check reports it)."""
    from gradrepl.messages import colon, localize
    from gradrepl.tutor.tools import run_tool
    from gradrepl.viz import VizError

    try:
        return run_tool(runner.session, tool.call, width, lang=lang), None
    except VizError as e:
        return None, f"{tool.call.command}{colon(lang)}{localize(str(e), lang)}"
    except Exception as e:  # noqa: BLE001 - a tool's failure never ends the lesson
        return None, f"{tool.call.command}: {type(e).__name__}: {e}"


@dataclass(frozen=True)
class Problem:
    """Something wrong in a lesson, found by playing it through."""

    lesson: str
    step: int          # 1-based step number
    line: int          # line in the lesson file
    message: str

    def __str__(self) -> str:
        return f"{self.lesson}: step {self.step} (line {self.line}): {self.message}"


def play_through(lesson: Lesson, runner: Runner,
                 on_step: Callable[[int, Step, object], None] | None = None, lang: str = "en",
                 ) -> list[Problem]:
    """Run every code step and reference solution of `lesson` in one session, in order
    (tool steps show gradrepl's words in `lang`)."""
    problems = []
    for index, step in enumerate(lesson.steps):
        outcome: CodeResult | CheckResult | None = None
        if isinstance(step, Code):
            outcome = Player.run_code(step, runner)
            if not outcome.matched:
                problems.append(Problem(lesson.id, index + 1, step.line, "output differs:\n" + outcome.diff))
            wrong = predict_problem(step, outcome.output)
            if wrong:
                problems.append(Problem(lesson.id, index + 1, step.predict.line, wrong))
        elif isinstance(step, Tool):
            outcome, error = tool_output(runner, step, lang=lang)
            if error:
                problems.append(Problem(lesson.id, index + 1, step.line, error))
        elif isinstance(step, Exercise):  # (the parser already refused an exercise without a hint)
            watch = Watch(step.check, dict(runner.namespace))
            printed = runner.run(step.solution)
            outcome = check_state(step.check, dict(runner.namespace), watch)
            watch.close()
            for failure in outcome.failures:
                problems.append(Problem(lesson.id, index + 1, step.line,
                                        f"reference solution fails its check: {failure.for_author()}"
                                        + (f"\n  it printed: {printed.strip()}" if printed.strip() else "")))
        if on_step is not None:
            on_step(index, step, outcome)
    return problems
