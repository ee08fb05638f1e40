"""A lesson's every screen in Chinese under --lang zh: tool steps, hints under errors, labels
(golden texts of tests/data/tutor/tools, whose outputs were recorded from PyTorch)."""
import os
import re
from pathlib import Path

import pytest

from gradrepl.tutor.display import auto_play, make_console
from gradrepl.tutor.interactive import play
from gradrepl.tutor.lesson import load_lesson
from gradrepl.tutor.progress import ProgressStore

DATA = Path(__file__).resolve().parents[1] / "data" / "tutor"
TOOLS = DATA / "tools" / "01-tools.md"


def _console():
    console = make_console()
    console.width = 100
    return console


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_auto_play_golden(lang):
    console = _console()
    with console.capture() as cap:
        assert auto_play(load_lesson(TOOLS), lang, console=console) == 0
    text = cap.get()
    path = DATA / "expected" / f"tools.{lang}.txt"
    if os.environ.get("GRADREPL_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_chinese_auto_play_has_no_english_screen_words():
    console = _console()
    with console.capture() as cap:
        auto_play(load_lesson(TOOLS), "zh", console=console)
    text = cap.get()
    for english in ("Chain rule", "Result", "Symbolically", "finite differences", "Jacobian", "no gradient",
                    "kink", "Reference solution", "check passed", "The tutor runs", "(shown above)", "Hint"):
        assert english not in text, english
    assert "导师替你运行 :explain loss" in text and "loss 的链式法则" in text and "参考答案" in text
    assert "c 恰好落在 relu 的折点上" in text and "雅可比矩阵 d h / d a" in text


def answers(*lines):
    it = iter(lines)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


@pytest.mark.parametrize("lang, hint, passed", [
    ("zh", "提示：传入一个形状相同的梯度，例如 h.backward(torch.ones_like(h))，或者先归约成标量：h.sum().backward()",
     "✓ 检查通过"),
    ("en", "hint: pass a gradient of the same shape, such as h.backward(torch.ones_like(h)), or reduce first: "
           "h.sum().backward()", "✓ check passed"),
])
def test_the_hint_under_a_learners_error_is_in_the_lesson_language(tmp_path, lang, hint, passed):
    console = _console()
    console.width = 200
    with console.capture() as cap:
        status = play(load_lesson(TOOLS), lang, answers(
            "", "", "", "", "", "",                    # prose, code, four tools
            "h.backward()", "",                        # the error: RuntimeError, then gradrepl's hint
            "h.sum().backward()", "",
        ), console=console, store=ProgressStore(tmp_path / "p.json"))
    out = cap.get()
    assert status == 0
    assert "RuntimeError: grad can be implicitly created only for scalar outputs" in out   # PyTorch's own line
    assert hint in out and passed in out
    if lang == "zh":
        assert not re.search(r"\bhint: ", out)
