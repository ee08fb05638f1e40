"""Terminal rendering of lessons with rich: the lesson table, steps, `--auto` playback.

Program output (tensors) is printed verbatim, never wrapped or highlighted, so
PyTorch's fixed 80-column layout survives; prose and tables fit the terminal.
"""
from __future__ import annotations

import functools
import re
from contextlib import contextmanager, nullcontext

from rich.console import Console
from rich.markdown import Markdown
from rich.rule import Rule
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text as RichText

from gradrepl.tutor.check import CheckResult
from gradrepl.tutor.lesson import Code, Exercise, Lesson, Predict, Prose, Step, Tool
from gradrepl.messages import colon, msg
from gradrepl.tutor.player import CodeResult, play_through
from gradrepl.tutor.progress import ProgressStore

def label(key: str, lang: str) -> str:
    return msg("label." + key, lang)


def labelled(key: str, lang: str, text: str = "") -> str:
    """`Label: text`, with a full-width colon (no space) in Chinese."""
    return f"{label(key, lang)}{colon(lang)}{text}".rstrip()


def make_console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


# A soft line break in Chinese prose is not a space: between two CJK characters, after CJK
# punctuation whatever follows (`，` then `code`), and before CJK punctuation whatever
# precedes (`code` then `（`), the lines join with nothing between.
# Line ends that end a Markdown block element (lists, quotes, indented code) are kept.
_CJK = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
_CJK_PUNCT = "\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
_CJK_SOFT_BREAK = re.compile(rf"(?:(?<=[{_CJK}])\n[ \t]*(?=[{_CJK}])|(?<=[{_CJK_PUNCT}])\n[ \t]*(?=[^\s\-*+>#|`\d]|`[^`])"
                             rf"|(?<=\S)\n[ \t]*(?=[{_CJK_PUNCT}]))")


def join_cjk_lines(text: str) -> str:
    """Chinese prose with its soft line breaks joined (outside indented blocks)."""
    out, block = [], []
    for part in re.split(r"(\n\n+)", text):
        # an indented code block or formula keeps its lines
        if part.startswith("    ") or part.startswith("\t") or part.startswith("```"):
            out.append(part)
        else:
            out.append(_CJK_SOFT_BREAK.sub("", part))
    return "".join(out)


# rich wraps at spaces only, so a run of Chinese without spaces moves to the next line
# whole. In Chinese a line may break between any two characters, except before closing
# punctuation (，。）…), which stays with the character before it, and after opening
# punctuation (（「), which stays with the one after it.
_CJK_CHARS = "\u2e80-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef"
_NO_BREAK_BEFORE = "\u3001\u3002\u300d\u300f\u3011\uff09\uff0c\uff1a\uff1b\uff01\uff1f\u2026\u201d"
_NO_BREAK_AFTER = "\u300c\u300e\u3010\uff08\u201c"      # opening punctuation stays with what follows
_CJK_WORD = re.compile(rf"\s*[{_NO_BREAK_AFTER}]*(?:[{_CJK_CHARS}]|[^\s{_CJK_CHARS}]+)[{_NO_BREAK_BEFORE}]*\s*")


def _cjk_words(text: str):
    """rich._wrap.words, with every Chinese character a word of its own."""
    position = 0
    match = _CJK_WORD.match(text, position)
    while match is not None and match.end() > position:
        yield match.start(), match.end(), match.group(0)
        position = match.end()
        match = _CJK_WORD.match(text, position)


@contextmanager
def cjk_wrapping():
    """While rendering Chinese: rich breaks lines between Chinese characters too."""
    try:
        from rich import _wrap
    except ImportError:  # another rich: its own wrapping
        yield
        return
    original = getattr(_wrap, "words", None)
    if original is None:
        yield
        return
    _wrap.words = _cjk_words
    try:
        yield
    finally:
        _wrap.words = original


def wrapping(lang: str):
    """A context in which rich wraps `lang`'s text: between Chinese characters in "zh"."""
    return cjk_wrapping() if lang == "zh" else nullcontext()


def in_lang(show):
    """`show(..., lang, ...)` wraps its text as `lang` wants it (Chinese between characters)."""
    code = show.__code__
    at = code.co_varnames[:code.co_argcount].index("lang")

    @functools.wraps(show)
    def shown(*args, **kwargs):
        with wrapping(kwargs.get("lang", args[at] if len(args) > at else "en")):
            return show(*args, **kwargs)
    return shown


@in_lang
def lesson_table(lessons: list[Lesson], store: ProgressStore, lang: str, console: Console | None = None) -> None:
    console = console or make_console()
    table = Table(title=label("lessons", lang), title_justify="left")
    table.add_column(label("number", lang), justify="right")
    table.add_column(label("id", lang), no_wrap=True)
    table.add_column(label("title", lang), overflow="fold")   # CJK has no spaces to wrap at: fold, never cut
    table.add_column(label("progress", lang), no_wrap=True)
    for lesson in lessons:
        en, zh = store.get(lesson.id).describe()
        # lesson text is text, never rich markup ('[/x]', '[link=...]')
        table.add_row(str(lesson.number), RichText(lesson.id), RichText(lesson.title.get(lang)),
                      RichText(zh if lang == "zh" else en))
    console.print(table)


def show_output(console: Console, text: str) -> None:
    """Program output exactly as printed by script mode."""
    if text:
        console.print(RichText(text.rstrip("\n")), soft_wrap=True, markup=False, highlight=False)


def show_code(console: Console, source: str) -> None:
    """Highlighted, behind a `│ ` gutter so that code stands apart from its output."""
    source = source.rstrip("\n")
    highlighted = Syntax(source, "python", theme="ansi_dark").highlight(source)
    highlighted.rstrip()
    for line in highlighted.split("\n", allow_blank=True):
        console.print(RichText("│ ", style="dim") + line, soft_wrap=True)


def show_markdown(console: Console, text: str, lang: str) -> None:
    if lang == "zh":
        text = join_cjk_lines(text)
    markdown = Markdown(text, hyperlinks=False)   # a lesson's links stay text: no OSC 8
    with cjk_wrapping() if lang == "zh" else nullcontext():
        if console.is_terminal:
            console.print(markdown)
            return
        # piped or captured: plain lines without rich's padding to the full width
        lines = list(console.render_lines(markdown, pad=False))
    for line in lines:
        console.print(RichText("".join(segment.text for segment in line).rstrip()), soft_wrap=True)


@in_lang
def show_step(console: Console, lesson: Lesson, index: int, lang: str, previous: Step | None) -> None:
    """Section rule (when the section changes), then the step's prose, code or task."""
    step = lesson.steps[index]
    if previous is None or previous.section != step.section:
        console.print(Rule(RichText(step.section.get(lang)), align="left"))
    if isinstance(step, Prose):
        show_markdown(console, step.text.get(lang), lang)
    elif isinstance(step, Code):
        show_code(console, step.source)
    elif isinstance(step, Exercise):
        console.print(RichText(labelled("exercise", lang, step.title.get(lang)), style="bold"))
        show_markdown(console, step.task.get(lang), lang)


@in_lang
def show_predict(console: Console, predict: Predict, lang: str) -> None:
    """The question and its numbered choices (asked before the code step runs)."""
    console.print(RichText(msg("predict", lang, question=predict.question.get(lang)), style="bold"))
    for number, choice in enumerate(predict.shown_choices(lang), 1):
        first, *rest = choice.split("\n")
        console.print(RichText(f"  {number}) {first}"), soft_wrap=True)
        for line in rest:
            console.print(RichText(f"     {line}"), soft_wrap=True)


@in_lang
def show_predict_feedback(console: Console, predict: Predict, lang: str, chosen: int | None) -> None:
    """Right or wrong (chosen: a 0-based index, None when the learner just ran it), then why."""
    n = predict.answer + 1
    if chosen is None:
        console.print(RichText(msg("predict_answer", lang, n=n), style="bold"))
    elif chosen == predict.answer:
        console.print(RichText(msg("predict_right", lang), style="green"))
    else:
        console.print(RichText(msg("predict_wrong", lang, n=n), style="red"))
    show_markdown(console, predict.why.get(lang), lang)


@in_lang
def show_renderable(console: Console, shown, lang: str = "en") -> None:
    console.print(RichText(shown) if isinstance(shown, str) else shown, soft_wrap=isinstance(shown, str))


@in_lang
def show_tool(console: Console, tool: Tool, shown, lang: str) -> None:
    """A tool step run by the tutor: what it runs, then what gradrepl prints for it."""
    console.print(RichText(msg("tool", lang, cmd=str(tool.call)), style="dim"))
    console.print(RichText(f"» {tool.call}", style="bold cyan"))
    show_renderable(console, shown, lang)


@in_lang
def show_check(console: Console, result: CheckResult, lang: str) -> None:
    if result.passed:
        console.print(RichText(label("passed", lang), style="green"))
        return
    console.print(RichText(label("failed", lang), style="red"))
    for failure in result.failures:
        console.print(RichText(f"  - {failure.get(lang)}"))


def auto_play(lesson: Lesson, lang: str, runner=None, console: Console | None = None) -> int:
    """Every step with its output and the reference solutions; 0 when everything matched."""
    from gradrepl.tutor.runner import SandboxRunner

    console = console or make_console()
    runner = runner or SandboxRunner()
    previous: list[Step | None] = [None]

    def on_step(index: int, step: Step, outcome) -> None:
        show_step(console, lesson, index, lang, previous[0])
        previous[0] = step
        if isinstance(step, Code) and step.predict is not None:
            show_predict(console, step.predict, lang)
            show_predict_feedback(console, step.predict, lang, None)
        if isinstance(step, Tool) and outcome is not None:
            show_tool(console, step, outcome, lang)
        if isinstance(outcome, CodeResult):
            show_output(console, outcome.output)
            if not outcome.matched:
                console.print(RichText(label("mismatch", lang), style="red"))
                show_output(console, outcome.diff)
        elif isinstance(step, Exercise):
            for number, hint in enumerate(step.hints, 1):
                console.print(RichText(f"{label('hint', lang)} {number}{colon(lang)}{hint.get(lang)}", style="dim"))
            console.print(RichText(labelled("solution", lang), style="bold"))
            show_code(console, step.solution)
            show_check(console, outcome, lang)
        console.print()

    with wrapping(lang):
        console.print(RichText(f"{lesson.number}. {lesson.title.get(lang)}", style="bold"))
        console.print(RichText(lesson.summary.get(lang), style="italic"))
        problems = play_through(lesson, runner, on_step, lang)
    if problems:
        err = make_console(stderr=True)
        err.print(RichText(labelled("problems", lang), style="red"))
        for problem in problems:
            show_output(err, str(problem))
        return 1
    console.print(RichText(label("all_matched", lang), style="green"))
    return 0


