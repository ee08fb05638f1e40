"""The one message catalogue (gradrepl.messages): both languages, same fields, Chinese
typography, every key a caller names exists, and localize() inverts every template."""
import ast
import re
import string
from pathlib import Path

import pytest

import gradrepl
from gradrepl.messages import LOCALIZED, MESSAGES, localize, msg

CJK = "\u4e00-\u9fff"
SAME_IN_BOTH = {"label.number", "label.id"}     # symbols, not words


def fields(text):
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_key_has_both_languages_with_the_same_fields(key):
    en, zh = MESSAGES[key]
    assert en.strip() and zh.strip()
    assert fields(en) == fields(zh), key
    assert not {"key", "lang"} & set(fields(en)), "msg(key, lang, **fields) takes these two itself"
    if key not in SAME_IN_BOTH:
        assert re.search(f"[{CJK}\u3000-\u303f\uff00-\uffef]", zh), f"{key}: no Chinese in {zh!r}"
        assert not re.search(f"[{CJK}]", en), f"{key}: Chinese in the English text"


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_chinese_uses_full_width_punctuation(key):
    zh = MESSAGES[key][1]
    # code spans, commands, fields and [Y/n] keep their ASCII
    prose = re.sub(r"`[^`]*`|:[a-z]+|\{[a-z]+\}|\[[YyNn]/[YyNn]\]|\d+-\{n\}", "", zh)
    assert not re.search(f"[{CJK}][,:;!?(]|[,:;!?)][{CJK}]", prose), (key, zh)
    assert not re.search(f"[{CJK}]\\.(\\s|$)", prose), (key, zh)      # 。 ends a Chinese sentence


@pytest.mark.parametrize("key", sorted(k for k in MESSAGES if k.startswith(LOCALIZED)))
def test_localize_turns_every_english_template_back_into_its_chinese(key):
    values = {name: f"<{name}{i}>" for i, name in enumerate(fields(MESSAGES[key][0]))}
    english = msg(key, "en", **values)
    assert localize(english, "zh") == msg(key, "zh", **values)
    assert localize(english, "en") == english


def test_localize_leaves_other_text_alone_and_translates_nested_messages():
    assert localize("RuntimeError: Mismatch in shape", "zh") == "RuntimeError: Mismatch in shape"
    inner = msg("vizerr.freed", "en", root="y")
    outer = msg("vizerr.backward_failed", "en", root="z", error=inner)
    assert localize(outer, "zh") == msg("vizerr.backward_failed", "zh", root="z", error=msg("vizerr.freed", "zh", root="y"))


def _named_keys():
    """Every key a caller passes as a literal to msg(), _say(), label(), labelled() or note()."""
    prefixes = {"msg": "", "_say": "repl.", "label": "label.", "labelled": "label.", "note": ""}
    found = []
    for path in Path(gradrepl.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if func in prefixes and (func != "note" or path.parent.name in ("repl", "tutor")):
                    found.append((path.name, node.lineno, prefixes[func] + node.args[0].value))
    return found


def test_every_key_a_caller_names_is_in_the_catalogue():
    named = _named_keys()
    assert len(named) > 100
    # printer.note("...") in the REPL passes text, not keys: only the lesson players' note(key)
    missing = [(f, line, key) for f, line, key in named if key not in MESSAGES and " " not in key]
    assert not missing


def test_localize_round_trips_names_and_values_learners_produce():
    """Variable names, shapes and printed values in the fields (brackets, dots, minus signs)
    come back whole in the Chinese text."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    keys = sorted(k for k in MESSAGES if k.startswith(LOCALIZED))
    value = st.text(alphabet="abxyz_019 .[]()-,e+", min_size=1, max_size=12).filter(lambda v: v.strip() == v)

    @settings(max_examples=300, deadline=None)
    @given(st.sampled_from(keys), st.data())
    def round_trip(key, data):
        values = {name: data.draw(value, label=name) for name in fields(MESSAGES[key][0])}
        assert localize(msg(key, "en", **values), "zh") == msg(key, "zh", **values)
    round_trip()


def test_no_chinese_text_outside_the_catalogue():
    """Program text in Chinese lives in gradrepl/messages.py only (lesson files aside): a
    string literal elsewhere would be a second catalogue."""
    allowed = {("tutor/messages.py", "是"), ("tutor/messages.py", "好")}     # yes/no answers typed
    found = []
    root = Path(gradrepl.__file__).parent
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).as_posix()
        if rel == "messages.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings \
                    and re.search(f"[{CJK}]", re.sub(r".-.", "", node.value)) and (rel, node.value) not in allowed \
                    and "中文" not in node.value:      # the lesson format's heading syntax; regex ranges aside
                found.append((rel, node.value))
    assert not found


@pytest.mark.parametrize("source, flag", [
    ("n = 0\nwhile True:\n    n += 1\n", "--max-steps"),
    ("def f(n):\n    return f(n + 1)\nf(0)\n", "--max-depth"),
    ("x = [0] * 20000000\n", "--max-items"),
    ("x = 10 ** 200000\n", "--max-int-bits"),
    ("t = torch.zeros(10000, 10000)\n", "--max-elements"),
    ("print('x' * 2000000)\n", "--max-output"),
    ("y = " + "[" * 120 + "]" * 120 + "\n", "--max-ast-depth"),
    ("t = torch.zeros(3)\nfor i in range(10):\n    t = t + 1\n", None),     # no budget: nothing to translate
])
def test_budget_errors_are_shown_in_chinese(source, flag):
    """The budget messages are worded in gradrepl.limits, gradrepl.lang and the engine; the
    catalogue's budget.* templates must match them exactly, or the REPL shows English."""
    from gradrepl.lang import Session, run_source
    from gradrepl.limits import Limits

    session = Session(limits=Limits(max_steps=100_000, max_elements=1_000_000), write=lambda text: None)
    result = run_source(source, session)
    if flag is None:
        assert result.ok
        return
    (error,) = result.errors
    assert error.kind == "budget" and flag in error.message
    chinese = localize(error.message, "zh")
    assert chinese != error.message and re.search(f"[{CJK}]", chinese) and flag in chinese, error.message
