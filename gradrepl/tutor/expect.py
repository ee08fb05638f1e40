"""Expected output of a code step, doctest style.

`...` in the expected text matches any text (also across lines), and any
`0x<hex>` address matches any other address, so PyTorch's own output can be
pasted as it is. Trailing spaces and trailing blank lines are ignored.
"""
from __future__ import annotations

import difflib
import re

_ADDRESS = re.compile(r"(0x[0-9a-fA-F]+)")


def normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n")).strip("\n")


def _segment(text: str) -> re.Pattern[str]:
    """A piece of expected text between wildcards: literal text and addresses."""
    parts = []
    for piece in _ADDRESS.split(text):
        # lazy: a piece ends as early as it can, so that the next wildcard gets the rest
        parts.append("0x[0-9a-fA-F]+?" if _ADDRESS.fullmatch(piece) else re.escape(piece))
    return re.compile("".join(parts))


def matches(expected: str, actual: str) -> bool:
    """Each `...` matches any text. The pieces between wildcards are found left to right,
    each at its first place after the one before (what a wildcard-only pattern needs), so a
    lesson with many wildcards cannot make matching backtrack (time linear in the text)."""
    segments = [_segment(piece) for piece in normalise(expected).split("...")]
    text = normalise(actual)
    if len(segments) == 1:
        return segments[0].fullmatch(text) is not None
    first = segments[0].match(text)
    if first is None:
        return False
    pos = first.end()
    for segment in segments[1:-1]:
        found = segment.search(text, pos)
        if found is None:
            return False
        pos = found.end()
    last = re.compile(f"(?:{segments[-1].pattern})\\Z")
    return last.search(text, pos) is not None


def difference(expected: str, actual: str) -> str:
    """A unified diff for reports ('' when the texts match)."""
    if matches(expected, actual):
        return ""
    lines = difflib.unified_diff(normalise(expected).split("\n"), normalise(actual).split("\n"),
                                 "expected", "actual", lineterm="")
    return "\n".join(lines)
