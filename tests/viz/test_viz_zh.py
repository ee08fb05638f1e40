"""Under --lang zh the tools speak Chinese: golden renderings of every tool on the document
cases, the same numbers as in English, and no English prose left over (issue 16)."""
import os
import re

import pytest
from viz_cases import CASES, DATA, case_header, run_case

import gradrepl.viz as viz
from gradrepl.messages import MESSAGES, localize, msg
from gradrepl.viz.graph import VizError

EXPECTED = DATA / "expected" / "zh"
WIDTH = 100
KINK = "w = torch.tensor(0., requires_grad=True)\nr = torch.relu(w) + 2 * w\n"
TOOLS = {   # tool -> the cases it is shown on (gradcheck: exact errors only, no rounding noise)
    "graph": CASES,
    "explain": [c for c in CASES if c != "loop_1000"],
    "gradcheck": ["001_detach", "kink"],
    "jacobian": ["001_jacobian", "004_while"],
}


def _session(case):
    if case != "kink":
        return run_case(case), case_header(case)
    from gradrepl.lang import Session, run_source
    session = Session(write=lambda text: None)
    assert run_source(KINK, session).ok
    return session, ("r", None)


def render(tool, case, lang):
    from rich.console import Console

    from gradrepl.tutor.display import show_renderable

    session, (root, vector) = _session(case)
    if tool == "graph":
        shown = viz.repl_graph(session, root, lang=lang)
    elif tool == "explain":
        shown = viz.repl_explain(session, root, vector, lang=lang)
    elif tool == "gradcheck":
        shown = viz.repl_gradcheck(session, root, vector, lang=lang)
    else:
        shown = viz.repl_jacobian(session, root, "x", lang=lang)
    console = Console(width=WIDTH, color_system=None, no_color=True, highlight=False, soft_wrap=False,
                      record=True, file=open(os.devnull, "w"))
    show_renderable(console, shown, lang)
    return console.export_text()


CALLS = [(tool, case) for tool, cases in TOOLS.items() for case in cases]


@pytest.mark.parametrize("tool, case", CALLS)
def test_golden_chinese_renderings(tool, case):
    text = render(tool, case, "zh")
    path = EXPECTED / f"{case}.{tool}.txt"
    if os.environ.get("GRADREPL_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d*)?(?:e[-+]?\d+)?")


@pytest.mark.parametrize("tool, case", CALLS)
def test_chinese_shows_the_numbers_english_shows(tool, case):
    def numbers(text):
        return NUMBER.findall(re.sub(r"\s+", " ", text))
    assert numbers(render(tool, case, "zh")) == numbers(render(tool, case, "en"))


def _prose_words():
    """Words of the English templates of the tools that a Chinese screen must not show."""
    words, kept = set(), set()
    for key, (en, zh) in MESSAGES.items():
        if key.startswith(("viz.", "viznote.")):
            prose = re.sub(r"\{\w+\}|`[^`]*`|\S*[_.(=]\S*", " ", en)
            words |= set(re.findall(r"\b[A-Za-z]{3,}\b", prose))
            kept |= set(re.findall(r"[A-Za-z]+", zh))     # autograd, relu, |numeric| ...
    return words - kept


@pytest.mark.parametrize("tool, case", CALLS)
def test_no_english_prose_left_in_chinese(tool, case):
    text = "\n".join(line for line in render(tool, case, "zh").splitlines()
                     if not line.strip().startswith("规则"))    # derivative rules are the table's text
    code = re.sub(r"\S*[_.(=]\S*", " ", text)       # names, calls stay as they are
    allowed = {"grad", "self", "other", "where", "else", "result", "sum", "mean", "None", "tensor"}
    leaked = set(re.findall(r"\b[A-Za-z]{3,}\b", code)) & _prose_words() - allowed
    assert not leaked, leaked


def test_the_kink_of_relu_at_zero_is_named_in_both_languages():
    en, zh = render("gradcheck", "kink", "en"), render("gradcheck", "kink", "zh")
    assert "w sits on the kink of relu (w = 0.)" in " ".join(en.split())
    assert "(2.5000)" in en and "(2., PyTorch's convention)" in en     # slopes 2 and 3: average, left one
    assert "w恰好落在relu的折点上（w=0.）" in "".join(zh.split())
    assert "autograd differs from how the value really changes" not in en   # the general guess is not needed


def test_a_failure_without_a_kink_keeps_the_general_explanation():
    text = " ".join(render("gradcheck", "001_detach", "en").split())
    assert "autograd differs from how the value really changes" in text and "kink of" not in text


@pytest.mark.parametrize("source, call, english", [
    ("x = torch.ones(2)\n", lambda s: viz.repl_explain(s, "x"), "x has no autograd graph"),
    ("x = torch.ones(2, requires_grad=True)\n", lambda s: viz.repl_explain(s, "x"), "x is a leaf"),
    ("x = torch.ones(2, requires_grad=True)\n", lambda s: viz.repl_graph(s, "xx"), "did you mean 'x'?"),
    ("x = torch.ones(2, requires_grad=True)\ny = x * 2\n", lambda s: viz.repl_jacobian(s, "y", "q"),
     "name 'q' is not defined"),
    ("x = torch.ones(2, requires_grad=True)\ny = x * 2\nn = 3\n", lambda s: viz.repl_gradcheck(s, "n"),
     "n is not a tensor"),
])
def test_viz_errors_are_catalogue_messages_shown_in_chinese(source, call, english):
    from gradrepl.lang import Session, run_source
    session = Session(write=lambda text: None)
    assert run_source(source, session).ok
    with pytest.raises(VizError) as info:
        call(session)
    message = str(info.value)
    assert english in message
    chinese = localize(message, "zh")
    assert chinese != message and re.search("[\u4e00-\u9fff]", chinese)
    assert not re.search(r"\b(is|the|has|not|name|did|you|mean)\b", chinese), chinese


def test_a_hint_under_an_error_is_shown_in_chinese():
    from gradrepl.lang import Session, run_source
    session = Session(write=lambda text: None)
    result = run_source("y = torch.ones(2, requires_grad=True) * 2\ny.backward()\n", session)
    (error,) = result.errors
    assert error.hint == msg("hint.scalar", "en", y="y")
    assert localize(error.hint, "zh") == ("传入一个形状相同的梯度，例如 y.backward(torch.ones_like(y))，"
                                          "或者先归约成标量：y.sum().backward()")


def test_the_command_line_tools_take_lang(tmp_path, capsys):
    from gradrepl.viz.cli import main

    script = tmp_path / "k.py"
    script.write_text("import torch\n" + KINK, encoding="utf-8")
    assert main(["gradcheck", str(script), "r", "--lang", "zh", "--width", "100"]) == 1
    out = capsys.readouterr().out
    assert "c 恰好落在" not in out and "w 恰好落在 relu 的折点上" in out and "未通过" in out
    assert main(["explain", str(script), "r", "--lang", "zh"]) == 0
    assert "r 的链式法则" in capsys.readouterr().out
    assert main(["graph", str(script), "nope", "--lang", "zh"]) == 1
    assert "gradrepl graph: 名称 'nope' 未定义" in capsys.readouterr().err
    assert main(["graph", str(script), "r", "--lang", "en"]) == 0
    assert "no gradient" in capsys.readouterr().out
