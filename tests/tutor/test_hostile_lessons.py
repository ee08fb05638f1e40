"""A lesson file is untrusted text: markup, links, escapes and odd values in it are shown as
text or refused with a clear error, never run as terminal codes or an internal error."""
import os
import re
import subprocess
import sys

import pytest

from gradrepl.tutor.lesson import LessonError, parse_lesson

EVIL = r'''+++
id = "evil"
number = 1
source = "x"

[title]
en = "Evil [/x] [blink]blinking[/blink] [link=http://evil.example]click[/link]"
zh = "Evil [/x]"

[summary]
en = "summary [bold red]x[/]"
zh = "s"
+++

## Section [/x] [blink]b[/blink] | 节

<!-- en -->
Text with [a markdown link](http://evil.example) and [link=http://evil.example]rich[/link]
and [blink]blink[/blink].

<!-- zh -->
中文

```python
print('a\x1b[5mb')
```
'''


def lesson(tmp_path, text=EVIL):
    (tmp_path / "01-evil.md").write_text(text, encoding="utf-8")
    return tmp_path


def gradrepl(*args):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env.update(FORCE_COLOR="1", COLUMNS="100")     # a terminal's rendering: links, styles
    p = subprocess.run([sys.executable, "-m", "gradrepl", "lesson", *args], capture_output=True,
                       text=True, env=env, timeout=120, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout + p.stderr


@pytest.mark.parametrize("args", [["list"], ["--check"], ["evil", "--auto"]])
def test_markup_and_links_in_a_lesson_are_shown_as_text(tmp_path, args):
    rc, out = gradrepl(*args, "--dir", str(lesson(tmp_path)))
    assert rc in (0, 1), out
    assert "internal error" not in out and "Traceback" not in out
    assert "\x1b]8;" not in out            # no OSC 8 hyperlink
    assert "\x1b[5m" not in out            # no blink
    if args != ["--check"]:
        assert "[/x]" in out               # markup printed as the text it is


@pytest.mark.parametrize("field,value,message", [
    ("summary", r'en = "a\u001b[5mb"', "control character U+001B is not allowed"),
    ("summary", r'en = "a\u009bb"', "control character U+009B is not allowed"),
])
def test_escapes_in_toml_are_refused_like_raw_control_characters(field, value, message):
    text = EVIL.replace('en = "summary [bold red]x[/]"', value)
    with pytest.raises(LessonError, match=re.escape(message)):
        parse_lesson(text, "evil.md")


def test_a_huge_lesson_number_is_refused():
    with pytest.raises(LessonError, match="number too large"):
        parse_lesson(EVIL.replace("number = 1", "number = " + "9" * 60), "evil.md")


def test_a_bad_lesson_is_a_clear_error_not_an_internal_one(tmp_path):
    rc, out = gradrepl("list", "--dir", str(lesson(tmp_path, EVIL.replace(
        "number = 1", "number = " + "9" * 60))))
    assert rc == 1 and "number too large" in out and "internal error" not in out
