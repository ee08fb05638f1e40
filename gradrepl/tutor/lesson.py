"""Lesson files: the model (Lesson, steps) and the parser.

A lesson is Markdown with TOML front matter between `+++` lines; the format is
documented for authors in lessons/README.md. Parsing uses markdown-it-py for
the block structure and slices prose out of the source text by line ranges, so
prose keeps its exact Markdown (rendered later with rich).

Structural pieces of the body, everything else is prose:
  `## English title | 中文标题`     a section (groups the steps under a title)
  `<!-- en -->`, `<!-- zh -->`      the language of the prose that follows
  ```python                         a code step, run in the learner's session
  ```output                         its expected script-mode output
  `### English | 中文`              an exercise: task prose, then these fences:
  ```toml hint                      a hint (en = ..., zh = ...), in order
  ```python solution                the reference solution
  ```toml check                     the check on the resulting state (ends it)
  ```toml predict                   right after a code step (or its output): a question asked
                                    before the step runs (what will it print?)
  ```tool                           a tool step: `:explain out`, `:graph out`, `:gradcheck out`,
                                    `:jacobian y x` run by the tutor on the session and shown
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt

from gradrepl.tutor.check import StateCheck, parse_check
from gradrepl.tutor.tools import ToolCall, parse_tool

LANGS = ("en", "zh")

_LANG_MARKER = re.compile(r"^\s*<!--\s*(en|zh)\s*-->\s*$")
_FRONT_MATTER = "+++"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_MAX_NUMBER = 10 ** 15


class LessonError(Exception):
    """A lesson file that does not follow the format; names the file and line."""

    def __init__(self, path: str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Text:
    """The same prose in every language of LANGS."""

    en: str
    zh: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Prose:
    section: Text
    text: Text
    line: int


@dataclass(frozen=True)
class Predict:
    """A question asked before a code step runs: pick the choice that it will print/do."""

    question: Text
    choices: tuple[str, ...]
    answer: int          # index into choices
    why: Text
    in_output: bool      # the right choice is a piece of the step's output (--check verifies it)
    line: int
    choices_zh: tuple[str, ...] | None = None   # the choices in Chinese, where they are prose

    def shown_choices(self, lang: str) -> tuple[str, ...]:
        return self.choices_zh if lang == "zh" and self.choices_zh else self.choices


@dataclass(frozen=True)
class Code:
    section: Text
    source: str
    expected: str
    line: int
    predict: Predict | None = None


@dataclass(frozen=True)
class Tool:
    """gradrepl's own tool on the session (no code runs): what `:explain out` etc. show."""

    section: Text
    call: ToolCall
    line: int


@dataclass(frozen=True)
class Exercise:
    section: Text
    title: Text
    task: Text
    hints: tuple[Text, ...]
    solution: str
    check: StateCheck
    line: int


Step = Prose | Code | Exercise | Tool


@dataclass(frozen=True)
class Lesson:
    id: str
    number: int
    title: Text
    summary: Text
    source: str
    path: str
    steps: tuple[Step, ...] = field(repr=False)
    needs: tuple[str, ...] = ()   # torch names the lesson uses that a gradrepl build may lack

    @property
    def exercises(self) -> list[Exercise]:
        return [s for s in self.steps if isinstance(s, Exercise)]


def split_title(text: str, path: str, line: int) -> Text:
    """`English | 中文` -> Text; both halves are required."""
    parts = [p.strip() for p in text.split(" | ")]
    if len(parts) != 2 or not all(parts):
        raise LessonError(path, line, f"heading {text!r} must read 'English title | 中文标题'")
    return Text(*parts)


def _text_table(value: object, path: str, line: int, what: str) -> Text:
    if not isinstance(value, dict) or set(value) != set(LANGS) or not all(
        isinstance(value[k], str) and value[k].strip() for k in LANGS
    ):
        raise LessonError(path, line, f"{what} needs non-empty strings en = ... and zh = ... (nothing else)")
    return Text(value["en"].strip(), value["zh"].strip())


def _parse_front_matter(text: str, path: str) -> tuple[dict, int]:
    lines = text.split("\n")
    if not lines or lines[0].strip() != _FRONT_MATTER:
        raise LessonError(path, 1, "a lesson starts with TOML front matter between '+++' lines")
    for end in range(1, len(lines)):
        if lines[end].strip() == _FRONT_MATTER:
            break
    else:
        raise LessonError(path, 1, "front matter is not closed by a '+++' line")
    try:
        meta = tomllib.loads("\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError as e:
        raise LessonError(path, 2, f"front matter: {e}") from None
    _check_values(meta, path, 2)
    return meta, end + 1


def _check_values(value, path: str, line: int) -> None:
    """TOML escapes (\\u001b) make control characters the file itself may not hold; and
    numbers stay small enough to print."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str):
            control = _CONTROL.search(v)
            if control:
                raise LessonError(path, line, f"control character U+{ord(control.group()):04X} "
                                              f"is not allowed in a lesson")
        elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > _MAX_NUMBER:
            raise LessonError(path, line, f"number too large (more than {_MAX_NUMBER})")


class _Builder:
    """Walks markdown-it's top-level block tokens and assembles the steps."""

    def __init__(self, path: str, lines: list[str], offset: int):
        self.path = path
        self.lines = lines
        self.offset = offset  # lines of front matter before the body
        self.steps: list[Step] = []
        self.section: Text | None = None
        self.prose: dict[str, list[tuple[int, int]]] = {}
        self.prose_line = 0
        self.lang: str | None = None
        self.exercise: dict | None = None
        self.last_code: int | None = None  # index in steps of a code step still open for its output
        self.predict_target: int | None = None  # a code step still open for its question

    def error(self, line: int, message: str) -> LessonError:
        return LessonError(self.path, line, message)

    def lineno(self, token) -> int:
        return token.map[0] + 1 + self.offset

    # prose ---------------------------------------------------------------
    def _take_prose(self) -> Text | None:
        if not self.prose:
            self.lang = None
            return None
        missing = [lang for lang in LANGS if lang not in self.prose]
        if missing:
            raise self.error(self.prose_line, f"prose has no <!-- {missing[0]} --> version")
        texts = {}
        for lang, ranges in self.prose.items():
            if not ranges:
                raise self.error(self.prose_line, f"<!-- {lang} --> is followed by no prose")
            start, end = ranges[0][0], ranges[-1][1]
            texts[lang] = "\n".join(self.lines[start:end]).strip()
        self.prose, self.lang = {}, None
        return Text(texts["en"], texts["zh"])

    def flush_prose(self) -> None:
        text = self._take_prose()
        if text is None:
            return
        if self.exercise is not None:
            if self.exercise["task"] is not None or self.exercise["hints"] or self.exercise["solution"]:
                raise self.error(self.prose_line, "an exercise has one task (en and zh) before its hints")
            self.exercise["task"] = text
        else:
            self.steps.append(Prose(self._section(self.prose_line), text, self.prose_line))
        self.last_code = self.predict_target = None

    def language_marker(self, lang: str, line: int) -> None:
        if lang in self.prose:  # a new pair starts
            self.flush_prose()
        if lang == "zh" and "en" not in self.prose:
            raise self.error(line, "<!-- zh --> must follow its <!-- en --> prose")
        if not self.prose:
            self.prose_line = line
        self.lang = lang
        self.prose[lang] = []

    def prose_block(self, token) -> None:
        if self.lang is None:
            raise self.error(self.lineno(token), "prose must follow a <!-- en --> or <!-- zh --> marker")
        start, end = token.map
        self.prose[self.lang].append((start + self.offset, end + self.offset))
        self.last_code = self.predict_target = None

    def _section(self, line: int) -> Text:
        if self.section is None:
            raise self.error(line, "steps must follow a '## English | 中文' section heading")
        return self.section

    # headings ------------------------------------------------------------
    def heading(self, level: int, text: str, line: int) -> None:
        self.flush_prose()
        self.end_exercise()
        if level == 2:
            self.section = split_title(text, self.path, line)
        elif level == 3:
            self.exercise = {"title": split_title(text, self.path, line), "task": None,
                             "hints": [], "solution": None, "line": line, "section": self._section(line)}
        else:
            raise self.error(line, "use '##' for sections and '###' for exercises (titles come from front matter)")
        self.last_code = self.predict_target = None

    def end_exercise(self) -> None:
        if self.exercise is not None:
            raise self.error(self.exercise["line"], "exercise has no ```toml check block (it must end with one)")

    # fences --------------------------------------------------------------
    def fence(self, token) -> None:
        line = self.lineno(token)
        words = token.info.split()
        kind = tuple(words[:2])
        body = token.content
        if kind == ("python",):
            self.flush_prose()
            if self.exercise is not None:
                raise self.error(line, "code inside an exercise must be its ```python solution")
            self.steps.append(Code(self._section(line), body, "", line))
            self.last_code = len(self.steps) - 1
            self.predict_target = self.last_code
        elif kind == ("output",):
            if self.last_code is None or self.prose:
                raise self.error(line, "```output must come right after the ```python step it belongs to")
            code = self.steps[self.last_code]
            self.steps[self.last_code] = Code(code.section, code.source, body, code.line, code.predict)
            self.last_code = None
        elif kind == ("toml", "predict"):
            if self.predict_target is None or self.prose or self.exercise is not None:
                raise self.error(line, "```toml predict must come right after a ```python step (or its output)")
            index = self.predict_target
            code = self.steps[index]
            self.steps[index] = Code(code.section, code.source, code.expected, code.line,
                                     self._predict(self._toml(body, line), line))
            self.predict_target = None
        elif kind == ("tool",):
            self.flush_prose()
            if self.exercise is not None:
                raise self.error(line, "a ```tool step cannot be inside an exercise")
            try:
                call = parse_tool(body)
            except ValueError as e:
                raise self.error(line, f"tool: {e}") from None
            self.steps.append(Tool(self._section(line), call, line))
            self.last_code = self.predict_target = None
        elif kind in (("toml", "hint"), ("python", "solution"), ("toml", "check")):
            self.flush_prose()
            if self.exercise is None:
                raise self.error(line, f"```{' '.join(kind)} belongs inside an exercise ('### ...')")
            if self.exercise["task"] is None:
                raise self.error(line, "an exercise starts with its task prose (en and zh)")
            if kind[1] == "hint":
                self.exercise["hints"].append(_text_table(self._toml(body, line), self.path, line, "hint"))
            elif kind[1] == "solution":
                if self.exercise["solution"] is not None:
                    raise self.error(line, "an exercise has one ```python solution")
                self.exercise["solution"] = body
            else:
                self.finish_exercise(body, line)
        elif self.lang is not None:
            self.prose_block(token)  # an illustrative block inside prose (```text, ```mermaid, ...)
        else:
            raise self.error(line, f"unknown block ```{token.info.strip()} outside prose")

    def _predict(self, table: dict, line: int) -> Predict:
        known = {"en", "zh", "choices", "choices_zh", "answer", "why", "in_output"}
        if set(table) - known:
            raise self.error(line, f"predict has unknown keys {sorted(set(table) - known)}")
        question = _text_table({k: table.get(k) for k in LANGS}, self.path, line, "predict question")
        choices = table.get("choices")
        if (not isinstance(choices, list) or not 2 <= len(choices) <= 6
                or not all(isinstance(c, str) and c.strip() for c in choices)):
            raise self.error(line, "predict needs choices = [2 to 6 non-empty strings]")
        answer = table.get("answer")
        if type(answer) is not int or not 1 <= answer <= len(choices):
            raise self.error(line, "predict needs answer = the number of the right choice (from 1)")
        in_output = table.get("in_output", True)
        if not isinstance(in_output, bool):
            raise self.error(line, "predict in_output must be true or false")
        why = _text_table(table.get("why"), self.path, line, "predict why")
        choices_zh = table.get("choices_zh")
        if choices_zh is not None:
            if (not isinstance(choices_zh, list) or len(choices_zh) != len(choices)
                    or not all(isinstance(c, str) and c.strip() for c in choices_zh)):
                raise self.error(line, "predict choices_zh must be a list of as many non-empty strings as choices")
            if in_output and choices_zh[answer - 1].strip() != choices[answer - 1].strip():
                raise self.error(line, "predict choices_zh: the right choice is a piece of the output, the same "
                                       "in both languages")
            choices_zh = tuple(c.strip() for c in choices_zh)
        return Predict(question, tuple(c.strip() for c in choices), answer - 1, why, in_output, line, choices_zh)

    def _toml(self, body: str, line: int) -> dict:
        try:
            values = tomllib.loads(body)
        except tomllib.TOMLDecodeError as e:
            raise self.error(line, f"TOML: {e}") from None
        _check_values(values, self.path, line)
        return values

    def finish_exercise(self, body: str, line: int) -> None:
        ex = self.exercise
        if not ex["hints"]:
            raise self.error(ex["line"], "exercise has no ```toml hint")
        if ex["solution"] is None:
            raise self.error(ex["line"], "exercise has no ```python solution")
        try:
            check = parse_check(self._toml(body, line))
        except ValueError as e:
            raise self.error(line, f"check: {e}") from None
        self.steps.append(Exercise(ex["section"], ex["title"], ex["task"], tuple(ex["hints"]),
                                   ex["solution"], check, ex["line"]))
        self.exercise = None


def parse_lesson(text: str, path: str = "<lesson>") -> Lesson:
    """Parse one lesson file's text; raise LessonError naming the line on any format error."""
    text = text.replace("\r\n", "\n")
    control = _CONTROL.search(text)
    if control:  # lesson files are untrusted: no escape sequences reach the terminal
        raise LessonError(path, text.count("\n", 0, control.start()) + 1,
                          f"control character U+{ord(control.group()):04X} is not allowed in a lesson")
    meta, offset = _parse_front_matter(text, path)
    for key in ("id", "number", "title", "summary", "source"):
        if key not in meta:
            raise LessonError(path, 1, f"front matter needs '{key}'")
    if not isinstance(meta["id"], str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", meta["id"]):
        raise LessonError(path, 1, "id must be lowercase letters, digits and '-'")
    if not isinstance(meta["number"], int):
        raise LessonError(path, 1, "number must be an integer")
    needs = meta.get("needs", [])
    if not isinstance(needs, list) or not all(
            isinstance(n, str) and re.fullmatch(r"torch(\.[A-Za-z][A-Za-z0-9_]*)+", n) for n in needs):
        raise LessonError(path, 1, "needs must be a list of torch names, e.g. [\"torch.optim.SGD\"]")

    lines = text.split("\n")
    body = "\n".join(lines[offset:])
    builder = _Builder(path, lines, offset)
    tokens = MarkdownIt("commonmark").parse(body)
    for i, tok in enumerate(tokens):
        if tok.level != 0 or tok.nesting == -1:
            continue  # inside a block, or its closing token: the opening token covers it
        line = builder.lineno(tok)
        marker = _LANG_MARKER.match(tok.content.strip()) if tok.type == "html_block" else None
        if tok.type == "heading_open":
            builder.heading(int(tok.tag[1]), tokens[i + 1].content, line)
        elif marker:
            builder.language_marker(marker.group(1), line)
        elif tok.type == "fence":
            builder.fence(tok)
        else:
            builder.prose_block(tok)
    builder.flush_prose()
    builder.end_exercise()
    if not builder.steps:
        raise LessonError(path, offset + 1, "lesson has no steps")
    return Lesson(
        id=meta["id"], number=meta["number"],
        title=_text_table(meta["title"], path, 1, "title"),
        summary=_text_table(meta["summary"], path, 1, "summary"),
        source=str(meta["source"]), path=path, steps=tuple(builder.steps), needs=tuple(needs),
    )


def load_lesson(path: Path) -> Lesson:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise LessonError(str(path), 1, f"not UTF-8 text: {e.reason} at byte {e.start}") from None
    return parse_lesson(text, str(path))


def lessons_dir() -> Path:
    """lessons/ beside the package (a source checkout or an editable install), else the copy
    a regular install puts in <prefix>/share/gradrepl/lessons (pyproject's data-files)."""
    beside = Path(__file__).resolve().parents[2] / "lessons"
    if beside.is_dir():
        return beside
    import sys
    return Path(sys.prefix) / "share" / "gradrepl" / "lessons"


def load_all(directory: Path | None = None) -> list[Lesson]:
    """Every lesson file (NN-*.md) in directory, sorted by number; ids and numbers are unique."""
    directory = directory or lessons_dir()
    lessons = [load_lesson(p) for p in sorted(directory.glob("[0-9]*.md"))]
    seen: dict[object, str] = {}
    for lesson in lessons:
        for key in (lesson.id, lesson.number):
            if key in seen:
                raise LessonError(lesson.path, 1, f"{key!r} is also used by {seen[key]}")
            seen[key] = lesson.path
    return sorted(lessons, key=lambda lesson: lesson.number)


def find_lesson(lessons: list[Lesson], name: str) -> Lesson | None:
    """By id, by number, by file name (01-autograd-tutorial), or by an unambiguous id prefix."""
    for lesson in lessons:
        if name == lesson.id or name == str(lesson.number) or name.lstrip("0") == str(lesson.number):
            return lesson
        if name.removesuffix(".md") == f"{lesson.number:02d}-{lesson.id}":
            return lesson
    matches = [lesson for lesson in lessons if lesson.id.startswith(name)]
    return matches[0] if len(matches) == 1 else None
