"""The lesson parser: the shipped lessons, a small lesson of each step kind, and format errors."""
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from gradrepl.tutor.lesson import Code, Exercise, LessonError, Prose, load_all, load_lesson, parse_lesson

DATA = Path(__file__).resolve().parents[1] / "data" / "tutor"


def test_tiny_lesson_has_one_step_of_each_kind():
    lesson = load_lesson(DATA / "good" / "01-tiny.md")
    assert (lesson.id, lesson.number) == ("tiny", 1)
    assert lesson.title.get("zh") == "一个小课程"
    kinds = [type(s) for s in lesson.steps]
    assert kinds == [Prose, Code, Code, Exercise]
    prose, code, echo, exercise = lesson.steps
    assert prose.text.en == "Some *prose*." and prose.text.zh == "一些*文字*。"
    assert prose.section.get("en") == "Start" and prose.section.get("zh") == "开始"
    assert code.source == "x = torch.ones(2, requires_grad=True)\nprint(x)\n"
    assert code.expected == "tensor([1., 1.], requires_grad=True)\n"
    assert echo.expected.startswith("<SumBackward0 object at 0x")
    assert exercise.title.en == "Square it"
    assert [h.en for h in exercise.hints] == ["s = (x ** 2).sum()", "Then s.backward()."]
    assert exercise.solution == "s = (x ** 2).sum()\ns.backward()\n"
    assert [v.name for v in exercise.check.variables] == ["s", "x"]


def test_shipped_lessons_cover_the_three_documents_and_have_three_exercises_each():
    lessons = load_all()
    assert [lesson.number for lesson in lessons] == [1, 2, 3, 4, 5, 6]
    sources = " ".join(lesson.source for lesson in lessons)
    for doc in ("000_3abfb6c8087c9236", "001_0d064b08bc26f0bc", "004_e6f5b49b4677a76c"):
        assert doc in sources
    for lesson in lessons:
        assert len(lesson.exercises) >= 3, lesson.id
        for step in lesson.steps:
            texts = [step.text] if isinstance(step, Prose) else []
            if isinstance(step, Exercise):
                texts = [step.title, step.task, *step.hints]
            for text in texts:
                assert text.en.strip() and text.zh.strip()


@pytest.mark.parametrize("document, lesson_id", [
    ("000", "variable-to-tensor"), ("001", "graphs-jacobians-detach"), ("004", "autograd-tutorial")])
def test_every_code_line_of_the_document_is_replayed_in_order(document, lesson_id):
    """Each line of the document's code (restored as DECISIONS says) appears in the lesson's code, in order."""
    lesson = next(lesson for lesson in load_all() if lesson.id == lesson_id)
    code = [line for step in lesson.steps if isinstance(step, Code) for line in step.source.split("\n")]
    wanted = [line for line in (DATA / "documents" / f"{document}.py").read_text(encoding="utf-8").split("\n")
              if line.strip()]
    position = 0
    for line in wanted:
        while position < len(code) and code[position] != line:
            position += 1
        assert position < len(code), f"{document}: {line!r} missing or out of order in {lesson_id}"
        position += 1


def test_debris_of_the_pages_is_not_replayed():
    code = "\n".join(s.source for lesson in load_all() for s in lesson.steps if isinstance(s, Code))
    assert "\n1\n2\n3\n" not in code and '"""' not in code and "'''" not in code


HEAD = """+++
id = "t"
number = 9
source = "test"
title = { en = "T", zh = "T" }
summary = { en = "S", zh = "S" }
+++
"""

GOOD_EXERCISE = """
### Ex | 练

<!-- en -->
Task.

<!-- zh -->
任务。

```toml hint
en = "h"
zh = "h"
```

```python solution
a = 1
```

```toml check
[a]
value = 1
```
"""


PREDICT = """```toml predict
en = "Q?"
zh = "问？"
choices = ["1", "2"]
answer = 2
[why]
en = "Because."
zh = "因为。"
```
"""


@pytest.mark.parametrize("body, line, message", [
    ("<!-- en -->\nText.\n\n<!-- zh -->\n文字。\n", 8, "section heading"),
    ("## A | 甲\n\n<!-- en -->\nOnly English.\n", 10, "no <!-- zh -->"),
    ("## A | 甲\n\n<!-- zh -->\n中文\n", 10, "must follow its <!-- en -->"),
    ("## A | 甲\n\nLoose text.\n", 10, "must follow a <!-- en -->"),
    ("## Only English\n", 8, "English title | 中文标题"),
    ("## A | 甲\n\n```output\nx\n```\n", 10, "right after the ```python"),
    ("## A | 甲\n\n```toml hint\nen='a'\nzh='b'\n```\n", 10, "inside an exercise"),
    ("## A | 甲\n" + GOOD_EXERCISE.replace('```toml hint\nen = "h"\nzh = "h"\n```\n', ""), 10, "no ```toml hint"),
    ("## A | 甲\n" + GOOD_EXERCISE.replace("```python solution\na = 1\n```\n", ""), 10, "no ```python solution"),
    ("## A | 甲\n" + GOOD_EXERCISE.split("```toml check")[0], 10, "no ```toml check"),
    ("## A | 甲\n" + GOOD_EXERCISE.replace("value = 1", "colour = 1"), 27, "unknown keys"),
    ("## A | 甲\n" + GOOD_EXERCISE.replace('zh = "h"', ""), 18, "en = ... and zh = ..."),
    ("## A | 甲\n\n#### Deep | 深\n", 10, "'##' for sections"),
    ("## A | 甲\n\n<!-- en -->\n<!-- zh -->\n中文\n", 10, "<!-- en --> is followed by no prose"),
    ("## A | 甲\n\n" + PREDICT, 10, "right after a ```python step"),
    ("## A | 甲\n\n```python\nx = 1\n```\n\n" + PREDICT.replace("answer = 2", "answer = 3"), 14,
     "the number of the right choice"),
    ("## A | 甲\n\n```python\nx = 1\n```\n\n" + PREDICT.replace('["1", "2"]', '["1"]'), 14, "2 to 6"),
    ("## A | 甲\n\n```python\nx = 1\n```\n\n" + PREDICT.replace("[why]", "colour = 1\n[why]"), 14,
     "unknown keys"),
    ("## A | 甲\n\n```python\nx = 1\n```\n\n" + PREDICT + "\n" + PREDICT, 24, "right after a ```python step"),
    ("## A | 甲\n\n```tool\n:explain out\n:graph out\n```\n", 10, "one line"),
    ("## A | 甲\n\n```tool\n:load evil.py\n```\n", 10, "unknown tool ':load'"),
    ("## A | 甲\n\n```tool\n:graph out /tmp/x.svg\n```\n", 10, "writes no files"),
    ("## A | 甲\n\n```tool\n:explain __class__\n```\n", 10, "not a variable name"),
    ("## A | 甲\n\n```tool\n:jacobian y\n```\n", 10, "takes 2 to 2 arguments"),
])
def test_format_errors_name_the_line(body, line, message):
    with pytest.raises(LessonError) as info:
        parse_lesson(HEAD + body, "x.md")
    assert info.value.line == line, str(info.value)
    assert message in info.value.message


def test_predict_questions_and_tool_steps():
    from gradrepl.tutor.lesson import Tool
    from gradrepl.tutor.tools import ToolCall

    body = ("## A | 甲\n\n```python\nx = 1\nx + 1\n```\n\n```output\n2\n```\n\n" + PREDICT
            + "\n```tool\n:graph x mermaid\n```\n")
    code, tool = parse_lesson(HEAD + body).steps
    assert code.expected == "2\n" and code.predict.choices == ("1", "2") and code.predict.answer == 1
    assert code.predict.question.zh == "问？" and code.predict.why.en == "Because." and code.predict.in_output
    assert isinstance(tool, Tool) and tool.call == ToolCall(":graph", ("x", "mermaid"))
    assert str(tool.call) == ":graph x mermaid"


def test_front_matter_is_required_and_validated():
    with pytest.raises(LessonError, match="front matter"):
        parse_lesson("## A | 甲\n", "x.md")
    with pytest.raises(LessonError, match="needs 'summary'"):
        parse_lesson(HEAD.replace('summary = { en = "S", zh = "S" }\n', ""), "x.md")
    with pytest.raises(LessonError, match="needs must be a list of torch names"):
        parse_lesson(HEAD.replace('id = "t"', 'id = "t"\nneeds = ["os.system"]') + "## A | 甲\n")
    with pytest.raises(LessonError, match="id must be"):
        parse_lesson(HEAD.replace('id = "t"', 'id = "Bad Id"') + "## A | 甲\n<!-- en -->\na\n<!-- zh -->\nb\n")


def test_an_exercise_is_a_step_and_prose_after_it_is_another():
    lesson = parse_lesson(HEAD + "## A | 甲\n" + GOOD_EXERCISE + "\n<!-- en -->\nAfter.\n\n<!-- zh -->\n之后。\n")
    assert [type(s) for s in lesson.steps] == [Exercise, Prose]
    assert lesson.steps[0].task.zh == "任务。"


def test_illustrative_fences_inside_prose_stay_prose():
    body = "## A | 甲\n\n<!-- en -->\nSee:\n\n```mermaid\ngraph BT;\n```\n\n<!-- zh -->\n看：\n\n```text\nx\n```\n"
    (step,) = parse_lesson(HEAD + body).steps
    assert "```mermaid" in step.text.en and "```text" in step.text.zh


def test_duplicate_ids_are_refused(tmp_path):
    text = (DATA / "good" / "01-tiny.md").read_text(encoding="utf-8")
    (tmp_path / "01-a.md").write_text(text, encoding="utf-8")
    (tmp_path / "02-b.md").write_text(text.replace("number = 1", "number = 2"), encoding="utf-8")
    with pytest.raises(LessonError, match="'tiny' is also used"):
        load_all(tmp_path)


PIECES = ["## A | 甲\n", "### E | 练\n", "<!-- en -->\n", "<!-- zh -->\n", "text\n", "\n", "```python\nx = 1\n```\n",
          "```output\n1\n```\n", '```toml hint\nen = "a"\nzh = "b"\n```\n', "```python solution\nx = 2\n```\n",
          "```toml check\n[x]\nvalue = 2\n```\n", "```toml check\n[x\n```\n", "```\n", "- item\n", "| a |\n",
          "<!-- en", "+++\n", "    indented\n", "#### deep\n", "> quote\n", "```tool\n:explain x\n```\n",
          "```tool\n:rm x\n```\n", PREDICT, '```toml predict\nen = "q"\n```\n']


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=25), st.text(max_size=20))
def test_any_body_parses_or_raises_a_lesson_error(pieces, noise):
    """Lesson files are untrusted: whatever they hold, the parser reports a LessonError, nothing else."""
    try:
        lesson = parse_lesson(HEAD + "".join(pieces) + noise, "fuzz.md")
    except LessonError:
        return
    assert lesson.steps


def test_a_file_that_is_not_utf8_is_a_lesson_error(tmp_path):
    (tmp_path / "01-x.md").write_bytes(b"+++\nid = '\xff'\n+++\n")
    with pytest.raises(LessonError, match="not UTF-8"):
        load_all(tmp_path)


def test_control_characters_are_refused_and_crlf_is_fine():
    body = "## A | 甲\n\n<!-- en -->\nText \x1b]0;owned\x07 here.\n\n<!-- zh -->\n文字。\n"
    with pytest.raises(LessonError, match="U\\+001B") as info:
        parse_lesson(HEAD + body, "x.md")
    assert info.value.line == 11
    good = (HEAD + body.replace("\x1b]0;owned\x07", "")).replace("\n", "\r\n")
    assert parse_lesson(good).steps[0].text.en == "Text  here."


def test_predict_choices_in_chinese():
    body = "## A | 甲\n\n```python\nx = 1\nx + 1\n```\n\n```output\n2\n```\n\n"
    with_zh = PREDICT.replace('choices = ["1", "2"]\n', 'choices = ["one", "2"]\nchoices_zh = ["一", "2"]\n')
    (code,) = parse_lesson(HEAD + body + with_zh).steps
    assert code.predict.shown_choices("zh") == ("一", "2") and code.predict.shown_choices("en") == ("one", "2")
    (plain,) = parse_lesson(HEAD + body + PREDICT).steps
    assert plain.predict.shown_choices("zh") == ("1", "2")
    with pytest.raises(LessonError, match="as many non-empty strings as choices"):
        parse_lesson(HEAD + body + with_zh.replace('["一", "2"]', '["一"]'))
    with pytest.raises(LessonError, match="the same in both languages"):     # the right one is output
        parse_lesson(HEAD + body + with_zh.replace('["一", "2"]', '["一", "二"]'))


def test_shipped_lessons_show_no_english_prose_choice_in_chinese():
    for lesson in load_all():
        for step in lesson.steps:
            predict = getattr(step, "predict", None)
            if predict is None:
                continue
            for k, choice in enumerate(predict.shown_choices("zh")):
                output = predict.in_output and k == predict.answer
                if not output and not choice.startswith(("RuntimeError", "tensor", "(tensor")):
                    assert not re.search(r"\b(becomes|stays|nothing|the|it|and|stops)\b", choice), (lesson.id, choice)
